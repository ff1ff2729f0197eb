import type { Verdict } from '../actions';
import { holdFor, stepJob, stopBeforeStep } from './step-decisions';

describe('which step a job works on', () => {
  it('opens the next step only when the current one is done (or there is none)', () => {
    expect(stepJob({ stepCount: 0, currentPhase: null }, 1)).toBe('open');
    expect(stepJob({ stepCount: 2, currentPhase: 'done' }, 3)).toBe('open');
    for (const phase of ['observing', 'planning', 'held', 'approved', 'sending'] as const) {
      expect(stepJob({ stepCount: 2, currentPhase: phase }, 3)).toBe('none');
    }
  });

  it('carries on with the current step and ignores steps long past or far ahead', () => {
    expect(stepJob({ stepCount: 2, currentPhase: 'approved' }, 2)).toBe('current');
    expect(stepJob({ stepCount: 2, currentPhase: 'done' }, 1)).toBe('none');
    expect(stepJob({ stepCount: 2, currentPhase: 'done' }, 4)).toBe('none');
  });
});

describe('stopping before a step', () => {
  const run = { stepCount: 3, maxSteps: 20, maxSeconds: 300, activeSeconds: 10, activeSince: null };
  const now = Date.UTC(2026, 11, 1);

  it('goes on below the caps with the kill switch off', () => {
    expect(stopBeforeStep(run, null, now)).toBeNull();
    expect(stopBeforeStep(run, { engaged: false, reason: null }, now)).toBeNull();
  });

  it('stops killed, at the step cap, and at the time cap counted up to now', () => {
    expect(stopBeforeStep(run, { engaged: true, reason: 'incident' }, now)).toEqual({
      reason: 'killed',
      summary: 'kill switch engaged: incident',
    });
    expect(stopBeforeStep({ ...run, stepCount: 20 }, null, now)?.reason).toBe('step_cap');
    const since = new Date(now - 291_000);
    expect(stopBeforeStep({ ...run, activeSince: since }, null, now)?.reason).toBe('time_cap');
    expect(stopBeforeStep({ ...run, activeSince: new Date(now - 289_000) }, null, now)).toBeNull();
  });
});

describe('holding an action for a person', () => {
  const click = { action: 'click', x: 1, y: 2 } as const;
  const read: Verdict = { classification: 'read', action: click, why: 'a label without a verb' };
  const write: Verdict = { classification: 'write', action: click, why: '"Save" is a commit word' };
  const check = { id: 'sc1', code: 'malicious_instructions', message: null };

  it('holds a write unless the agent needs no approval, and sends a read', () => {
    expect(holdFor(write, [], true)).toEqual({ why: write.why, classification: 'write' });
    expect(holdFor(write, [], false)).toBeNull();
    expect(holdFor(read, [], true)).toBeNull();
  });

  it('holds anything a provider raised safety checks on, even a read, even without approval', () => {
    const held = holdFor(read, [check], false);
    expect(held?.classification).toBe('write');
    expect(held?.why).toMatch(/malicious_instructions.*the rules say: a label without a verb/);
  });
});
