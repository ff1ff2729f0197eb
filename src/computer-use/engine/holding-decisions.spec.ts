import { createHash } from 'node:crypto';
import type { Change } from '../actions';
import type { RailRecord } from '../rail/screen-rail';
import {
  approvalRedaction,
  approvalTimes,
  auditedChange,
  flaggedRail,
  heldDetails,
  redactionWhy,
} from './holding-decisions';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const now = Date.UTC(2026, 11, 1, 9, 0, 0);
const at = (seconds: number) => new Date(now + seconds * 1000);

describe("a held write's times", () => {
  const quiet = { remind_after_seconds: null, escalate_to: [], escalate_after_seconds: null };
  it.each([
    ['no reminder, nobody to escalate to', quiet, null, null],
    ['a reminder', { ...quiet, remind_after_seconds: 60 }, at(60), null],
    [
      'escalated after a while',
      { ...quiet, escalate_to: ['group:leads'], escalate_after_seconds: 300 },
      null,
      at(300),
    ],
    [
      'an escalation delay with nobody to escalate to is never',
      { ...quiet, escalate_after_seconds: 300 },
      null,
      null,
    ],
    [
      'someone to escalate to, no delay: never',
      { ...quiet, escalate_to: ['group:leads'] },
      null,
      null,
    ],
  ])('%s', (_, inForce, remindAt, escalateAt) => {
    expect(approvalTimes(900, inForce, now)).toEqual({ expiresAt: at(900), remindAt, escalateAt });
  });
});

const rail = (verdict: RailRecord['verdict']): RailRecord => ({
  verdict,
  rule: verdict === 'clean' ? null : 'ignore previous instructions',
  text_sha256: verdict === 'clean' ? null : sha('ignore previous instructions'),
  source: verdict === 'clean' ? null : 'outline',
  rect: null,
});

describe("the rail's record an approval keeps", () => {
  it.each([
    ['clean', null],
    ['suspect', 'suspect'],
    ['injected', 'injected'],
  ] as const)('%s', (verdict, kept) => {
    expect(flaggedRail(rail(verdict))?.verdict ?? null).toBe(kept);
  });
  it('nothing when the rail did not look', () => expect(flaggedRail(null)).toBeNull());
});

const change: Change = {
  field: 'Net price',
  before: '100.00',
  after: '95.00',
  read_back: null,
  read_back_check: 'unread',
  step: 4,
  rect: { x: 1, y: 2, width: 3, height: 4 },
};

describe('a change as the audit trail keeps it', () => {
  it('hashes every value and keeps none, nor where the field is', () => {
    const audited = auditedChange(change);
    expect(audited).toEqual({
      field: 'Net price',
      step: 4,
      before_sha256: sha('100.00'),
      after_sha256: sha('95.00'),
      read_back_sha256: null,
      read_back_check: 'unread',
    });
    expect(JSON.stringify(audited)).not.toMatch(/100\.00|95\.00/);
  });

  it('keeps what kind of line it is, as the approver was shown it', () => {
    expect(auditedChange({ ...change, kind: 'navigation' })).toMatchObject({ kind: 'navigation' });
  });
});

describe('what computer_use.write.held says', () => {
  const held = {
    agent: 'sap-orders',
    approval: { id: 'ap-1', deciders: ['group:leads'] },
    action: { action: 'click', x: 10, y: 20 } as const,
    why: 'Save is a commit word',
    screenSha256: 'a'.repeat(64),
    screenPixelSha256: 'b'.repeat(64),
    expiresAt: at(900),
    safetyChecks: [],
    changes: null,
    rail: null,
  };

  it('names the approval, the screen and who may decide, and nothing it does not have', () => {
    expect(heldDetails(held)).toEqual({
      agent: 'sap-orders',
      approval_id: 'ap-1',
      action: { action: 'click', x: 10, y: 20 },
      why: 'Save is a commit word',
      screen_sha256: 'a'.repeat(64),
      screen_pixel_sha256: 'b'.repeat(64),
      expires_at: '2026-12-01T09:15:00.000Z',
      may_decide_now: ['group:leads'],
    });
    expect(heldDetails({ ...held, rail: rail('clean') })).not.toHaveProperty('rail');
  });

  it('adds safety checks, the hashed change list and a flagged rail', () => {
    const check = { id: 'sc-1', code: 'malicious_instructions', message: 'careful' };
    const details = heldDetails({
      ...held,
      safetyChecks: [check],
      changes: [change],
      rail: rail('injected'),
    });
    expect(details).toMatchObject({
      safety_checks: [check],
      changes: [auditedChange(change)],
      rail: {
        verdict: 'injected',
        rule: 'ignore previous instructions',
        text_sha256: sha('ignore previous instructions'),
      },
    });
    expect(details.rail).not.toHaveProperty('source');
  });
});

describe("what a held write's approval says of redact_regions", () => {
  const space = { width: 1000, height: 500 };
  const bar = { x: 0, y: 480, width: 1000, height: 20 };

  it('is null for an agent that redacts nothing', () => {
    expect(approvalRedaction([], space, false, null)).toBeNull();
    expect(redactionWhy(null)).toBeNull();
  });

  it('says how much of the screen is black, rounded up, overlaps once and clipped to the screen', () => {
    expect(approvalRedaction([bar], space, false, null)).toEqual({
      percent: 4,
      regions: [bar],
      target: false,
      changes: [],
    });
    const tiny = { x: 0, y: 0, width: 1, height: 1 };
    expect(approvalRedaction([tiny], space, false, null)!.percent).toBe(0.1);
    const whole = { x: -50, y: -50, width: 2000, height: 2000 };
    expect(approvalRedaction([whole, bar], space, false, null)!.percent).toBe(100);
    expect(approvalRedaction([bar, bar], space, false, null)!.percent).toBe(4);
  });

  it('names the steps of the changes whose field lies under a region, and the target', () => {
    const under = { ...change, step: 3, rect: { x: 10, y: 485, width: 100, height: 10 } };
    const unknown = { ...change, step: 5, rect: null };
    const redaction = approvalRedaction([bar], space, true, [change, under, unknown])!;
    expect(redaction).toMatchObject({ target: true, changes: [3] });
    expect(redactionWhy(redaction)).toBe(
      "it lands under this agent's redact_regions: the screen shown to you is black where it acts; a change it stores (step 3) is in a field under this agent's redact_regions: the screen shown to you is black there",
    );
    expect(redactionWhy({ ...redaction, target: false, changes: [3, 4] })).toBe(
      "2 changes it stores (step 3, 4) are in a field under this agent's redact_regions: the screen shown to you is black there",
    );
    // Nothing of the write lies there: the why says nothing (the page still shows the share).
    expect(redactionWhy({ ...redaction, target: false, changes: [] })).toBeNull();
    expect(
      heldDetails({
        agent: 'a',
        approval: { id: 'ap', deciders: null },
        action: { action: 'key', key: 'Enter' },
        why: 'Enter commits',
        screenSha256: 'a'.repeat(64),
        screenPixelSha256: 'b'.repeat(64),
        expiresAt: at(60),
        safetyChecks: [],
        changes: null,
        rail: null,
        redaction,
      }),
    ).toMatchObject({ redaction });
  });
});
