import type { Approval } from '../approvals/approval.entity';
import type { StagedEdit } from '../actions';
import { Step } from '../runs/step.entity';
import { SecretRefused } from '../../secrets/secret-grants.service';
import { failedTooOften, secretRefusedWhileSending } from './run-ends';

const TYPE = { action: 'type', text: '/nVA03' };

function step(fields: Partial<Step>): Step {
  return Object.assign(new Step(), {
    id: 'step-1',
    n: 2,
    phase: 'sending',
    action: TYPE,
    why: 'typing into the command field',
    classification: 'write',
    staged: null,
    ...fields,
  });
}

const approval = {
  id: 'approval-1',
  action: TYPE,
  decidedBy: 'bob',
  spentBy: 'olga',
} as unknown as Approval;

const failed = (s: Step, a: Approval | null = null) =>
  failedTooOften(s, 10, new Error('refused for the test'), a);

describe('a step whose jobs keep failing', () => {
  it('ends a write that was sending as one whose outcome is unknown, with the approval spent on it', () => {
    const ends = failed(step({}), approval);
    expect(ends.reason).toBe('outcome_unknown');
    expect(ends.step).toEqual({
      outcome: null,
      fields: {
        error: expect.stringMatching(/failed 10 times .*whether the screen host acted is unknown/),
      },
    });
    expect(ends.event).toEqual({
      type: 'computer_use.write.unknown',
      details: expect.objectContaining({
        action: TYPE,
        idempotency_key: 'step-1',
        approval_id: 'approval-1',
        approved_by: 'bob',
        resumed_by: 'olga',
      }),
    });
  });

  it('names the authority of a write that needed no approval, or was staged', () => {
    expect(failed(step({})).event?.details).toMatchObject({
      approval_id: null,
      without_approval: 'require_write_approval is off for this agent',
    });
    const staged = {
      field: { label: 'Req. Deliv. Date' },
      before: '15.03.2026',
      text: '30.04.2026',
    } as unknown as StagedEdit;
    expect(failed(step({ staged })).event?.details).toMatchObject({
      staged: true,
      field: 'Req. Deliv. Date',
      without_approval: expect.stringMatching(/approve_at: "commit"/),
    });
  });

  it('counts an action sent under an approval as a write, whatever its classification says', () => {
    expect(failed(step({ classification: 'read' }), approval).event?.type).toBe(
      'computer_use.write.unknown',
    );
  });

  it('records a read that was sending as of unknown outcome, with no write event', () => {
    const ends = failed(step({ classification: 'read', action: { action: 'click', x: 1, y: 2 } }));
    expect(ends.reason).toBe('outcome_unknown');
    expect(ends.step.outcome).toBeNull();
    expect(ends.step.fields?.error).toMatch(/whether the screen host acted is unknown/);
    expect(ends.event).toBeUndefined();
  });

  it('ends a step that was not sending as before: no event, a model or screen host error', () => {
    expect(failed(step({ phase: 'planning' }))).toMatchObject({
      reason: 'model_error',
      event: undefined,
    });
    for (const phase of ['observing', 'approved'] as const) {
      expect(failed(step({ phase }))).toMatchObject({
        reason: 'screen_host_error',
        event: undefined,
      });
    }
  });
});

describe('a sending step whose host token may no longer be sent', () => {
  const refused = new SecretRefused('not_granted', 'the token is not granted for the host');

  it('ends a write as one whose outcome is unknown, audited with its authority', () => {
    const ends = secretRefusedWhileSending(step({}), approval, refused);
    expect(ends.reason).toBe('outcome_unknown');
    expect(ends.step.fields?.error).toMatch(/not granted .*whether it acted is unknown/);
    expect(ends.event).toMatchObject({
      type: 'computer_use.write.unknown',
      details: { approval_id: 'approval-1', error: expect.stringMatching(/not granted/) },
    });
  });

  it('ends a read not_granted, its outcome unknown, with no write event', () => {
    const ends = secretRefusedWhileSending(step({ classification: 'read' }), null, refused);
    expect(ends.reason).toBe('not_granted');
    expect(ends.step.outcome).toBeNull();
    expect(ends.step.fields?.error).toMatch(/whether it acted is unknown/);
    expect(ends.event).toBeUndefined();
  });
});
