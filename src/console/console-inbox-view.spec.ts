/**
 * The inbox's views as data (browser/inbox-view.ts): what the list and each waiting action show of
 * the inbox's state, for each answer of the poll and of the run. The console e2e tests check the
 * nodes in Chromium.
 */
import {
  goalText,
  heldStepOf,
  inboxState,
  itemWords,
  leadText,
  moreText,
  newsText,
  problemText,
  rowsChange,
  statusText,
  stepView,
  thumbView,
  timesView,
  typedText,
  type InboxState,
} from './browser/inbox-view';
import { runOf, stepOf, waitingAction } from '../../test/support/console-answers';
import type { Approval, Run } from './browser/api-types';

const NOW = Date.parse('2026-03-15T10:10:00Z');

const approval = waitingAction;
const step = stepOf;
const run = (over: Partial<Run> = {}): Run =>
  runOf({
    steps: [
      step(1),
      step(2, { classification: 'write', outcome: 'held', width: 1024, height: 768 }),
    ],
    ...over,
  });

const polled = (items: Approval[], next: string | null = null): InboxState => ({
  ...inboxState('acme', false),
  page: { items, next_cursor: next },
});

describe('the inbox as data', () => {
  it('says nothing of the count until a poll answered, then how many wait', () => {
    expect(statusText(inboxState('acme', false))).toBeNull();
    expect(statusText(polled([]))).toBe('Nothing is waiting for approval.');
    expect(statusText(polled([approval()]))).toBe('1 action waits for a decision.');
    expect(statusText(polled([approval(), approval({ id: 'a2' })]))).toBe(
      '2 actions wait for a decision.',
    );
    expect(leadText('acme')).toMatch(/^Held writes in tenant acme that you may decide/);
  });

  it('says when more wait than one poll reads', () => {
    expect(moreText(inboxState('acme', false))).toBe('');
    expect(moreText(polled([approval()]))).toBe('');
    expect(moreText(polled([approval()], 'c2'))).toBe(
      'Showing the oldest 200; decide on these to see the rest.',
    );
    expect(problemText('HTTP 502')).toBe('Could not refresh the inbox (HTTP 502). Trying again.');
  });

  it('keeps the rows still waiting, drops the others, and names the new ones', () => {
    const [a1, a2, a3] = ['a1', 'a2', 'a3'].map((id) => approval({ id }));
    expect(rowsChange([], [a1, a2])).toEqual({ gone: [], added: [a1, a2] });
    expect(rowsChange(['a1', 'a2'], [a2, a3])).toEqual({ gone: ['a1'], added: [a3] });
    expect(rowsChange(['a1'], [])).toEqual({ gone: ['a1'], added: [] });
    expect(newsText([])).toBeNull();
    expect(newsText(['Click “Save”', 'Press Enter'])).toBe(
      'New waiting action: Click “Save”; Press Enter',
    );
    expect(itemWords(approval({ action: { action: 'key', key: 'Enter' } }))).toBe('Key Enter');
  });

  it('links the run only for whoever may read runs, and only when there is one', () => {
    expect(stepView(approval(), false)).toEqual({ n: 2, href: null });
    expect(stepView(approval(), true)).toEqual({ n: 2, href: '/console/runs/r1' });
    expect(stepView(approval({ run_id: null }), true)).toEqual({ n: 2, href: null });
  });

  it('says the goal: its own without a run, the run’s once read, or why it could not be', () => {
    expect(goalText(approval({ run_id: null, goal: 'Seeded test' }), undefined)).toBe(
      '“Seeded test”',
    );
    expect(goalText(approval({ run_id: null }), undefined)).toBe('“”');
    expect(goalText(approval(), undefined)).toBe('…');
    expect(goalText(approval(), { run: run() })).toBe('“Book order 4711”');
    expect(goalText(approval(), { error: 'HTTP 404' })).toBe('(not available: HTTP 404)');
  });

  it('draws the held step’s screen, its size and a typing’s focus from the run', () => {
    expect(heldStepOf(approval(), run())?.outcome).toBe('held');
    expect(thumbView(approval(), run())).toEqual({
      runId: 'r1',
      n: 2,
      width: 1024,
      height: 768,
      action: { action: 'left_click', coordinate: [10, 20] },
      why: 'save the order',
      focus: null,
      size: 'thumb',
      alt: 'Screen at step 2, action marked',
    });
    expect(thumbView(approval({ step: 9 }), run())).toMatchObject({ width: null, height: null });
    const clicked = run({
      steps: [
        step(1, { action: { action: 'click', x: 300, y: 200 } }),
        step(2, { classification: 'write', outcome: 'held' }),
      ],
    });
    const typing = approval({ action: { action: 'type', text: 'Hello' } });
    expect(thumbView(typing, clicked).focus).toMatchObject({ x: 300, y: 200, step: 1 });
    expect(typedText(typing)).toBe('Hello');
    expect(typedText(approval())).toBeNull();
  });

  it('says how long it waited and when it expires, and marks it within five minutes of that', () => {
    expect(timesView(approval(), NOW)).toEqual({
      waiting: '5 min ago',
      expires: 'in 55 min',
      expiring: false,
    });
    const soon = approval({ expires_at: '2026-03-15T10:14:00Z' });
    expect(timesView(soon, NOW)).toMatchObject({ expires: 'in 4 min', expiring: true });
    const gone = approval({ expires_at: '2026-03-15T10:08:00Z' });
    expect(timesView(gone, NOW)).toMatchObject({ expires: 'expired 2 min ago', expiring: true });
  });
});
