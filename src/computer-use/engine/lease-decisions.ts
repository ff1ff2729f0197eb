/**
 * The lease stage's pure decisions (step-lease.service.ts), apart from the statements that lease,
 * renew and count: how often a lease is renewed, how a job's error ends its run, and which agent
 * settings its compiled rules are kept by.
 */
import type { StepPhase } from '../runs/step-phase';
import { ScreenError } from '../pixels/screen-error';
import type { AgentConfig } from '../settings/agent-config';
import { SecretRefused } from '../../secrets/secret-grants.service';
import { RunEnds } from './run-ends';

/** Unexpected errors on one step (each a failed job attempt) before its run ends. */
export const MAX_STEP_FAILURES = 10;

/** How often a worker renews its lease of `leaseMs`: three times a lease, at most every 200 ms. */
export function renewEvery(leaseMs: number): number {
  return Math.max(200, Math.floor(leaseMs / 3));
}

/**
 * How a job's error ends its run: as it says (`thrown`: a RunEnds); as a refused secret
 * (`secret`), which for a step that was `sending` leaves its outcome unknown, as the host may not
 * be asked; as a screenshot that cannot be used (`unusable_screen`); or, for anything unexpected,
 * counted on the step (`count`: see `afterFailures`).
 */
export type JobEnding =
  | { as: 'thrown'; end: RunEnds }
  | { as: 'secret'; refused: SecretRefused; sending: boolean }
  | { as: 'unusable_screen'; error: ScreenError }
  | { as: 'count' };

export function jobEnding(error: unknown, phase: StepPhase): JobEnding {
  if (error instanceof RunEnds) return { as: 'thrown', end: error };
  if (error instanceof SecretRefused) {
    return { as: 'secret', refused: error, sending: phase === 'sending' };
  }
  if (error instanceof ScreenError) return { as: 'unusable_screen', error };
  return { as: 'count' };
}

/**
 * After the step's `failures`-th unexpected error: the job is retried (thrown again, for BullMQ
 * and the reconciler), or the run ends, failed too often.
 */
export function afterFailures(failures: number): 'retry' | 'end' {
  return failures < MAX_STEP_FAILURES ? 'retry' : 'end';
}

/** The agent settings its classification rules are compiled from (and kept by, per worker). */
export function ruleSettings(
  agent: Pick<
    AgentConfig,
    'commit_words' | 'navigation_words' | 'unlabelled_clicks' | 'screen_rules'
  >,
) {
  return {
    commit_words: agent.commit_words,
    navigation_words: agent.navigation_words,
    unlabelled_clicks: agent.unlabelled_clicks,
    screen_rules: agent.screen_rules,
  };
}
