import type { Approval } from '../../approvals/approval.entity';
import type { EndReason } from '../runs/run-status';
import type { StepOutcome } from '../runs/step.entity';
import type { StepFields } from '../runs/steps.repository';
import type { StepPhase } from '../runs/step-phase';
import type { ScreenError } from '../screens/screen-error';
import type { ScreenHostError } from '../screens/screen-host.client';
import type { SecretRefused } from '../../secrets/secret-grants.service';

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
 * A secret Warden may not send (DESIGN §7): not granted for its destination (any more), one of
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
 * error where it was planning, and `outcome_unknown` where it may have been sending (a person must
 * check the screen).
 */
export function failedTooOften(phase: StepPhase, failures: number, error: unknown): RunEnds {
  const cause = error instanceof Error ? error.message : String(error);
  const message = `the step failed ${failures} times (the last: ${cause})`;
  const reason =
    phase === 'sending'
      ? 'outcome_unknown'
      : phase === 'planning'
        ? 'model_error'
        : 'screen_host_error';
  return new RunEnds(
    reason,
    phase === 'sending' ? `${message}; whether its action was sent is unknown` : message,
    { outcome: null, fields: { error: message } },
  );
}
