/**
 * The planning stage's pure decisions (step-planning.service.ts), apart from the screen host, the
 * planner and OCR: when a screenshot that cannot be used is taken again, how a planner's failure
 * ends the run, and the step's decision as it is recorded.
 */
import { canonicalJson } from '../../audit/canonical-json';
import { BudgetExhaustedError } from '../models/model-errors';
import { labelAt, lastClickPoint, maskCardNumbersIn, outlineTitle, type Verdict } from '../actions';
import { messageOf } from '../actions/receipt';
import type { ObservedScreen, PlanResult, StepHistory } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import type { RecordedAction } from '../runs/step.entity';
import type { StepFields } from '../runs/steps.repository';
import { ScreenError } from '../pixels/screen-error';
import { ScreenHostError } from '../host-client/screen-host.client';
import { SecretRefused } from '../../secrets/secret-grants.service';
import { RemotePlannerError } from '../remote/remote-errors';
import { targetChanged } from '../planner-contract/batch-target';
import { hostFailure, RunEnds, secretRefused } from './run-ends';
import { SCREEN_ACTIONS } from './step-decisions';

/** Screenshots taken for one look before one that does not decode ends the run. */
export const UNUSABLE_SCREEN_ATTEMPTS = 3;

/**
 * What a failed look at the screen (its `attempt`-th) comes to: the screen host's failure ends the
 * run (its RunEnds); a screenshot that cannot be used is taken again (`retry`), up to
 * UNUSABLE_SCREEN_ATTEMPTS; anything else, or the last unusable one, is thrown as it is (`throw`).
 */
export function observeFailure(error: unknown, attempt: number): RunEnds | 'retry' | 'throw' {
  if (error instanceof ScreenHostError) return hostFailure(error);
  if (!(error instanceof ScreenError) || attempt >= UNUSABLE_SCREEN_ATTEMPTS) return 'throw';
  return 'retry';
}

/**
 * How a planner's failure ends the run: the screen host's failure (a look) as such; the model key
 * no longer granted for its endpoint (docs/step-flow.md, docs/screen-host.md) `not_granted`; the tenant's model budget spent
 * `budget_exhausted`; a remote planner's failure (planner_offline, _busy, _failed, _timeout)
 * `model_error` with its code; anything else `model_error`, which is `unexpected` (worth a log line).
 */
export function planFailure(error: unknown): { end: RunEnds; unexpected: boolean } {
  if (error instanceof ScreenHostError) return { end: hostFailure(error), unexpected: false };
  if (error instanceof SecretRefused) return { end: secretRefused(error), unexpected: false };
  if (error instanceof RemotePlannerError) {
    // A remote planner gave no decision: a model error of the step, its code first (docs/models.md).
    const message = `${error.code}: ${error.message}`;
    const end = new RunEnds('model_error', message, { outcome: null, fields: { error: message } });
    return { end, unexpected: false };
  }
  if (error instanceof BudgetExhaustedError) {
    const end = new RunEnds('budget_exhausted', error.message, {
      outcome: null,
      fields: { error: error.message },
    });
    return { end, unexpected: false };
  }
  const end = new RunEnds('model_error', `the planner failed: ${(error as Error).message}`);
  return { end, unexpected: true };
}

/**
 * Whether the agent's planner in force is another than the one its run was started with (and
 * decided by the catalog's rule for): the rule is then decided again for the run's starter.
 */
export function plannerChanged(started: unknown, inForce: unknown): boolean {
  return canonicalJson(started ?? null) !== canonicalJson(inForce ?? null);
}

/**
 * A planner put in force while the run went on that its starter may not use: the run stops
 * `not_granted` (the operator's allows, denies and tags grant planners), its summary naming
 * `planner_unavailable` and the catalog's why, as the refusal at a run's start does.
 */
export function plannerUnavailableEnd(agent: string, why: string): RunEnds {
  const summary = `planner_unavailable: agent "${agent}" cannot plan: ${why}`;
  return new RunEnds('not_granted', summary, { outcome: null, fields: { error: summary } });
}

/**
 * The step's decision as it is recorded: its screen, the action (normalised, as it may be
 * recorded, or the refused answer made safe), its classification and why, the model's usage; for
 * a screen action the message the application shows now (so that its answer to the action is told
 * from it); the injection rail's record, for every decision of a model's step; the content hash of
 * the script that planned it (`scriptSha256`, the planner's), null when no script did.
 */
export function decisionFields(
  screen: ObservedScreen,
  verdict: Verdict,
  result: Pick<PlanResult, 'action' | 'model' | 'plannedBy' | 'batch'> & { scriptSha256?: string },
  rail: RailRecord | null,
): StepFields {
  return {
    ...screenFields(screen),
    screenTitle: screen.outline ? outlineTitle(screen.outline) : null,
    ...(result.plannedBy ? { plannedBy: result.plannedBy } : {}),
    // The script that decided, for the send gate: null when no script did.
    plannerSha256: result.scriptSha256 ?? null,
    ...(result.batch ? { batch: { turn: result.batch.turn, place: result.batch.place } } : {}),
    action: verdict.action ?? verdict.recorded ?? safeJson(result.action),
    classification: verdict.classification,
    why: verdict.why,
    model: result.model ?? null,
    labelEvidence: verdict.labelEvidence ?? null,
    // What the application shows now, so that its answer to this action is told from it.
    ...(verdict.action && SCREEN_ACTIONS.has(verdict.action.action)
      ? { receipt: { before: screen.outline ? messageOf(screen.outline) : null } }
      : {}),
    ...(rail ? { rail } : {}),
  };
}

/** The screen a step records (the stored PNG, its hashes, the host's coordinate space). */
export function screenFields(screen: ObservedScreen): StepFields {
  return {
    screenSha256: screen.sha256,
    screenPixelSha256: screen.pixelSha256,
    frameSha256: screen.frameSha256 ?? null,
    hiddenSha256: screen.hiddenSha256 ?? null,
    width: screen.width,
    height: screen.height,
  };
}

/** The element the run last clicked, on this screen: where typing goes when the host marks no focus. */
export function lastClickFocus(history: StepHistory[], screen: ObservedScreen) {
  if (!screen.outline) return null;
  const at = lastClickPoint(history);
  return at && labelAt(screen.outline, at.x, at.y);
}

/** A refused answer as it may be recorded: bounded, and with any card number masked. */
export function safeJson(value: unknown): RecordedAction | null {
  try {
    const raw = JSON.stringify(value);
    if (raw === undefined) return null;
    // Masked in the parsed value, so that a number holding a card number stays JSON.
    const masked = maskCardNumbersIn(JSON.parse(raw));
    const text = JSON.stringify(masked);
    // Keep a refused answer readable but bounded.
    return text.length > 4000
      ? { truncated: text.slice(0, 4000) }
      : (masked as Record<string, unknown>);
  } catch {
    return null;
  }
}

/**
 * Whether an action of a batch, after its turn's first, may go on the screen as it is now (docs/step-flow.md,
 * "A batch"): null when the screen still shows, where it lands, what the model saw there (and no
 * dialog opened since); else why the batch stops at it. Only screen actions are compared: a
 * `wait`, `done` or `fail` reaches no screen.
 */
export function batchStop(
  result: Pick<PlanResult, 'batch'>,
  verdict: Verdict,
  screen: ObservedScreen,
): string | null {
  const seen = result.batch?.seen;
  const action = verdict.action;
  if (!seen || !action || !SCREEN_ACTIONS.has(action.action)) return null;
  const why = targetChanged(seen, screen, action);
  return why && `not sent: ${why}; the batch stops here (call ${result.batch!.place} of its turn)`;
}
