import { parsePlannerId, parsePlannerTarget } from './planner-id';

describe('planner ids', () => {
  it.each([
    ['anthropic-claude-sonnet-4.6-normal', 'anthropic-claude-sonnet', '4.6', 'normal'],
    ['navigator-2026-11-10-normal', 'navigator', '2026-11-10', 'normal'],
    ['openai-gpt-5-high', 'openai-gpt', '5', 'high'],
    ['Navigator-2026-11-10-Normal', 'navigator', '2026-11-10', 'normal'],
    ['openai-compatible-qwen2-vl-7.2-normal', 'openai-compatible-qwen2-vl', '7.2', 'normal'],
  ])('%s is family %s, version %s, effort %s', (raw, family, version, effort) => {
    expect(parsePlannerId(raw)).toEqual({
      kind: 'versioned',
      id: raw.toLowerCase(),
      family,
      version,
      effort,
    });
  });

  it('a script is scripted-<uuid>, of the family scripted', () => {
    expect(parsePlannerId('scripted-6F1C2A94-0E3B-4D6A-9B1C-2D3E4F5A6B7C')).toEqual({
      kind: 'scripted',
      id: 'scripted-6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c',
      family: 'scripted',
      uuid: '6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c',
    });
  });

  it.each([
    'gpt-4',
    'scripted-1',
    'scripted-1-normal',
    'navigator',
    'navigator-normal',
    'navigator-2026-11-10',
    '4-claude-1-normal',
    'claude-4o-1-normal',
    'claude--1-normal',
    'claude-1-normal-',
    ' claude-1-normal',
    'a'.repeat(201),
    7,
    null,
  ])('%p is no planner id', (raw) => {
    expect(parsePlannerId(raw)).toBeNull();
  });

  it('an allow or deny names an id or a family', () => {
    expect(parsePlannerTarget('navigator-2026-11-10-normal')).toEqual({
      id: 'navigator-2026-11-10-normal',
    });
    expect(parsePlannerTarget('Anthropic-Claude-Sonnet')).toEqual({
      family: 'anthropic-claude-sonnet',
    });
    expect(parsePlannerTarget('scripted')).toEqual({ family: 'scripted' });
    expect(parsePlannerTarget('Not A Planner!')).toBeNull();
    expect(parsePlannerTarget('claude-4')).toBeNull();
  });
});
