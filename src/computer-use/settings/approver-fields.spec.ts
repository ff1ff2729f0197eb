import { DomainError } from '../../common/domain-error';
import { AGENT_DEFAULTS } from './agent-config';
import { parseApproverFields } from './approver-fields';
import { parseConfigBody } from './parse-config';

const AGENT = {
  screen_url: 'https://sapgui-host.internal:8443',
  screen_token_env: 'TICKETIQ_SAPGUI_HOST_TOKEN',
};

function parsed(fields: Record<string, unknown>) {
  return parseConfigBody({ enabled: true, agents: { a: { ...AGENT, ...fields } } }).config.agents.a;
}

function refusal(fields: Record<string, unknown>): string {
  try {
    parsed(fields);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('accepted');
}

describe('approver fields of an agent', () => {
  it('defaults to anyone with agents.approve, no reminder and no escalation', () => {
    expect(AGENT_DEFAULTS).toMatchObject({
      approvers: [],
      remind_after_seconds: null,
      escalate_after_seconds: null,
      escalate_to: [],
    });
    expect(parsed({})).toMatchObject({ approvers: [], escalate_to: [] });
  });

  it('accepts groups and subjects, a reminder and an escalation before the timeout', () => {
    expect(
      parsed({
        approvers: ['sap-leads', 'carol'],
        remind_after_seconds: 600,
        escalate_after_seconds: 1800,
        escalate_to: ['finance-heads'],
      }),
    ).toMatchObject({
      approvers: ['sap-leads', 'carol'],
      remind_after_seconds: 600,
      escalate_after_seconds: 1800,
      escalate_to: ['finance-heads'],
    });
    // Short timers are allowed (tests wait for them), null is "never".
    expect(
      parsed({
        approval_timeout_seconds: 5,
        remind_after_seconds: 1,
        escalate_after_seconds: 2,
        escalate_to: ['x'],
      }),
    ).toMatchObject({ remind_after_seconds: 1, escalate_after_seconds: 2 });
    expect(parsed({ remind_after_seconds: null, escalate_after_seconds: null })).toMatchObject({
      remind_after_seconds: null,
      escalate_after_seconds: null,
    });
  });

  it.each([
    [
      { approvers: 'sap-leads' },
      'agents.a.approvers must be a list of group names or token subjects',
    ],
    [{ approvers: ['ok', ''] }, 'agents.a.approvers.1 must be a group name or token subject'],
    [{ approvers: [' padded'] }, 'agents.a.approvers.0 must be a group name or token subject'],
    [{ approvers: [7] }, 'agents.a.approvers.0 must be a group name or token subject'],
    [{ approvers: ['x'.repeat(201)] }, 'agents.a.approvers.0 must be a group name'],
    [{ approvers: ['a', 'b', 'a'] }, 'agents.a.approvers.2: "a" is listed twice'],
    [{ approvers: Array.from({ length: 51 }, (_, i) => `g${i}`) }, 'at most 50 entries'],
    [
      { remind_after_seconds: 0 },
      'agents.a.remind_after_seconds must be null or a whole number of seconds from 1',
    ],
    [{ remind_after_seconds: 1.5 }, 'agents.a.remind_after_seconds must be null or a whole number'],
    [
      { remind_after_seconds: '60' },
      'agents.a.remind_after_seconds must be null or a whole number',
    ],
    [
      { remind_after_seconds: 3600 },
      'agents.a.remind_after_seconds must be less than approval_timeout_seconds (3600)',
    ],
    [
      { approval_timeout_seconds: 60, escalate_after_seconds: 60, escalate_to: ['x'] },
      'agents.a.escalate_after_seconds must be less than approval_timeout_seconds (60)',
    ],
    [
      { remind_after_seconds: 60, escalate_after_seconds: 60, escalate_to: ['x'] },
      'agents.a.escalate_after_seconds must be greater than remind_after_seconds (60)',
    ],
    [
      { escalate_after_seconds: 60 },
      'agents.a.escalate_to is required when escalate_after_seconds is set',
    ],
    [
      { escalate_after_seconds: 60, escalate_to: [] },
      'agents.a.escalate_to is required when escalate_after_seconds is set',
    ],
    [
      { escalate_to: ['x'] },
      'agents.a.escalate_after_seconds is required when escalate_to is given',
    ],
    [{ escalate_after_seconds: 60, escalate_to: [''] }, 'agents.a.escalate_to.0 must be a group'],
  ])('refuses %j', (fields, message) => {
    expect(refusal(fields)).toContain(message);
  });

  it('leaves the timeout check to approval_timeout_seconds when that is itself refused', () => {
    const problems: string[] = [];
    expect(parseApproverFields({ remind_after_seconds: 10 }, 'a', 'soon', problems)).toEqual({
      approvers: [],
      remind_after_seconds: 10,
      escalate_after_seconds: null,
      escalate_to: [],
    });
    expect(problems).toEqual([]);
  });
});
