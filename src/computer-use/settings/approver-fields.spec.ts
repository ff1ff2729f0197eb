import { DomainError } from '../../common/domain-error';
import { AGENT_DEFAULTS } from './agent-config';
import { parseApproverFields, typedAsBefore } from './approver-fields';
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
        approvers: ['group:sap-leads', 'subject:carol'],
        remind_after_seconds: 600,
        escalate_after_seconds: 1800,
        escalate_to: ['group:finance-heads'],
      }),
    ).toMatchObject({
      approvers: ['group:sap-leads', 'subject:carol'],
      remind_after_seconds: 600,
      escalate_after_seconds: 1800,
      escalate_to: ['group:finance-heads'],
    });
    // A group and a subject of one name are two entries; a name may hold a colon.
    expect(
      parsed({ approvers: ['group:carol', 'subject:carol', 'group:sap:leads', 'subject:a b'] }),
    ).toMatchObject({
      approvers: ['group:carol', 'subject:carol', 'group:sap:leads', 'subject:a b'],
    });
    // Short timers are allowed (tests wait for them), null is "never".
    expect(
      parsed({
        approval_timeout_seconds: 5,
        remind_after_seconds: 1,
        escalate_after_seconds: 2,
        escalate_to: ['group:x'],
      }),
    ).toMatchObject({ remind_after_seconds: 1, escalate_after_seconds: 2 });
    expect(parsed({ remind_after_seconds: null, escalate_after_seconds: null })).toMatchObject({
      remind_after_seconds: null,
      escalate_after_seconds: null,
    });
  });

  it.each([
    [
      { approvers: 'group:sap-leads' },
      'agents.a.approvers must be a list of "group:NAME" and "subject:NAME" entries',
    ],
    [
      { approvers: ['group:sap-leads', 'carol'] },
      'agents.a.approvers.1 "carol" does not say what it names: write "group:carol" for a group of the identity provider, or "subject:carol" for an API token\'s subject or a person\'s subject (sub)',
    ],
    [{ approvers: ['Group:x'] }, 'agents.a.approvers.0 "Group:x" does not say what it names'],
    [{ approvers: ['user:carol'] }, 'agents.a.approvers.0 "user:carol" does not say what it names'],
    [
      { approvers: ['group:ok', 'group:'] },
      'agents.a.approvers.1 must name a group after "group:": 1-200 characters',
    ],
    [{ approvers: ['subject: padded'] }, 'agents.a.approvers.0 must name a subject after'],
    [{ approvers: [7] }, 'agents.a.approvers.0 must be a string: "group:NAME" or "subject:NAME"'],
    [{ approvers: [`group:${'x'.repeat(201)}`] }, 'agents.a.approvers.0 must name a group'],
    [
      { approvers: ['group:a', 'subject:b', 'group:a'] },
      'agents.a.approvers.2: "group:a" is listed twice',
    ],
    [{ approvers: Array.from({ length: 101 }, (_, i) => `group:g${i}`) }, 'at most 100 entries'],
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
      { approval_timeout_seconds: 60, escalate_after_seconds: 60, escalate_to: ['group:x'] },
      'agents.a.escalate_after_seconds must be less than approval_timeout_seconds (60)',
    ],
    [
      { remind_after_seconds: 60, escalate_after_seconds: 60, escalate_to: ['group:x'] },
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
      { escalate_to: ['group:x'] },
      'agents.a.escalate_after_seconds is required when escalate_to is given',
    ],
    [
      { escalate_after_seconds: 60, escalate_to: ['heads'] },
      'agents.a.escalate_to.0 "heads" does not say what it names: write "group:heads"',
    ],
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

describe('typedAsBefore', () => {
  it('reads an untyped name both ways, as it was matched before entries were typed', () => {
    expect(typedAsBefore('sap-leads')).toEqual(['group:sap-leads', 'subject:sap-leads']);
  });
});
