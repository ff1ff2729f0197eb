/**
 * Runs eval tasks against Warden as it runs in production (eval-stack.ts). Every
 * decision goes through the real API: the operator starts and resumes, another person approves
 * or rejects. What a run did is read back from the system: the run record, its screens, its model
 * transcripts and the system's own record (the sim's event log, the x11 program's log).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWardenClient, type Schemas } from '@warden/client';
import {
  delayed,
  plannerFor,
  reply,
  REAL,
  startEvalStack,
  type EvalStack,
  type PlannerKind,
} from './eval-stack';
import { dataOf } from '../../test/support/typed-answer';
import { decide, type PolicyMode } from './policy';
import { markdown, summarize, type Summary, type TaskResult } from './summary';
import { checkTask, tally, type ApprovalDecision, type ModelCall, type RunRecord } from './tally';
import { loadSuite, type RecordedAnswer, type Task } from './task';

export { PLANNERS, startEvalStack, type EvalStack, type PlannerKind } from './eval-stack';
export const EVALS_ROOT = join(__dirname, '..');
const AGENT = 'eval';
const RUN_TIMEOUT_MS = 180_000;

export interface RunOptions {
  /** How the approver decides; `task` is the careful person, the others are negative controls. */
  policy?: PolicyMode;
  /** Weakens the agent (require_write_approval: false): a negative control for the tally. */
  noApproval?: boolean;
  /** Where each run's record goes (`<dir>/<task>/<repeat>/<planner>/`); none: kept in memory only. */
  dir?: string | null;
  log: (line: string) => void;
  /** Told of a task a planner cannot run (the recorded planner, a task with no recording). */
  skip?: (planner: PlannerKind, why: string) => void;
}

