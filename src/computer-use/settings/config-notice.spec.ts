import { AGENT_DEFAULTS, type AgentConfig, type ComputerUseConfig } from './agent-config';
import { typeApprovers } from './config-notice';

const agent = (fields: Partial<AgentConfig> = {}): AgentConfig => ({
  ...AGENT_DEFAULTS,
  screen_url: 'https://host:8443',
  screen_token_env: 'HOST_TOKEN',
  ...fields,
});
const config = (agents: Record<string, AgentConfig>): ComputerUseConfig => ({
  enabled: true,
  agents,
});

describe('typeApprovers', () => {
  it('types each untyped entry both ways, as it was matched before, and says so', () => {
    const before = config({
      'sap-orders': agent({
        approvers: ['sap-leads', 'carol'],
        escalate_after_seconds: 600,
        escalate_to: ['heads'],
      }),
      reports: agent(),
    });
    const typed = typeApprovers(before)!;
    expect(typed.config.agents['sap-orders']).toEqual({
      ...before.agents['sap-orders'],
      approvers: ['group:sap-leads', 'subject:sap-leads', 'group:carol', 'subject:carol'],
      escalate_to: ['group:heads', 'subject:heads'],
    });
    expect(typed.config.agents.reports).toEqual(before.agents.reports);
    expect(typed.notice).toMatchObject({
      code: 'approvers_typed',
      message: expect.stringMatching(/rewritten as both "group:NAME" and "subject:NAME"/),
      changes: [
        {
          path: 'agents.sap-orders.approvers',
          from: ['sap-leads', 'carol'],
          to: ['group:sap-leads', 'subject:sap-leads', 'group:carol', 'subject:carol'],
        },
        {
          path: 'agents.sap-orders.escalate_to',
          from: ['heads'],
          to: ['group:heads', 'subject:heads'],
        },
      ],
    });
  });

  it('reads a name that looks typed as the name it was', () => {
    const typed = typeApprovers(config({ a: agent({ approvers: ['group:x'] }) }))!;
    expect(typed.config.agents.a.approvers).toEqual(['group:group:x', 'subject:group:x']);
  });

  it('writes nothing when no agent names approvers (also an agent from before they existed)', () => {
    const old = { ...agent() } as Partial<AgentConfig>;
    delete old.approvers;
    delete old.escalate_to;
    expect(typeApprovers(config({ a: agent(), b: old as AgentConfig }))).toBeNull();
    expect(typeApprovers(config({}))).toBeNull();
  });
});
