import { AGENT_DEFAULTS, type AgentConfig, type ComputerUseConfig } from './agent-config';
import { diffConfigs } from './config-diff';

const agent = (fields: Partial<AgentConfig> = {}): AgentConfig => ({
  ...AGENT_DEFAULTS,
  screen_url: 'https://host:8443',
  screen_token_env: 'HOST_TOKEN',
  ...fields,
});

const config = (agents: Record<string, AgentConfig>, enabled = true): ComputerUseConfig => ({
  enabled,
  agents,
});

describe('diffConfigs', () => {
  it('names agents added, removed and changed, and each changed field old → new', () => {
    const before = config({ a: agent(), b: agent(), c: agent() }, false);
    const after = config({
      a: agent({ max_steps: 30, ignore_regions: [{ x: 0, y: 0, width: 5, height: 5 }] }),
      c: agent(),
      d: agent(),
    });
    const diff = diffConfigs(before, after);
    expect(diff.agents_added).toEqual(['d']);
    expect(diff.agents_removed).toEqual(['b']);
    expect(diff.agents_changed).toEqual(['a']);
    expect(diff.changes).toEqual([
      { path: 'enabled', from: false, to: true },
      {
        path: 'agents.a.ignore_regions',
        from: [],
        to: [{ x: 0, y: 0, width: 5, height: 5 }],
      },
      { path: 'agents.a.max_steps', from: 20, to: 30 },
      { path: 'agents.b', from: agent(), to: null },
      { path: 'agents.d', from: null, to: agent() },
    ]);
  });

  it('is empty when nothing changed, whatever the key order', () => {
    const a = agent({ planner: 'scripted-00000000-0000-4000-8000-000000000000' });
    const reordered = JSON.parse(JSON.stringify(a, Object.keys(a).sort())) as AgentConfig;
    expect(diffConfigs(config({ a }), config({ a: reordered })).changes).toEqual([]);
  });

  it('treats no config as disabled with no agents', () => {
    expect(diffConfigs(null, config({}, false)).changes).toEqual([]);
  });
});
