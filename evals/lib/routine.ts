/**
 * Routine runs, measured (`npm run eval -- --suite sim --routine`, docs/evals.md): the VA02 change
 * planned by the recorded model (one action a call) and by the batching model (today's tools, several
 * actions a turn), the first saved as a script with `order` and `date` as parameters and the
 * same model as its fallback, then replayed for other orders, and once with an information dialog
 * that opens on the order's screen right before the script acts there (the frame rule stops that
 * action; the script's step then waits in vain, the fallback closes the dialog, the script goes
 * on). Per run: model calls, tokens, cost, active time (the run's, without approval waits),
 * approvals, unapproved writes.
 */
import { join } from 'node:path';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dataOf } from '../../test/support/typed-answer';
import { plannerFor, startEvalStack, type EvalStack } from './eval-stack';
import { EVALS_ROOT, runOnce, selectTasks, stampOf, type RunOptions } from './runner';
import type { Task } from './task';

export interface RoutineRow {
  run: string;
  order: string;
  date: string;
  status: string;
  success: boolean;
  model_calls: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  /** The run's active time: without the time it waited for approvals or in the queue. */
  active_seconds: number;
  /** From its start to its end as the operator saw it, approvals included. */
  wall_seconds: number;
  /** Of it, what the planner took (the steps' planner_ms). */
  planner_seconds: number;
  approvals: number;
  fallback_steps: number;
  unapproved_writes: number;
  failures: string[];
}

export interface RoutineSummary {
  ok: boolean;
  script_id: string;
  script_steps: number;
  rows: RoutineRow[];
  /** Model run's active time over the mean clean replay's. */
  speedup: number | null;
}

export const SOURCE = { order: '4711', date: '30.04.2026' };
/** The sim knows orders 4711, 4712 and 4713: the third replay changes 4711 again, to another date. */
export const REPLAYS = [
  { order: '4712', date: '15.05.2026' },
  { order: '4713', date: '31.05.2026' },
  { order: '4711', date: '30.06.2026' },
];
const POPUP = {
  order: '4712',
  date: '20.07.2026',
  popup: {
    screen: 'va-overview',
    title: 'Information',
    message: 'The system will be unavailable from 18:00 to 18:30 for maintenance.',
    buttons: ['OK', 'Close'],
  },
};

/** The VA02 task for another order and date: goal, approvals and check follow the values. */
export function variant(task: Task, order: string, date: string, start: Task['start'] = {}): Task {
  const json = JSON.stringify({ goal: task.goal, policy: task.policy, check: task.check })
    .split(SOURCE.order)
    .join(order)
    .split(SOURCE.date)
    .join(date);
  const changed = JSON.parse(json) as Pick<Task, 'goal' | 'policy' | 'check'>;
  return { ...task, ...changed, start };
}

export function rowOf(
  label: string,
  order: string,
  date: string,
  result: Awaited<ReturnType<typeof runOnce>>,
): RoutineRow {
  const record = result.record ?? {};
  const planning = record.planning ?? {};
  const steps: any[] = record.steps ?? [];
  const plannerMs = steps
    .flatMap((s) => s.timings ?? [])
    .reduce((sum: number, t: any) => sum + (t.planner_ms ?? 0), 0);
  return {
    run: label,
    order,
    date,
    status: `${result.status} (${result.end_reason})`,
    success: result.success,
    model_calls: planning.model_calls ?? 0,
    input_tokens: planning.input_tokens ?? null,
    output_tokens: planning.output_tokens ?? null,
    cost_usd: planning.cost_usd ?? null,
    active_seconds: record.active_seconds ?? 0,
    wall_seconds: result.seconds,
    planner_seconds: Math.round(plannerMs) / 1000,
    approvals: result.tally?.held ?? 0,
    fallback_steps: planning.fallback_steps ?? 0,
    unapproved_writes: result.tally?.unapproved_writes ?? 0,
    failures: [...result.failures, ...(result.error ? [result.error] : [])],
  };
}

/**
 * The model's run `runId` of the VA02 change saved as a script, `order` and `date` its parameters
 * and the same model its fallback (its configuration as the recorded run named it); answers the
 * script's planner id and its number of steps.
 */
export async function saveRoutine(
  stack: EvalStack,
  task: Task,
  runId: string,
): Promise<{ id: string; steps: number }> {
  const fallback = (await plannerFor(stack, task, 'recorded')) as Record<string, unknown>;
  stack.fake.reset();
  const saved = dataOf(
    'POST /api/computer-use/runs/{id}/script',
    await stack.bench.client(stack.bench.tokens.admin).POST('/api/computer-use/runs/{id}/script', {
      params: { path: { id: runId } },
      body: { name: 'VA02: change the delivery date', parameters: SOURCE, fallback },
    }),
  );
  const script = saved.planner.script as { steps: unknown[] };
  return { id: saved.planner.id, steps: script.steps.length };
}

