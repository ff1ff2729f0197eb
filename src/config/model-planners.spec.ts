import { loadConfig } from './app-config';
import { parseModelPlanners } from './model-planners';

const opus = {
  id: 'anthropic-claude-opus-4.1-normal',
  provider: 'anthropic',
  model: 'claude-opus-4-1',
  api_key_env: 'OPUS_KEY',
};
const parse = (planners: unknown) => parseModelPlanners(JSON.stringify(planners));

describe('MODEL_PLANNERS', () => {
  it('reads each planner with its defaults: not public, no tags, no programs', () => {
    expect(parseModelPlanners(undefined)).toEqual([]);
    expect(
      parse([
        opus,
        { ...opus, id: 'anthropic-claude-opus-4.1-high', public: true, tags: ['researcher'] },
      ]),
    ).toEqual([
      { ...opus, base_url: null, public: false, tags: [], programs: [] },
      {
        ...opus,
        id: 'anthropic-claude-opus-4.1-high',
        base_url: null,
        public: true,
        tags: ['researcher'],
        programs: [],
      },
    ]);
  });

  it.each([
    ['not JSON', '[{', /must be a JSON array/],
    ['an object', '{}', /must be a JSON array/],
    [
      'an unknown field',
      JSON.stringify([{ ...opus, key: 'sk-x' }]),
      /MODEL_PLANNERS\[0\]\.key is not a field/,
    ],
    [
      'an id that is no planner id',
      JSON.stringify([{ ...opus, id: 'opus' }]),
      /\[0\]\.id must be a planner id/,
    ],
    [
      'the navigator family',
      JSON.stringify([{ ...opus, id: 'navigator-2027-01-01-normal' }]),
      /are not models/,
    ],
    ['an id twice', JSON.stringify([opus, opus]), /\[1\]\.id .* is there twice/],
    [
      'an unknown provider',
      JSON.stringify([{ ...opus, provider: 'acme' }]),
      /\[0\]\.provider must be one of/,
    ],
    [
      'a key that is no variable name',
      JSON.stringify([{ ...opus, api_key_env: 'sk-123' }]),
      /api_key_env must name/,
    ],
    [
      'openai-compatible without base_url',
      JSON.stringify([{ ...opus, provider: 'openai-compatible' }]),
      /base_url is required/,
    ],
    [
      'a tag in capitals',
      JSON.stringify([{ ...opus, tags: ['Research'] }]),
      /tags must be lower-case words/,
    ],
  ])('refuses %s', (_case, raw, problem) => {
    expect(parseModelPlanners(raw)).toMatch(problem);
  });

  it('a deployment with a bad MODEL_PLANNERS does not start', () => {
    expect(() => loadConfig({ MODEL_PLANNERS: '[{"id": "x"}]' })).toThrow(
      /Invalid configuration: MODEL_PLANNERS\[0\]\.id must be a planner id/,
    );
  });
});
