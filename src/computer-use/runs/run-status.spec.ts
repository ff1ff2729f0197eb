import { canMove, END_REASONS, endStatusOf, isEnd, RUN_STATUSES, TRANSITIONS } from './run-status';

describe('run state machine', () => {
  it('matches docs/step-flow.md: queued → running ⇄ awaiting_approval → an end', () => {
    expect(canMove('queued', 'running')).toBe(true);
    expect(canMove('running', 'awaiting_approval')).toBe(true);
    expect(canMove('awaiting_approval', 'running')).toBe(true);
    expect(canMove('queued', 'awaiting_approval')).toBe(false);
    expect(canMove('queued', 'completed')).toBe(false);
    for (const end of ['completed', 'failed', 'stopped'] as const) {
      expect(isEnd(end)).toBe(true);
      for (const to of RUN_STATUSES) expect(canMove(end, to)).toBe(false);
    }
  });

  it('maps every end reason to exactly one end status', () => {
    const all = Object.values(END_REASONS).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(endStatusOf('done')).toBe('completed');
    expect(endStatusOf('outcome_unknown')).toBe('failed');
    expect(endStatusOf('stale_screen')).toBe('stopped');
  });

  it('lets every non-end status reach an end', () => {
    for (const status of RUN_STATUSES) {
      if (isEnd(status)) continue;
      expect(TRANSITIONS[status].some((to) => isEnd(to))).toBe(true);
    }
  });
});