const ENDED = new Set(['completed', 'failed', 'stopped']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The screens each step saw, stored by the SHA-256 of their bytes under `out/screens/`, and the
 * model transcripts of each step (what was asked, answered, and what it cost).
 */
async function readBack(
  stack: EvalStack,
  runId: string,
  steps: Array<{ n: number; screen_sha256: string | null }>,
  kind: PlannerKind,
  out: string | null,
): Promise<{ calls: ModelCall[]; transcripts: unknown[] }> {
  const { bench } = stack;
  const calls: ModelCall[] = [];
  const transcripts: unknown[] = [];
  for (const step of steps) {
    const sha = step.screen_sha256;
    if (sha && out && !existsSync(join(out, 'screens', `${sha}.png`))) {
      const png = await fetch(
        `${bench.apiUrl}/api/computer-use/runs/${runId}/steps/${step.n}/screen`,
        { headers: { authorization: `Bearer ${bench.tokens.operator}` } },
      );
      if (png.ok) {
        const bytes = Buffer.from(await png.arrayBuffer());
        const named = createHash('sha256').update(bytes).digest('hex');
        writeFileSync(join(out, 'screens', `${named}.png`), bytes);
      }
    }
    if (kind === 'scripted') continue;
    const client = createWardenClient({ baseUrl: bench.apiUrl, token: bench.tokens.operator });
    const { data } = await client.GET('/api/computer-use/runs/{id}/steps/{n}/transcript', {
      params: { path: { id: runId, n: step.n } },
    });
    if (data) {
      transcripts.push(data);
      calls.push(...(data.calls as unknown as ModelCall[]));
    }
  }
  return { calls, transcripts };
}

/**
 * A run of a saved script instead of the task's planner (routine runs, routine.ts): the script's
 * id, the parameters the run starts with, and what the fake model answers its fallback.
 */
export interface Replay {
  planner: string;
  params: Record<string, string>;
  fallbackAnswers?: RecordedAnswer[];
}

/** One run of one task with one planner, carried to its end through the API. */
export async function runOnce(
  stack: EvalStack,
  task: Task,
  kind: PlannerKind,
  repeat: number,
  options: RunOptions,
  replay?: Replay,
): Promise<TaskResult & { record?: any }> {
  const { bench, host } = stack;
  const started = Date.now();
  const base: TaskResult = {
    task: task.name,
    planner: kind,
    repeat,
    run_id: null,
    status: 'not_started',
    end_reason: null,
    success: false,
    failures: [],
    seconds: 0,
    tally: null,
  };
  const out = options.dir ? join(options.dir, task.name, String(repeat), kind) : null;
  if (out) mkdirSync(join(out, 'screens'), { recursive: true });
  const write = (name: string, value: unknown) => {
    if (out) writeFileSync(join(out, name), `${JSON.stringify(value, null, 2)}\n`);
  };
  try {
    stack.fake.reset();
    await host.begin(task, `${task.name}-${kind}-${repeat}`);
    if (replay?.fallbackAnswers) {
      stack.fake.script(replay.fallbackAnswers.map((a) => delayed(reply(a), stack.modelDelayMs)));
    }
    const planner = replay ? replay.planner : await plannerFor(stack, task, kind);
    const weakened = options.noApproval === true || typeof task.agent.reason === 'string';
    const target = host.target(task);
    const as = (token: string) => createWardenClient({ baseUrl: bench.apiUrl, token });
    const operator = as(bench.tokens.operator);
    dataOf(
      'PUT /api/admin/computer-use',
      await as(weakened ? bench.tokens.weakener : bench.tokens.admin).PUT(
        '/api/admin/computer-use',
        {
          body: {
            enabled: true,
            agents: {
              [AGENT]: {
                screen_url: target.url,
                screen_token_env: target.tokenEnv,
                screen_tls: { fingerprint_sha256: target.fingerprint },
                system: target.system,
                max_steps: 30,
                max_seconds: 300,
                ...task.agent,
                ...(options.noApproval
                  ? { require_write_approval: false, reason: 'eval negative control' }
                  : {}),
                planner,
              } as Schemas['AgentDto'],
            },
          },
        },
      ),
    );
    const run = dataOf(
      'POST /api/computer-use/runs',
      await operator.POST('/api/computer-use/runs', {
        body: { agent: AGENT, goal: task.goal, ...(replay ? { params: replay.params } : {}) },
      }),
    );
    const byId = { params: { path: { id: run.id } } };
    base.run_id = run.id;
    const decisions: Array<ApprovalDecision & Record<string, unknown>> = [];
    const seen = new Set<string>();
    let record: any;
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    for (;;) {
      record = dataOf('GET run', await operator.GET('/api/computer-use/runs/{id}', byId));
      if (ENDED.has(record.status)) break;
      if (Date.now() > deadline) {
        await operator.POST('/api/computer-use/runs/{id}/cancel', byId);
        base.error = `the run did not end within ${RUN_TIMEOUT_MS / 1000} s; cancelled`;
        await sleep(500);
        continue;
      }
      const pending = record.pending_approval;
      if (record.status === 'awaiting_approval' && pending && !seen.has(pending.id)) {
        seen.add(pending.id);
        const d = decide(task.policy, { action: pending.action, why: pending.why }, options.policy);
        decisions.push({
          step: pending.step,
          decision: d.decision,
          because: d.because,
          approval_id: pending.id,
          action: pending.action,
          why: pending.why,
          rail: pending.rail ?? null,
        });
        options.log(`  step ${pending.step}: ${d.decision} ${JSON.stringify(pending.action)}`);
        const approver = as(bench.tokens.approver);
        const decision = {
          params: { path: { id: pending.id as string } },
          body: { comment: `eval: ${d.because}` },
        };
        dataOf(
          d.decision,
          d.decision === 'approve'
            ? await approver.POST('/api/approvals/{id}/approve', decision)
            : await approver.POST('/api/approvals/{id}/reject', decision),
        );
        if (d.decision === 'approve') {
          dataOf('resume', await operator.POST('/api/computer-use/runs/{id}/resume', byId));
        }
        continue;
      }
      await sleep(100);
    }
    base.seconds = Math.round((Date.now() - started) / 100) / 10;
    const events = await host.events();
    const { calls, transcripts } = await readBack(stack, run.id, record.steps, kind, out);
    const runRecord = record as RunRecord;
    const governance = tally(runRecord, host.unapproved(runRecord, events), decisions, calls);
    const checked = checkTask(task.check, runRecord, events);
    Object.assign(base, {
      status: record.status,
      end_reason: record.end_reason,
      success: checked.success && !base.error,
      failures: checked.failures,
      tally: governance,
    });
    write('run.json', record);
    write('events.json', events);
    write('decisions.json', decisions);
    write('transcripts.json', transcripts);
    write('tally.json', { ...governance, success: base.success, failures: checked.failures });
    return { ...base, record };
  } catch (error) {
    base.error = error instanceof Error ? error.message : String(error);
    base.seconds = Math.round((Date.now() - started) / 100) / 10;
    write('error.json', { error: base.error });
    return base;
  }
}

/** Every task with every planner, `repeat` times; one after another on the one sim host. */
export async function runTasks(
  stack: EvalStack,
  tasks: Task[],
  planners: PlannerKind[],
  repeat: number,
  options: RunOptions,
): Promise<TaskResult[]> {
  const results: TaskResult[] = [];
  for (const kind of planners) {
    for (const task of tasks) {
      if ((kind === 'recorded' || kind === 'batched') && task.recorded.length === 0) {
        options.skip?.(kind, `task ${task.name} has no recording (recorded.json)`);
        continue;
      }
      for (let r = 1; r <= repeat; r++) {
        options.log(`${kind} / ${task.name} #${r}: ${task.title}`);
        const result = await runOnce(stack, task, kind, r, options);
        const t = result.tally;
        options.log(
          `  → ${result.status} (${result.end_reason}) ${result.success ? 'success' : 'NOT done'}` +
            (t ? `; ${t.steps} steps, ${t.held} held, ${t.unapproved_writes} unapproved` : '') +
            (result.error ? `; ${result.error}` : '') +
            (result.failures.length ? `; ${result.failures.join('; ')}` : ''),
        );
        results.push(result);
      }
    }
  }
  return results;
}

export interface SuiteOptions {
  suite: string;
  planners: PlannerKind[];
  repeat: number;
  /** Only these tasks (default all); `smoke` keeps those marked `"smoke": true`. */
  only?: string[];
  smoke?: boolean;
  policy?: PolicyMode;
  noApproval?: boolean;
  /** evals/results by default. */
  resultsRoot?: string;
  /** How long the fake model takes to answer, in ms. */
  modelDelayMs?: number;
  log: (line: string) => void;
}

/** `2026-12-01T10-23-30Z`: the UTC time, fit for a folder name. */
export function stampOf(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

export function selectTasks(options: Pick<SuiteOptions, 'suite' | 'only' | 'smoke'>): Task[] {
  let tasks = loadSuite(join(EVALS_ROOT, 'suites'), options.suite);
  if (options.smoke) tasks = tasks.filter((t) => t.smoke);
  if (options.only?.length) {
    const unknown = options.only.filter((n) => !tasks.some((t) => t.name === n));
    if (unknown.length) throw new Error(`no task ${unknown.join(', ')} in suite ${options.suite}`);
    tasks = tasks.filter((t) => options.only!.includes(t.name));
  }
  return tasks;
}

/** Stands the stack up, runs the suite, writes the results and the summary, takes it all down. */
export async function runSuite(options: SuiteOptions): Promise<{ summary: Summary; dir: string }> {
  const tasks = selectTasks(options);
  const stamp = stampOf(new Date());
  const dir = join(options.resultsRoot ?? join(EVALS_ROOT, 'results'), options.suite, stamp);
  mkdirSync(dir, { recursive: true });
  const stack = await startEvalStack(options.log, options.suite, tasks, options.modelDelayMs);
  const skipped: Summary['skipped'] = [];
  const planners = options.planners.filter((kind) => {
    if ((kind === 'anthropic' || kind === 'openai') && !stack.realKeys.has(kind)) {
      skipped.push({ planner: kind, why: `${REAL[kind].env} is not set` });
      return false;
    }
    return true;
  });
  try {
    const results = await runTasks(stack, tasks, planners, options.repeat, {
      ...options,
      dir,
      skip: (planner, why) => skipped.push({ planner, why }),
    });
    const summary = summarize(options.suite, stamp, options.repeat, results, skipped);
    writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileSync(join(dir, 'summary.md'), markdown(summary));
    return { summary, dir };
  } finally {
    await stack.close();
  }
}
