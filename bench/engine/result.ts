/** What one scenario measured, as the bench prints it and writes it to its JSON. */
import { type CpuPerStep, type CpuSnapshot, cpuPerStep } from './cpu';
import { type Percentiles, perSecond, percentiles } from './figures';
import {
  anomaliesOf,
  jobFigures,
  lastEnd,
  stepTimes,
  type JobFigures,
  type RunRow,
  type StepRow,
} from './records';

export const RUN_SCENARIOS = [
  'reads-1',
  'reads-10',
  'reads-50',
  'held-serial',
  'held-burst',
  '4k',
] as const;
export type RunScenario = (typeof RUN_SCENARIOS)[number];

/** Pixel work on the 4k scenario's screens, in this process (CPU ms per screenshot, median). */
export interface PixelWork {
  screen: string;
  screenshots: number;
  png_kib: number;
  decode_ms: number;
  model_image: string;
  downscale_ms: number;
}

export interface ScenarioResult {
  scenario: RunScenario;
  runs: number;
  steps: number;
  wall_ms: number;
  steps_per_second: number;
  overhead_ms: Percentiles;
  /** Per kind of job, and the parts of a job's time (p50 of each). */
  jobs: JobFigures;
  step_e2e_ms: Percentiles;
  resume_to_action_ms: Percentiles | null;
  resume_answer_ms: Percentiles | null;
  load_average: { before: number[]; after: number[] };
  /**
   * CPU ms per step: the worker process(es), the API, this process (the bench and its sim hosts),
   * the bench database's PostgreSQL backends, and the whole machine (other work included).
   */
  cpu_ms_per_step: CpuPerStep;
  /**
   * held-*: CPU ms per resume, from the first resume sent to the last one answered (the resumes
   * and whatever else ran meanwhile: in a burst, the next steps of the runs that already sent).
   */
  cpu_ms_per_resume?: CpuPerStep;
  /** 4k: what decoding and downscaling one of its screenshots costs. */
  pixel_work?: PixelWork;
  /** Runs that did not go as the script says, with why. */
  anomalies: string[];
}

/** What every scenario measures of its runs: the wall clock from `started`, rates, jobs, CPU. */
export function summarize(what: {
  scenario: RunScenario;
  runs: RunRow[];
  steps: StepRow[];
  started: number;
  stepsPerRun: number;
  loads: { before: number[]; after: number[] };
  cpu: { before: CpuSnapshot; after: CpuSnapshot };
  /** Steps whose end-to-end time is not Warden's (a held step's is mostly the approver's). */
  skipE2e?: (s: StepRow) => boolean;
}): ScenarioResult {
  const { runs, steps } = what;
  const wall = lastEnd(runs) - what.started;
  return {
    scenario: what.scenario,
    runs: runs.length,
    steps: steps.length,
    wall_ms: wall,
    steps_per_second: perSecond(steps.length, wall),
    ...jobFigures(steps),
    step_e2e_ms: percentiles(stepTimes(steps, what.skipE2e ?? (() => false))),
    resume_to_action_ms: null,
    resume_answer_ms: null,
    load_average: what.loads,
    cpu_ms_per_step: cpuPerStep(what.cpu.before, what.cpu.after, steps.length),
    anomalies: anomaliesOf(runs, steps, what.stepsPerRun),
  };
}
