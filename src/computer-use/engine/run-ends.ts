import type { Approval } from '../../approvals/approval.entity';
import type { EndReason } from '../runs/run-status';
import type { StepOutcome } from '../runs/step.entity';
import type { StepFields } from '../runs/steps.repository';
import type { ScreenHostError } from '../screens/screen-host.client';

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
