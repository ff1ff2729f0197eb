/**
 * The run page's views as data (browser/run-view.ts): its facts, what can be done with the run
 * and by whom, when a step is drawn again, and what resuming said. The console e2e tests check
 * the nodes in Chromium.
 */
import {
  actionsKey,
  actionsView,
  auditHref,
  liveNote,
  resumedInWords,
  runFacts,
  statusNews,
  stepSignature,
  summaryView,
  usage,
  type RunState,
} from './browser/run-view';
import { runOf, stepOf } from '../../test/support/console-answers';
import type { Approval, Permission, Run, Step } from './browser/api-types';

const step = stepOf;

const model = (over: Partial<NonNullable<Step['model']>> = {}): NonNullable<Step['model']> => ({
  provider: 'anthropic',
  model: 'claude-x',
  input_tokens: 1000,
  output_tokens: 50,
  latency_ms: 900,
  ...over,
});

const held = { id: 'a1', status: 'pending', step: 2 } as Approval;

const run = (over: Partial<Run> = {}): Run =>
  runOf({ status: 'running', active_seconds: 65, steps: [step(1), step(2)], ...over });

const as = (r: Run, ...permissions: Permission[]): RunState => ({
  run: r,
  can: (p) => permissions.includes(p),
});

describe('the run page as data', () => {
  it('counts the model calls and their tokens, unknown when a step’s were', () => {
    expect(usage(run())).toBe('no model calls');
    expect(usage(run({ steps: [step(1, { model: model() }), step(2, { model: model() })] }))).toBe(
      '2 model calls · 2000 in / 100 out tokens',
    );
    // A later action of a batch, and the navigator, asked no model; a model that looked again did twice.
    const steps = [
      step(1, { model: model({ calls: 2 }) }),
      step(2, { model: model({ calls: 0 }) }),
      step(3, { model: model({ output_tokens: null }) }),
    ];
    expect(usage(run({ steps }))).toBe('3 model calls · 2000 in / unknown out tokens');
  });

  it('says the run’s facts, leaving out what is not known', () => {
    expect(Object.fromEntries(runFacts(run()))).toEqual({
      Agent: 'sap',
      'Started by': 'alice',
      Created: expect.any(String) as string,
      Ended: null,
      'Active time': '1 min of 5 min',
      Steps: '2 of at most 20',
      'Model usage': 'no model calls',
    });
    const ended = Object.fromEntries(
      runFacts(run({ ended_at: '2026-03-15T10:02:00Z', invalid_actions: 1 })),
    );
    expect(ended.Ended).toEqual(expect.any(String));
    expect(ended.Steps).toBe('2 of at most 20, 1 invalid');
  });

  it('shows the planner’s summary in words, and as written when the words differ', () => {
    expect(summaryView(run())).toBeNull();
    expect(summaryView(run({ summary: 'Booked.' }))).toEqual({ words: 'Booked.', exact: null });
  });

  it('opens the audit of the run only to whoever may read the audit log', () => {
    expect(auditHref(as(run()))).toBeNull();
    expect(auditHref(as(run(), 'audit.read'))).toBe('/console/audit?run_id=r1');
  });

  it('offers each action only to whom it belongs, when it applies', () => {
    expect(actionsView(as(run()))).toEqual({
      approval: null,
      resume: false,
      cancel: false,
      routine: false,
    });
    const waiting = run({ status: 'awaiting_approval', pending_approval: held });
    expect(actionsView(as(waiting, 'agents.approve', 'agents.operate'))).toEqual({
      approval: { href: '/console/approvals/a1', label: 'Decide on the held write' },
      resume: false,
      cancel: true,
      routine: false,
    });
    const approved = run({
      status: 'awaiting_approval',
      pending_approval: { ...held, status: 'approved' },
    });
    expect(actionsView(as(approved, 'agents.approve'))).toMatchObject({
      approval: { label: 'Open the approval' },
      resume: false,
    });
    expect(actionsView(as(approved, 'agents.operate'))).toMatchObject({
      approval: null,
      resume: true,
    });
    // Approved, but the run no longer waits (resumed elsewhere): nothing to send from here.
    expect(actionsView(as({ ...approved, status: 'running' }, 'agents.operate')).resume).toBe(
      false,
    );
    const completed = run({ status: 'completed' });
    expect(actionsView(as(completed, 'agents.operate', 'computer_use.admin'))).toMatchObject({
      cancel: false,
      routine: true,
    });
    expect(actionsView(as(completed, 'agents.operate')).routine).toBe(false);
  });

  it('draws the actions again when the run or its approval moves', () => {
    expect(actionsKey(run())).toBe('running:');
    expect(actionsKey(run({ status: 'awaiting_approval', pending_approval: held }))).toBe(
      'awaiting_approval:pending',
    );
  });

  it('draws a step again only when what it shows changed', () => {
    const r = run();
    const s = step(2);
    expect(stepSignature(r, s)).toBe(stepSignature(run(), step(2)));
    for (const changed of [
      { outcome: 'held' as const },
      { classification: 'write' as const },
      { error: 'boom' },
      { ended_at: null },
      { screen_sha256: 'other' },
    ]) {
      expect(stepSignature(r, { ...s, ...changed })).not.toBe(stepSignature(r, s));
    }
    expect(stepSignature(run({ pending_approval: held }), s)).not.toBe(stepSignature(r, s));
  });

  it('says whether steps are coming, and announces a status only when it moved', () => {
    expect(liveNote(run({ steps: [] }))).toBe('No steps yet.');
    expect(liveNote(run())).toBe('Live: new steps appear as the run moves.');
    expect(liveNote(run({ status: 'completed' }))).toBe('The run has ended.');
    expect(statusNews('', run())).toBeNull();
    expect(statusNews('running', run())).toBeNull();
    expect(statusNews('running', run({ status: 'completed' }))).toMatch(/^The run is now /);
  });

  it('says what resuming did: the step’s outcome, or not sent because the screen changed', () => {
    const sent = run({ steps: [step(1), step(2, { outcome: 'sent_after_approval' })] });
    expect(resumedInWords(sent, 2)).toEqual({
      said: expect.stringMatching(/^Resumed: step 2 is /) as string,
    });
    const stale = run({ steps: [step(1), step(2, { outcome: 'stale', error: 'title changed' })] });
    expect(resumedInWords(stale, 2)).toEqual({
      alert: 'Not sent: the screen changed after approval (title changed). The run stopped.',
    });
  });
});
