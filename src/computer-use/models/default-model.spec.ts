import { defaultModelId } from './default-model';

const deployment = (model: string, id?: string) => ({
  DEFAULT_MODEL_PROVIDER: 'anthropic' as const,
  DEFAULT_MODEL: model,
  DEFAULT_MODEL_API_KEY_ENV: 'ANTHROPIC_API_KEY',
  DEFAULT_MODEL_BASE_URL: undefined,
  DEFAULT_MODEL_ID: id,
});

describe("the default model's id in the catalog", () => {
  it.each([
    ['claude-sonnet-4-5', 'anthropic-claude-sonnet-4.5-normal'],
    ['claude-sonnet-4.6', 'anthropic-claude-sonnet-4.6-normal'],
    ['Claude Opus 4', 'anthropic-claude-opus-4-normal'],
    ['gpt-4o', 'anthropic-default-1-normal'],
    ['local-vlm', 'anthropic-default-1-normal'],
  ])('%s → %s', (model, id) => {
    expect(defaultModelId(deployment(model))).toBe(id);
  });

  it('is DEFAULT_MODEL_ID when set, and null with no default model', () => {
    expect(defaultModelId(deployment('x', 'anthropic-house-2026-01-01-normal'))).toBe(
      'anthropic-house-2026-01-01-normal',
    );
    expect(defaultModelId({ ...deployment('x'), DEFAULT_MODEL_PROVIDER: undefined })).toBeNull();
  });
});
