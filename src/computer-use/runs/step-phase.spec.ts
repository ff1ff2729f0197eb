import { canMoveStep, isWrite, STEP_PHASES, STEP_TRANSITIONS } from './step-phase';

describe('step state machine', () => {
  it('moves a step forward only, through docs/step-flow.md: observe, plan, hold or send, done', () => {
    expect(canMoveStep('observing', 'planning')).toBe(true);
    expect(canMoveStep('planning', 'held')).toBe(true);
    expect(canMoveStep('planning', 'sending')).toBe(true);
    expect(canMoveStep('held', 'approved')).toBe(true);
    expect(canMoveStep('approved', 'sending')).toBe(true);
    expect(canMoveStep('sending', 'done')).toBe(true);
    // Never sent without passing through approved, never back to held, never out of done.
    expect(canMoveStep('held', 'sending')).toBe(false);
    expect(canMoveStep('approved', 'held')).toBe(false);
    expect(canMoveStep('sending', 'planning')).toBe(false);
    for (const to of STEP_PHASES) expect(canMoveStep('done', to)).toBe(false);
  });

  it('lets every phase reach done', () => {
    for (const phase of STEP_PHASES) {
      if (phase === 'done') continue;
      expect(STEP_TRANSITIONS[phase]).toContain('done');
    }
  });

  it('counts an approved action as a write whatever its classification', () => {
    expect(isWrite({ classification: 'write' })).toBe(true);
    expect(isWrite({ classification: 'read' })).toBe(false);
    expect(isWrite({ classification: 'read' }, { id: 'a' })).toBe(true);
    expect(isWrite({ classification: 'read' }, null)).toBe(false);
  });
});
