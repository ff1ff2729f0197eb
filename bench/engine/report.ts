/** The bench's goals, and what it prints: a table of the scenarios, their parts, the goals met. */
import type { Percentiles } from './figures';
import type { ScenarioResult } from './result';
import type { RoutineResult } from './routine';

export const GOALS = {
  /** reads-50: the worker's CPU per read step. */
  worker_cpu_ms_per_read_step: 6,
  /** reads-50: steps carried per second at 50 concurrent runs. */
  steps_per_second_at_50: 130,
  /** reads-1: Warden's overhead per step job, p50. */
  reads_1_overhead_p50_ms: 10,
  /** held-burst: resume→action of 50 resumes sent at once. */
  burst_resume_to_action_p50_ms: 150,
  burst_resume_to_action_p99_ms: 300,
};

interface Goal {
  what: string;
  scenario: string;
  /** The figure measured, null when it was not. */
  value: (r: ScenarioResult) => number | null;
  limit: number;
  /** `max`: the figure must be at most the limit; `min`: at least. */
  kind: 'max' | 'min';
}

const GOAL_LIST: Goal[] = [
  {
    what: 'worker CPU ms per read step (reads-50)',
    scenario: 'reads-50',
    value: (r) => r.cpu_ms_per_step.worker,
    limit: GOALS.worker_cpu_ms_per_read_step,
    kind: 'max',
  },
  {
    what: 'steps/s at 50 concurrent runs (reads-50)',
    scenario: 'reads-50',
    value: (r) => r.steps_per_second,
    limit: GOALS.steps_per_second_at_50,
    kind: 'min',
  },
  {
    what: 'overhead p50 ms (reads-1)',
    scenario: 'reads-1',
    value: (r) => r.overhead_ms.p50,
    limit: GOALS.reads_1_overhead_p50_ms,
    kind: 'max',
  },
  {
    what: 'resume→action p50 ms, 50 resumes at once (held-burst)',
    scenario: 'held-burst',
    value: (r) => r.resume_to_action_ms?.p50 ?? null,
    limit: GOALS.burst_resume_to_action_p50_ms,
    kind: 'max',
  },
  {
    what: 'resume→action p99 ms, 50 resumes at once (held-burst)',
    scenario: 'held-burst',
    value: (r) => r.resume_to_action_ms?.p99 ?? null,
    limit: GOALS.burst_resume_to_action_p99_ms,
    kind: 'max',
  },
];

/** Whether `r` meets each goal of its scenario (null: the scenario has no such goal). */
function met(goal: Goal, r: ScenarioResult): boolean | null {
  if (goal.scenario !== r.scenario) return null;
  const v = goal.value(r);
  if (v === null) return null;
  return goal.kind === 'max' ? v <= goal.limit : v >= goal.limit;
}

function fmt(p: Percentiles | null): string {
  if (!p || p.n === 0) return '—';
  return `${p.p50} / ${p.p99}`;
}

function mark(...oks: Array<boolean | null>): string {
  const known = oks.filter((ok) => ok !== null);
  if (known.length === 0) return '';
  return known.every(Boolean) ? ' ✓' : ' ✗ misses';
}

const markOf = (r: ScenarioResult, ...indexes: number[]) =>
  mark(...indexes.map((i) => met(GOAL_LIST[i], r)));

export function report(results: ScenarioResult[], routine: RoutineResult | null): void {
  console.log('');
  if (results.length > 0) printRuns(results);
  if (routine) printRoutine(routine);
  printGoals(results);
}

function row(r: ScenarioResult) {
  return {
    scenario: r.scenario,
    runs: r.runs,
    steps: r.steps,
    'overhead ms p50/p99': fmt(r.overhead_ms) + markOf(r, 2),
    'steps/s': `${r.steps_per_second}${markOf(r, 1)}`,
    'step e2e ms p50/p99': fmt(r.step_e2e_ms),
    'resume→action ms p50/p99': fmt(r.resume_to_action_ms) + markOf(r, 3, 4),
    'load avg (1 min) before→after': `${r.load_average.before[0]} → ${r.load_average.after[0]}`,
  };
}

function printRuns(results: ScenarioResult[]): void {
  console.table(results.map(row));
  console.log('job parts, p50 ms (total / screen host / pauses / overhead):');
  for (const r of results) {
    const parts = Object.entries(r.jobs)
      .map(([job, j]) => `${job} ${j.total_p50} / ${j.host_p50} / ${j.pause_p50} / ${j.p50}`)
      .join('; ');
    const answer = r.resume_answer_ms ? `; resume answered ${fmt(r.resume_answer_ms)}` : '';
    console.log(`  ${r.scenario}: ${parts}${answer}`);
  }
  for (const r of results) {
    if (r.anomalies.length === 0) continue;
    console.log(`${r.scenario}: ${r.anomalies.length} run(s) did not go as scripted:`);
    for (const a of r.anomalies.slice(0, 5)) console.log(`  ${a}`);
  }
  console.log(
    'CPU ms per step (worker / API / bench and sim hosts / PostgreSQL backends / whole machine):',
  );
  for (const r of results) {
    const c = r.cpu_ms_per_step;
    console.log(
      `  ${r.scenario}: ${c.worker} / ${c.api} / ${c.bench} / ${c.postgres} / ${c.machine}`,
    );
  }
  for (const r of results) {
    const c = r.cpu_ms_per_resume;
    if (!c) continue;
    console.log(
      `  ${r.scenario}, per resume (first sent to last answered): ${c.worker} / ${c.api} / ${c.bench} / ${c.postgres} / ${c.machine}`,
    );
  }
  for (const r of results) {
    const p = r.pixel_work;
    if (!p) continue;
    console.log(
      `4k: per screenshot (${p.screen}, ${p.png_kib} KiB PNG, median of ${p.screenshots}), CPU ms in this process: decode ${p.decode_ms}, model image (${p.model_image}) ${p.downscale_ms}; Warden's overhead per step p50/p99 ${fmt(r.overhead_ms)} ms`,
    );
  }
}

function printRoutine(r: RoutineResult): void {
  const run = (row: RoutineResult['model']) =>
    `active ${row.active_seconds} s (wall ${row.wall_seconds} s, ${row.model_calls} model calls, ${row.approvals} approvals)`;
  console.log(
    `routine (the model answers ${r.model_delay_ms / 1000} s after each call; load average ${r.load_average.before[0]} → ${r.load_average.after[0]}):`,
  );
  console.log(`  planned by the model: ${run(r.model)}`);
  console.log(`  replayed routine:     ${run(r.replay)}`);
  console.log(`  model over replay, active time: ${r.ratio ?? '—'}×`);
  for (const a of r.anomalies) console.log(`  not as expected: ${a}`);
}

function printGoals(results: ScenarioResult[]): void {
  console.log('goals:');
  for (const goal of GOAL_LIST) {
    const r = results.find((s) => s.scenario === goal.scenario);
    const value = r ? goal.value(r) : null;
    const bound = `${goal.kind === 'max' ? '≤' : '≥'} ${goal.limit}`;
    if (!r || value === null) {
      console.log(`  – ${goal.what} ${bound}: not measured`);
      continue;
    }
    console.log(`  ${met(goal, r) ? '✓' : '✗'} ${goal.what} ${bound}: ${value}`);
  }
}
