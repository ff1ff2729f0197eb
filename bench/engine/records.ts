/**
 * What the runs left in the stack's database, read with SQL (one query for all runs, not one call
 * per run: the bench must not load the API it measures), and what is made of it: the job figures,
 * the steps' end-to-end times, the runs that did not go as scripted.
 */
import type { ProcessStack } from '../../test/support/process-stack';
import { type Percentiles, percentiles, sleep } from './figures';

export const ENDED = ['completed', 'failed', 'stopped'];

export interface RunRow {
  id: string;
  status: string;
  end_reason: string | null;
  summary: string | null;
  ended_at: Date | null;
}

export interface StepRow {
  run_id: string;
  n: number;
  classification: string | null;
  outcome: string | null;
  why: string | null;
  error: string | null;
  timings: Array<Record<string, number | string>> | null;
  started_at: Date;
  ended_at: Date | null;
}

/** Per kind of job, and the parts of a job's time (p50 of each). */
export type JobFigures = Record<
  string,
  Percentiles & { total_p50: number | null; host_p50: number | null; pause_p50: number | null }
>;

/** Waits until every run is in one of `statuses` or has ended. */
export async function waitForRuns(
  stack: ProcessStack,
  ids: string[],
  statuses: string[],
  ms = 300_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  const wanted = [...new Set([...statuses, ...ENDED])];
  for (;;) {
    const [{ waiting }] = await stack.sql<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM runs WHERE id = ANY($1) AND NOT (status = ANY($2))`,
      [ids, wanted],
    );
    if (waiting === 0) return;
    if (Date.now() > deadline) {
      const rows = await stack.sql(
        `SELECT status, count(*)::int FROM runs WHERE id = ANY($1) GROUP BY 1`,
        [ids],
      );
      throw new Error(
        `runs did not reach ${statuses.join('|')} in ${ms} ms: ${JSON.stringify(rows)}`,
      );
    }
    await sleep(25);
  }
}

export async function runsOf(stack: ProcessStack, ids: string[]): Promise<RunRow[]> {
  return stack.sql<RunRow>(
    `SELECT id, status, end_reason, summary, ended_at FROM runs WHERE id = ANY($1)`,
    [ids],
  );
}

export async function stepsOf(stack: ProcessStack, ids: string[]): Promise<StepRow[]> {
  return stack.sql<StepRow>(
    `SELECT run_id, n, classification, outcome, why, error, timings, started_at, ended_at
       FROM steps WHERE run_id = ANY($1) ORDER BY run_id, n`,
    [ids],
  );
}

/**
 * Runs that did not end as the script says (on an overloaded machine a run can fail: the figures
 * are still worth having, so these are reported next to them instead of stopping the bench).
 */
export function anomaliesOf(runs: RunRow[], steps: StepRow[], stepsPerRun: number): string[] {
  const out: string[] = [];
  for (const run of runs) {
    const own = steps.filter((s) => s.run_id === run.id);
    const errors = own.filter((s) => s.error).map((s) => `step ${s.n}: ${s.error}`);
    if (run.status !== 'completed' || run.end_reason !== 'done') {
      out.push(
        `run ${run.id} ${run.status} ${run.end_reason}: ${run.summary} ${errors.join('; ')}`,
      );
    } else if (own.length !== stepsPerRun) {
      out.push(`run ${run.id} completed with ${own.length} steps, not ${stepsPerRun}`);
    }
  }
  return out;
}

/** The scripts must only read: every action step classified `read`, or the bench stops. */
export function onlyReads(steps: StepRow[]): void {
  for (const s of steps) {
    if (s.classification !== null && s.classification !== 'read') {
      throw new Error(
        `step ${s.n} of run ${s.run_id} is classified ${s.classification} (${s.why}): the read-only script must only read`,
      );
    }
  }
}

export function lastEnd(runs: RunRow[]): number {
  return Math.max(...runs.map((r) => r.ended_at?.getTime() ?? 0));
}

/** Time from each step's start to the next one's (its own end for a run's last step). */
export function stepTimes(steps: StepRow[], skip: (s: StepRow) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    if (skip(s)) continue;
    const next = steps[i + 1];
    const end = next && next.run_id === s.run_id ? next.started_at : s.ended_at;
    if (end) out.push(end.getTime() - s.started_at.getTime());
  }
  return out;
}

/** Platform overhead per step job (the steps' `timings`), overall and per kind of job. */
export function jobFigures(steps: StepRow[]): { overhead_ms: Percentiles; jobs: JobFigures } {
  const entries = steps.flatMap((s) => s.timings ?? []);
  const kinds = [...new Set(entries.map((e) => String(e.job)))];
  const jobs: JobFigures = {};
  for (const kind of kinds) {
    const of = entries.filter((e) => e.job === kind);
    const p50 = (key: string) => percentiles(of.map((e) => Number(e[key]))).p50;
    jobs[kind] = {
      ...percentiles(of.map((e) => Number(e.overhead_ms))),
      total_p50: p50('total_ms'),
      host_p50: p50('host_ms'),
      pause_p50: p50('pause_ms'),
    };
  }
  return { overhead_ms: percentiles(entries.map((e) => Number(e.overhead_ms))), jobs };
}
