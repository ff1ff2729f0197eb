import type { Approval } from '../approvals/approval.entity';
import type { Action } from '../actions';
import type { EndReason } from '../runs/run-status';
import type { Step, StepOutcome } from '../runs/step.entity';
import type { StepFields } from '../runs/steps.repository';
import { isWrite } from '../runs/step-phase';
import type { ScreenError } from '../pixels/screen-error';
import type { ScreenHostError } from '../host-client/screen-host.client';
import type { SecretRefused } from '../../secrets/secret-grants.service';
import { writeDetails } from './write-audit';

/**
 * Thrown where a step ends its run. The step's last state, an audit event of its own and the
 * run's end are then written in one transaction (RunEnding), so nobody ever sees one without the
 * others.
 */
export class RunEnds extends Error {
  constructor(
    readonly reason: EndReason,
    readonly summary: string,
    readonly step: { outcome: StepOutcome | null; fields?: StepFields } = { outcome: null },
    readonly event?: { type: string; details: Record<string, unknown> },
  ) {
    super(summary);
  }
}

/** The screen host failed (after its own bounded retries): the run ends `screen_host_error`. */
export function hostFailure(error: ScreenHostError): RunEnds {
  return new RunEnds('screen_host_error', `the screen host failed: ${error.message}`, {
    outcome: null,
    fields: { error: `screen host: ${error.message}` },
  });
}

/** The run ends `stale_screen`: the write was not sent, and the audit trail says why. */
export function staleEnd(why: string, approval: Approval | null): RunEnds {
  return new RunEnds(
    'stale_screen',
    `the screen changed after the write was ${approval ? 'approved' : 'decided'}: ${why}`,
    { outcome: 'stale', fields: { error: why } },
    {
      type: 'computer_use.write.stale',
      details: { approval_id: approval?.id ?? null, action: approval?.action ?? null, why },
    },
  );
}

/**
 * A secret Warden may not send (docs/screen-host.md): not granted for its destination (any more), one of
 * Warden's own variables, an http destination off loopback: `not_granted`; the screen host's
 * granted token not set on the Warden host: a screen host error like any other missing setting
 * (the model call turns an unset key into a model error itself).
 */
export function secretRefused(error: SecretRefused): RunEnds {
  const reason = error.reason === 'unset' ? 'screen_host_error' : 'not_granted';
  return new RunEnds(reason, error.message, { outcome: null, fields: { error: error.message } });
}

/** A screenshot that passed the answer checks but cannot be used (it does not decode, its size moved). */
export function unusableScreen(error: ScreenError): RunEnds {
  const message = `the screen host sent a screenshot Warden cannot use: ${error.message}`;
  return new RunEnds('screen_host_error', message, { outcome: null, fields: { error: message } });
}

/**
 * A step on which job after job failed with an unexpected error ends its run rather than being
 * retried forever: as a screen host error where the step was taking or comparing screens, a model
 * error where it was planning, and where it may have been sending, as a send whose outcome is
 * unknown (sendUnknown: the run fails `outcome_unknown`, a write audited as such with `approval`,
 * the one spent on the step, as its authority).
 */
export function failedTooOften(
  step: Step,
  failures: number,
  error: unknown,
  approval: Approval | null,
): RunEnds {
  const cause = error instanceof Error ? error.message : String(error);
  const message = `the step failed ${failures} times (the last: ${cause})`;
  if (step.phase === 'sending') {
    return sendUnknown(step, approval, {
      reason: 'outcome_unknown',
      summary: `${message}; whether its action was sent is unknown`,
      error: `${message}; whether the screen host acted is unknown`,
    });
  }
  const reason = step.phase === 'planning' ? 'model_error' : 'screen_host_error';
  return new RunEnds(reason, message, { outcome: null, fields: { error: message } });
}

/**
 * The screen host's token may no longer be sent to the host (SecretRefused) while a step is
 * `sending`, so nobody can ask the host what became of its action: a send whose outcome is unknown
 * (sendUnknown), a read's run ending as a refused secret does.
 */
export function secretRefusedWhileSending(
  step: Step,
  approval: Approval | null,
  error: SecretRefused,
): RunEnds {
  return sendUnknown(step, approval, {
    reason: secretRefused(error).reason,
    summary: `${error.message}; the screen host cannot be asked whether it acted on the step's action, so that is unknown: check the screen`,
    error: `${error.message}; the screen host cannot be asked about this step's action, and whether it acted is unknown`,
  });
}

/**
 * A step was `sending` and what became of its action is now unknown. A write (classified one, or
 * sent under `approval`) is writeOutcomeUnknown: the run fails `outcome_unknown`, audited with its
 * authority; a read records its outcome as unknown too (none, and why), with no write's event, and
 * its run ends `why.reason`.
 */
export function sendUnknown(
  step: Step,
  approval: Approval | null,
  why: { reason: EndReason; summary: string; error: string },
): RunEnds {
  if (isWrite(step, approval)) {
    return writeOutcomeUnknown(step, approval?.action ?? (step.action as Action), approval, why);
  }
  return new RunEnds(why.reason, why.summary, { outcome: null, fields: { error: why.error } });
}

/**
 * A write was asked of the host and nobody can say whether it acted: the run fails
 * `outcome_unknown` for a person to check the screen, and `computer_use.write.unknown` records the
 * write with its authority (the approval spent, or why none was needed) in the same transaction as
 * the step's end. The event is written even where the run had already ended (a cancel while the
 * write was on its way), so the audit trail never loses a write that may have reached the screen.
 */
export function writeOutcomeUnknown(
  step: Step,
  action: Action,
  approval: Approval | null | undefined,
  why: { summary: string; error: string },
): RunEnds {
  return new RunEnds(
    'outcome_unknown',
    why.summary,
    { outcome: null, fields: { error: why.error } },
    {
      type: 'computer_use.write.unknown',
      details: { ...writeDetails(step, action, approval), error: why.error },
    },
  );
}