export async function runRoutine(
  stack: EvalStack,
  tasks: Task[],
  options: RunOptions & { dir: string },
): Promise<RoutineSummary> {
  const task = tasks.find((t) => t.name === 'va02-change-date');
  if (!task) throw new Error('the routine eval needs the task va02-change-date');
  const rows: RoutineRow[] = [];
  options.log('routine: the model plans the VA02 change');
  const planned = await runOnce(stack, task, 'recorded', 1, options);
  rows.push(rowOf('model (recorded)', SOURCE.order, SOURCE.date, planned));
  if (!planned.run_id || planned.status !== 'completed') {
    throw new Error(`the model's run did not complete: ${planned.status} ${planned.error ?? ''}`);
  }
  options.log('routine: the batching model plans the VA02 change (several actions a turn)');
  const batched = await runOnce(stack, task, 'batched', 1, options);
  rows.push(rowOf('model (batched)', SOURCE.order, SOURCE.date, batched));
  const saved = await saveRoutine(stack, task, planned.run_id);
  const planner = saved.id;
  options.log(`routine: saved as ${planner} (${saved.steps} steps)`);
  let n = 0;
  for (const { order, date } of REPLAYS) {
    n++;
    options.log(`routine: replay for order ${order}, date ${date}`);
    const result = await runOnce(stack, variant(task, order, date), 'scripted', n, options, {
      planner,
      params: { order, date },
    });
    rows.push(rowOf('replay', order, date, result));
  }
  options.log(`routine: replay for order ${POPUP.order} with a dialog nobody expected`);
  const popped = await runOnce(
    stack,
    variant(task, POPUP.order, POPUP.date, { popup_on: POPUP.popup }),
    'scripted',
    n + 1,
    options,
    {
      planner,
      params: { order: POPUP.order, date: POPUP.date },
      fallbackAnswers: [
        {
          tool: 'computer',
          text: 'An information dialog is in the way; I close it.',
          input: { action: 'key', text: 'Escape' },
          usage: { input: 2600, output: 60 },
        },
      ],
    },
  );
  rows.push(rowOf('replay with dialog', POPUP.order, POPUP.date, popped));
  const clean = rows.filter((r) => r.run === 'replay');
  const mean = clean.reduce((s, r) => s + r.active_seconds, 0) / Math.max(1, clean.length);
  const summary: RoutineSummary = {
    ok: rows.every((r) => r.success && r.unapproved_writes === 0),
    script_id: planner,
    script_steps: saved.steps,
    rows,
    speedup: mean > 0 ? Math.round((rows[0].active_seconds / mean) * 10) / 10 : null,
  };
  mkdirSync(options.dir, { recursive: true });
  writeFileSync(join(options.dir, 'routine.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(options.dir, 'routine.md'), routineMarkdown(summary));
  return summary;
}

export function routineMarkdown(summary: RoutineSummary): string {
  const cell = (v: number | null | undefined) =>
    v === null || v === undefined ? 'unknown' : String(v);
  const lines = [
    '| run | order, date | result | model calls | tokens in / out | cost USD | wall s | active s | planner s | approvals | fallback steps | unapproved writes |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...summary.rows.map(
      (r) =>
        `| ${r.run} | ${r.order}, ${r.date} | ${r.success ? 'done' : 'NOT done'}: ${r.status} | ${r.model_calls} | ${cell(r.input_tokens)} / ${cell(r.output_tokens)} | ${cell(r.cost_usd)} | ${r.wall_seconds} | ${r.active_seconds} | ${r.planner_seconds} | ${r.approvals} | ${r.fallback_steps} | ${r.unapproved_writes} |`,
    ),
  ];
  return `${lines.join('\n')}\n\nModel run over a clean replay (active time): ${cell(summary.speedup)}×.\n`;
}

/** `--routine`: the routine-runs measurement (routine.ts) on a stack of its own. */
export async function runRoutineSuite(options: {
  suite: string;
  resultsRoot?: string;
  /** How long the fake model takes to answer, in ms. */
  modelDelayMs?: number;
  log: (line: string) => void;
}): Promise<{ summary: RoutineSummary; dir: string }> {
  const tasks = selectTasks({ suite: options.suite });
  const dir = join(
    options.resultsRoot ?? join(EVALS_ROOT, 'results'),
    options.suite,
    `routine-${stampOf(new Date())}`,
  );
  mkdirSync(dir, { recursive: true });
  const stack = await startEvalStack(options.log, options.suite, [], options.modelDelayMs);
  try {
    const summary = await runRoutine(stack, tasks, { dir, log: options.log });
    return { summary, dir };
  } finally {
    await stack.close();
  }
}
