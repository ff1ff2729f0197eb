/**
 * The engine's pure decisions, apart from the I/O that feeds them (STYLE: a long process is a
 * pipeline of small parts, its decisions plain functions beside them).
 */
import type { Verdict } from '../actions';
import type { ProviderSafetyCheck } from '../planning/planner';
import type { EndReason } from '../runs/run-status';
import { isUnfinished, type StepPhase } from '../runs/step-phase';

/** Screen actions: what reaches the host's POST /action. */
export const SCREEN_ACTIONS: ReadonlySet<string> = new Set([
  'click',
  'double_click',
  'type',
  'key',
  'scroll',
]);

/**
 * What a job for step `n` does on a running run: open the next step, carry on with the current
 * one, or nothing (a job for a step long past, or for the next step while the current one is held,
 * approved or sending: the current step's own job goes on to the next when it is done).
 */
export function stepJob(
  run: { stepCount: number; currentPhase: StepPhase | null },
  n: number,
): 'open' | 'current' | 'none' {
  if (n === run.stepCount) return 'current';
  if (n !== run.stepCount + 1) return 'none';
  return run.currentPhase !== null && isUnfinished(run.currentPhase) ? 'none' : 'open';
}

/** Why the run stops before its next step (DESIGN §4, (1)), or null when it may go on. */
export function stopBeforeStep(
  run: {
    stepCount: number;
    maxSteps: number;
    maxSeconds: number;
    activeSeconds: number;
    activeSince: Date | null;
  },
  killSwitch: { engaged: boolean; reason: string | null } | null,
  now: number,
): { reason: EndReason; summary: string } | null {
  if (killSwitch?.engaged) {
    return { reason: 'killed', summary: `kill switch engaged: ${killSwitch.reason}` };
  }
  if (run.stepCount >= run.maxSteps) {
    return { reason: 'step_cap', summary: `the run reached its step cap of ${run.maxSteps}` };
  }
  const active =
    run.activeSeconds + (run.activeSince ? (now - run.activeSince.getTime()) / 1000 : 0);
  if (active >= run.maxSeconds) {
    return { reason: 'time_cap', summary: `the run used its ${run.maxSeconds} s of active time` };
  }
  return null;
}

/**
 * Whether a screen action waits for a person, and why: safety checks a model provider raised hold
 * it whatever the rules say (recorded as a write); a write holds unless the agent's writes need no
 * approval. Null: it is sent.
 */
export function holdFor(
  verdict: Verdict,
  safetyChecks: readonly ProviderSafetyCheck[],
  requireWriteApproval: boolean,
): { why: string; classification: 'write' } | null {
  if (safetyChecks.length > 0 && verdict.action && SCREEN_ACTIONS.has(verdict.action.action)) {
    const codes = safetyChecks.map((c) => c.code ?? c.id).join(', ');
    return {
      why: `the model provider raised safety checks (${codes}), so a person decides; the rules say: ${verdict.why}`,
      classification: 'write',
    };
  }
  if (verdict.classification === 'write' && requireWriteApproval) {
    return { why: verdict.why, classification: 'write' };
  }
  return null;
}
