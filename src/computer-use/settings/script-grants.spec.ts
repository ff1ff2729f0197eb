import { scriptSha256 } from '../planner-contract/script-sha256';
import { AGENT_DEFAULTS, type AgentConfig, type ComputerUseConfig } from './agent-config';
import { agentsBoundTo, grantChanges, grantsOf, regranted, scriptBound } from './script-grants';

const A = '6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c';
const B = '0b0e6a7c-1d2e-4f3a-8b9c-0d1e2f3a4b5c';
const SCRIPT_A = { steps: [{ action: { action: 'key', key: 'Tab' } }] };
const SCRIPT_B = { steps: [{ action: { action: 'key', key: 'Enter' } }] };

const agent = (fields: Partial<AgentConfig> = {}): AgentConfig => ({
  ...AGENT_DEFAULTS,
  screen_url: 'https://host:8443',
  screen_token_env: 'HOST_TOKEN',
  ...fields,
});
const loose = (planner: AgentConfig['planner']) =>
  agent({ require_write_approval: false, reason: 'nightly report', planner });
const config = (agents: Record<string, AgentConfig>): ComputerUseConfig => ({
  enabled: true,
  agents,
});

describe('script grants', () => {
  const cfg = config({
    nightly: loose(`scripted-${A}`),
    // An id in capitals names the same script.
    weekly: loose(`scripted-${A.toUpperCase()}`),
    other: loose(`scripted-${B}`),
    held: agent({ planner: `scripted-${A}` }),
    model: loose(null),
  });
  const live = new Map<string, unknown>([
    [A, SCRIPT_A],
    [B, SCRIPT_B],
  ]);

  it('binds only the agents whose writes need no approval and whose planner is a script', () => {
    expect(scriptBound(cfg)).toEqual([
      { agent: 'nightly', uuid: A },
      { agent: 'other', uuid: B },
      { agent: 'weekly', uuid: A },
    ]);
    expect(agentsBoundTo(cfg, A)).toEqual(['nightly', 'weekly']);
  });

  it('grants each bound agent the content its script has now; a script not there grants nothing', () => {
    expect(grantsOf(cfg, live)).toEqual({
      nightly: scriptSha256(SCRIPT_A),
      weekly: scriptSha256(SCRIPT_A),
      other: scriptSha256(SCRIPT_B),
    });
    expect(grantsOf(cfg, new Map([[B, SCRIPT_B]]))).toEqual({ other: scriptSha256(SCRIPT_B) });
  });

  it('moves the grant of the agents bound to a script that changed, and drops it when deleted', () => {
    const grants = grantsOf(cfg, live);
    expect(regranted(cfg, grants, A, SCRIPT_B)).toEqual({
      nightly: scriptSha256(SCRIPT_B),
      weekly: scriptSha256(SCRIPT_B),
      other: scriptSha256(SCRIPT_B),
    });
    expect(regranted(cfg, grants, A, null)).toEqual({ other: scriptSha256(SCRIPT_B) });
    expect(regranted(cfg, grants, '00000000-0000-4000-8000-000000000000', null)).toEqual(grants);
  });

  it('lists each agent whose grant differs', () => {
    expect(grantChanges({ a: 'x', b: 'y' }, { b: 'z', c: 'w' })).toEqual([
      { path: 'script_grants.a', from: 'x', to: null },
      { path: 'script_grants.b', from: 'y', to: 'z' },
      { path: 'script_grants.c', from: null, to: 'w' },
    ]);
    expect(grantChanges({ a: 'x' }, { a: 'x' })).toEqual([]);
  });
});
