/**
 * The approval page's views as data (browser/approval-view.ts): what each part of the page shows
 * of its state, for each standing of the write and each person. The console e2e tests check the
 * nodes in Chromium.
 */
import {
  decidedInWords,
  followRunHref,
  leadView,
  noteText,
  panelKey,
  panelView,
  runMayHaveMoved,
  safetyCheckLines,
  sentCaption,
  settled,
  standView,
  systemOf,
  volatileInWords,
  whyNot,
  whyTitle,
  type ApprovalState,
} from './browser/approval-view';
import { runOf, stepOf, waitingAction } from '../../test/support/console-answers';
import type { Approval, Run, Step } from './browser/api-types';

const NOW = Date.parse('2026-03-15T10:10:00Z');

const approval: Approval = waitingAction();
const step = stepOf;
const run = runOf;

const state = (over: Partial<ApprovalState> = {}): ApprovalState => ({
  approval,
  run: run(),
  canOperate: false,
  canReadRuns: false,
  ...over,
});

describe('the approval page as data', () => {
  it('stands waiting, with the decision open, and says what approving does for this person', () => {
    const s = state();
    expect(standView(s, NOW)).toEqual({
      className: 'standing standing-pending',
      text: expect.stringMatching(/^Waiting for a decision for 5 min; expires /) as string,
    });
    expect(whyTitle(s)).toBe('Why Warden holds it');
    expect(whyNot(s)).toBeNull();
    expect(panelView(s)).toEqual({
      kind: 'decide',
      approveLabel: 'Approve (an operator sends it)',
      approveClosed: false,
      rejectClosed: false,
    });
    expect(panelView({ ...s, canOperate: true })).toMatchObject({
      approveLabel: 'Approve (you send it next)',
    });
    expect(noteText(s)).toMatch(/^Approving sends nothing by itself: an operator then resumes/);
    expect(noteText({ ...s, canOperate: true })).toMatch(/you \(or another operator\)/);
  });

  it('closes approving to whoever Warden says may not (four-eyes), and both buttons to others', () => {
    const fourEyes = state({
      approval: { ...approval, for_you: { approve: 'you started the run', reject: null } },
    });
    expect(whyNot(fourEyes)).toBe(
      'You cannot approve this write. Four-eyes rule: you started the run. Ask another approver; you may still reject it.',
    );
    expect(panelView(fourEyes)).toMatchObject({ approveClosed: true, rejectClosed: false });
    const outsider = state({
      approval: { ...approval, for_you: { approve: 'not an approver', reject: 'not an approver' } },
    });
    expect(whyNot(outsider)).toBe('You cannot decide this write: not an approver.');
    expect(panelView(outsider)).toMatchObject({ approveClosed: true, rejectClosed: true });
    // A decision's answer carries no for_you: nothing is closed by guess, the API decides.
    const { for_you: _, ...answered } = approval;
    expect(panelView(state({ approval: answered }))).toMatchObject({
      approveClosed: false,
      rejectClosed: false,
    });
  });

  it('offers resuming only to an operator, once approved, while the run waits', () => {
    const approved: Approval = { ...approval, status: 'approved', decided_by: 'bob' };
    expect(panelView(state({ approval: approved, canOperate: true }))).toEqual({ kind: 'resume' });
    expect(panelView(state({ approval: approved }))).toEqual({ kind: 'none' });
    expect(
      panelView(state({ approval: approved, canOperate: true, run: run({ status: 'running' }) })),
    ).toEqual({ kind: 'none' });
    expect(panelView(state({ approval: approved, canOperate: true, run: null }))).toEqual({
      kind: 'none',
    });
    expect(whyTitle(state({ approval: approved }))).toBe('Why Warden held it');
    expect(
      whyNot(state({ approval: { ...approved, for_you: { approve: 'x', reject: 'x' } } })),
    ).toBeNull();
    expect(noteText(state({ approval: approved }))).toBeNull();
  });

  it('draws the panel again when the approval or the run moves', () => {
    expect(panelKey(state())).toBe('pending:awaiting_approval');
    expect(panelKey(state({ run: null }))).toBe('pending:');
    expect(panelKey(state({ approval: { ...approval, status: 'spent' } }))).toBe(
      'spent:awaiting_approval',
    );
  });

  it('links the run only for whoever may read it', () => {
    expect(followRunHref(state())).toBeNull();
    expect(followRunHref(state({ canReadRuns: true }))).toBe('/console/runs/r1');
    expect(followRunHref(state({ canReadRuns: true, run: null }))).toBeNull();
  });

  it('names the run by its goal, or the waiting action by its own (no run)', () => {
    expect(leadView(state())).toEqual({
      before: 'Step 2 of the run ',
      goal: '“Book order 4711”',
      after: ' on agent sap, started by alice.',
    });
    const noRun = { ...approval, run_id: null, goal: 'Seeded test', system: 'Billing' };
    expect(leadView(state({ approval: noRun, run: null })).goal).toBe('“Seeded test”');
    expect(systemOf(state({ approval: noRun, run: null }))).toBe('Billing');
    expect(systemOf(state())).toBe('SAP GUI');
    expect(leadView(state({ run: null })).goal).toBe('r1');
  });

  it('says the pixels left out of the check, the provider’s checks and what a decision did', () => {
    expect(volatileInWords(approval)).toBe('0');
    expect(volatileInWords({ ...approval, volatile_pixels: 42 })).toBe(
      '42, hatched on the screenshot: the check before sending leaves them out',
    );
    expect(volatileInWords({ ...approval, volatile_mask: 'learning' })).toMatch(
      /^still being learnt/,
    );
    expect(safetyCheckLines(approval)).toEqual([]);
    expect(
      safetyCheckLines({
        ...approval,
        safety_checks: [
          { id: 'c1', code: 'malicious_instructions', message: 'Looks injected' },
          { id: 'c2', code: null, message: null },
        ],
      }),
    ).toEqual([
      { code: 'malicious_instructions', message: ': Looks injected' },
      { code: 'c2', message: '' },
    ]);
    expect(decidedInWords('approve')).toMatch(/^You approved this write. Nothing is sent until/);
    expect(decidedInWords('reject')).toBe(
      'You rejected this write. Nothing was sent, and the run stopped.',
    );
    expect(sentCaption(approval)).toBe(
      'The screen it was approved on (step 2), before it was sent.',
    );
  });

  it('reads the run again when the approval moved, and while it is approved or spent', () => {
    expect(runMayHaveMoved('pending', approval)).toBe(false);
    expect(runMayHaveMoved('pending', { ...approval, status: 'rejected' })).toBe(true);
    expect(runMayHaveMoved('approved', { ...approval, status: 'approved' })).toBe(true);
    expect(runMayHaveMoved('spent', { ...approval, status: 'spent' })).toBe(true);
    expect(runMayHaveMoved('rejected', { ...approval, status: 'rejected' })).toBe(false);
  });

  it('stops polling once the write is settled: decided against, or sent and the screen after known', () => {
    expect(settled(state())).toBe(false);
    expect(settled(state({ approval: { ...approval, status: 'approved' } }))).toBe(false);
    expect(settled(state({ approval: { ...approval, status: 'rejected' } }))).toBe(true);
    expect(settled(state({ approval: { ...approval, status: 'expired' } }))).toBe(true);
    const spent: Approval = { ...approval, status: 'spent' };
    // Spent, but its step still held: the resume is under way.
    expect(settled(state({ approval: spent }))).toBe(false);
    expect(settled(state({ approval: spent, run: null }))).toBe(false);
    const stale = run({ steps: [step(1), step(2, { outcome: 'stale' })], status: 'stopped' });
    expect(settled(state({ approval: spent, run: stale }))).toBe(true);
    const sent = (steps: Step[], status: Run['status'] = 'running') =>
      state({ approval: spent, run: run({ steps, status }) });
    const sentStep = step(2, { outcome: 'sent_after_approval' });
    expect(settled(sent([step(1), sentStep]))).toBe(false);
    expect(settled(sent([step(1), sentStep, step(3, { screen_sha256: null })]))).toBe(false);
    expect(settled(sent([step(1), sentStep, step(3)]))).toBe(true);
    expect(settled(sent([step(1), sentStep], 'completed'))).toBe(true);
  });
});
