/**
 * The step state machine, written down once like the run's (run-status.ts). A step's phase is
 * written before its effect (docs/operations.md); every change of phase goes through StepsRepository.move,
 * which checks this table and updates conditionally on the phase it read, so of two workers only
 * one moves a step.
 */
export const STEP_PHASES = [
  'observing',
  'planning',
  'held',
  'approved',
  'sending',
  'done',
] as const;
export type StepPhase = (typeof STEP_PHASES)[number];

export const STEP_TRANSITIONS: Record<StepPhase, readonly StepPhase[]> = {
  // The screenshot and outline are taken; a screen host that fails ends the step.
  observing: ['planning', 'done'],
  // The planner answers; a `wait` records its decision and stays in planning while it pauses.
  planning: ['planning', 'held', 'sending', 'done'],
  // A person decides: approved by a resume that spends the approval; rejected or expired: done.
  held: ['approved', 'done'],
  // The screen is compared with the held one, then the write is sent once, or the run ends.
  approved: ['sending', 'done'],
  // POST /action is (or may have been) under way: only its recorded outcome ends it.
  sending: ['done'],
  done: [],
};

export function canMoveStep(from: StepPhase, to: StepPhase): boolean {
  return STEP_TRANSITIONS[from].includes(to);
}

/** Throws on a move the table does not allow: a bug in the caller, never a race. */
export function assertStepMove(from: StepPhase, to: StepPhase): void {
  if (!canMoveStep(from, to)) throw new Error(`a step cannot move from ${from} to ${to}`);
}

/** Phases in which the step's action has not been settled: the run may open no further step. */
export function isUnfinished(phase: StepPhase): boolean {
  return phase !== 'done';
}

/**
 * Whether a step's action is a write: classified as one by Warden's rules, or carried out under
 * an approval (an action a provider's safety checks held is approved like a write).
 */
export function isWrite(step: { classification: string | null }, approval?: unknown): boolean {
  return (approval !== undefined && approval !== null) || step.classification === 'write';
}
