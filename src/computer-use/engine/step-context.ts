import type { Rules } from '../actions';
import type { Run } from '../runs/run.entity';
import type { ScreenHost } from '../host-client/screen-host.client';
import type { AgentConfig } from '../settings/agent-config';
import type { StepTiming } from './step-timing';

/** What every stage of one job on one step works with. */
export interface StepContext {
  run: Run;
  /**
   * The agent's configuration in force at this job (docs/step-flow.md: a changed pin, CA, screen URL or
   * planner applies from the next step); the caps stay as the run started.
   */
  agent: AgentConfig;
  /** The agent's screen host, timed. */
  host: ScreenHost;
  /** The secret the host's requests carry: re-checked in the transaction that marks a send. */
  secret: { envName: string; origin: string };
  /** The agent's classification rules, compiled. */
  rules: Rules;
  timing: StepTiming;
  /** Aborted when the worker shuts down: pauses end early. */
  signal: AbortSignal;
  /** The planner's state after this step's answer (JSON), kept when the step's decision is. */
  plannerState?: string;
  /**
   * Work started once the job has given back the step's lease, so that another job may take the
   * step meanwhile (a held write's mask is learnt while its approval is open); run in order, each
   * failure logged, after the job itself has ended, so it holds none of the worker's job slots.
   */
  afterRelease?: Array<() => Promise<void>>;
  /**
   * Queues the run's next step: called once the job has given back the step's lease, since a step
   * is finished only when its job ends (the screen settled, a write's receipt read and audited),
   * and no later step opens while an earlier one is leased.
   */
  queueNext?: () => Promise<void>;
}
