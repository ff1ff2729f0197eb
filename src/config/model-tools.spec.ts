import { toolOf, toolRows, unknownModel } from './model-tools';

describe('the tool follows the model (config/model-tools.json)', () => {
  it.each([
    ['claude-sonnet-5-5', 'computer_toolset_20260801'],
    ['claude-opus-5-5', 'computer_toolset_20260801'],
    ['claude-haiku-5-5', 'computer_toolset_20260801'],
    ['claude-fable-5-2', 'computer_toolset_20260801'],
    ['claude-sonnet-5', 'computer_toolset_20260801'],
    ['claude-opus-4-6', 'computer_20251124'],
    ['claude-opus-4-5-20251101', 'computer_20251124'],
    ['claude-sonnet-4-6', 'computer_20251124'],
    ['claude-sonnet-4-5', 'computer_20250124'],
    ['claude-sonnet-4-5-20250929', 'computer_20250124'],
    ['claude-haiku-4-5', 'computer_20250124'],
    ['claude-opus-4-1', 'computer_20250124'],
  ])('anthropic %s takes %s', (model, tool) => {
    expect(toolOf('anthropic', model)).toBe(tool);
    expect(unknownModel('anthropic', model)).toBeNull();
  });

  it.each([
    ['gpt-5.4', 'computer'],
    ['gpt-5.4-mini', 'computer'],
    ['gpt-5.6-sol', 'computer'],
    ['gpt-6', 'computer'],
    ['computer-use-preview', 'computer_use_preview'],
    ['computer-use-preview-2025-03-11', 'computer_use_preview'],
  ])('openai %s takes %s', (model, tool) => {
    expect(toolOf('openai', model)).toBe(tool);
  });

  it('an openai-compatible server is asked for JSON, whatever its model', () => {
    expect(toolOf('openai-compatible', 'Qwen/Qwen2.5-VL-7B-Instruct')).toBe('json');
    expect(unknownModel('openai-compatible', 'anything')).toBeNull();
  });

  it.each([
    ['anthropic', 'claude-3-5-sonnet-20241022'],
    ['anthropic', 'claude-sonnet-5-5-x'],
    ['anthropic', 'xclaude-sonnet-5-5'],
    ['openai', 'gpt-4o'],
    ['openai', 'gpt-5.2'],
    ['openai', 'computer-use-preview-latest'],
  ] as const)('refuses %s %s with the reason and what the table knows', (provider, model) => {
    expect(toolOf(provider, model)).toBeNull();
    const why = unknownModel(provider, model)!;
    expect(why).toContain(`the ${provider} model "${model}"`);
    expect(why).toContain('config/model-tools.json');
    for (const row of toolRows(provider)) expect(why).toContain(row.note);
  });
});
