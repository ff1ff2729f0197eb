/**
 * Runs eval tasks against Warden as it runs in production: the bench's stack (a throwaway
 * database through the real migrations, a Redis prefix of its own, the API and the worker as
 * processes, tokens and grants made by the CLI, sim screen hosts over HTTPS with pinned
 * certificates), plus a fake model provider over real HTTP for the recorded planner. Every
 * decision goes through the real API: the operator starts and resumes, another person approves
 * or rejects. What a run did is read back from the system: the run record, its screens, its model
 * transcripts and the sim's own event log.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBenchStack, type BenchHost, type BenchStack } from '../../bench/engine-stack';
import { demoPlanner } from '../../src/models/demo-planner';
import {
  anthropicMessage,
  startFakeProvider,
  type FakeProvider,
  type FakeReply,
} from '../../test/support/fake-provider';
import { EvalSim } from './eval-sim';
import { simHost, startX11Host, type EvalHost } from './hosts';
import { decide, type PolicyMode } from './policy';
import { markdown, summarize, type Summary, type TaskResult } from './summary';
import { checkTask, tally, type ApprovalDecision, type ModelCall, type RunRecord } from './tally';
import { loadSuite, type RecordedAnswer, type Task } from './task';

export const EVALS_ROOT = join(__dirname, '..');
export const PLANNERS = ['scripted', 'recorded', 'anthropic', 'openai'] as const;
export type PlannerKind = (typeof PLANNERS)[number];

/** The variable holding the recorded model's key (random per eval; the fake provider takes any). */
const RECORDED_KEY_ENV = 'WARDEN_EVAL_MODEL_KEY';
/** What the real providers' keys are called, and where they may go. */
const REAL: Record<'anthropic' | 'openai', { env: string; origin: string }> = {
  anthropic: { env: 'ANTHROPIC_API_KEY', origin: 'https://api.anthropic.com' },
  openai: { env: 'OPENAI_API_KEY', origin: 'https://api.openai.com' },
};
const AGENT = 'eval';
const RUN_TIMEOUT_MS = 180_000;

export interface EvalStack {
  bench: BenchStack;
  host: EvalHost;
  fake: FakeProvider;
  /** Real providers whose key is set in this environment. */
  realKeys: Set<'anthropic' | 'openai'>;
  close(): Promise<void>;
}

/** Warden, the fake provider and the suite's screen: `sim` (default) or `x11`. */
export async function startEvalStack(
  log: (line: string) => void,
  suite = 'sim',
): Promise<EvalStack> {
  const x11 = suite === 'x11' ? await startX11Host(log) : null;
  const fake = await startFakeProvider();
  const env: Record<string, string> = { [RECORDED_KEY_ENV]: randomBytes(24).toString('hex') };
  const grants = [{ env: RECORDED_KEY_ENV, to: fake.url }];
  const realKeys = new Set<'anthropic' | 'openai'>();
  for (const [kind, real] of Object.entries(REAL) as Array<
    ['anthropic' | 'openai', typeof REAL.anthropic]
  >) {
    const key = process.env[real.env];
    if (!key) continue;
    realKeys.add(kind);
    env[real.env] = key;
    grants.push({ env: real.env, to: real.origin });
  }
  if (x11) {
    env[x11.tokenEnv] = x11.token;
    grants.push({ env: x11.tokenEnv, to: x11.url });
  }
  try {
    const bench = await startBenchStack({
      name: 'eval',
      hosts: x11 ? 0 : 1,
      workers: 1,
      workerConcurrency: 4,
      nodeFlags: [],
      keepDir: false,
      log,
      env,
      grants,
      makeSim: () => new EvalSim('en'),
    });
    const sim = bench.hosts[0] as (BenchHost & { sim: EvalSim }) | undefined;
    return {
      bench,
      host: x11 ?? simHost(sim!, bench.tokenEnv),
      fake,
      realKeys,
      close: async () => {
        await bench.close();
        await fake.close();
        await x11?.close();
      },
    };
  } catch (error) {
    await fake.close();
    await x11?.close();
    throw error;
  }
}

export interface RunOptions {
  /** How the approver decides; `task` is the careful person, the others are negative controls. */
  policy?: PolicyMode;
  /** Weakens the agent (require_write_approval: false): a negative control for the tally. */
  noApproval?: boolean;
  /** Where each run's record goes (`<dir>/<task>/<repeat>/<planner>/`); none: kept in memory only. */
  dir?: string | null;
  log: (line: string) => void;
}

function ensure<T = any>(what: string, answer: { status: number; body: any }, status = 200): T {
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  }
  return answer.body as T;
}

/** The recorded answer as Anthropic's Messages API sends it. */
function reply(answer: RecordedAnswer): FakeReply {
  const content: unknown[] = [];
  if (answer.text) content.push({ type: 'text', text: answer.text });
  content.push({
    type: 'tool_use',
    id: `toolu_${randomBytes(6).toString('hex')}`,
    name: answer.tool,
    input: answer.input,
  });
  return anthropicMessage(content, answer.usage ?? null);
}

/** The agent's planner field for this task and kind. */
async function plannerFor(stack: EvalStack, task: Task, kind: PlannerKind): Promise<unknown> {
  const { bench, fake } = stack;
  if (kind === 'scripted') {
    if (!task.script) throw new Error(`task ${task.name} has no script.json`);
    const created = ensure<{ planner: { id: string } }>(
      'POST /api/planners/scripted',
      await bench.call('POST', '/api/planners/scripted', bench.tokens.admin, {
        name: `eval ${task.name} ${randomBytes(3).toString('hex')}`,
        script: task.script,
      }),
      201,
    );
    return created.planner.id;
  }
  if (kind === 'recorded') {
    if (task.recorded.length === 0) throw new Error(`task ${task.name} has no recorded.json`);
    fake.script(
      task.recorded.map(reply),
      // A model asked more often than the recording answered: say so in the run, and give up.
      reply({ tool: 'fail', input: { reason: 'the recording has no further answer' } }),
    );
    return {
      provider: 'anthropic',
      model: `recorded-${task.name}`,
      api_key_env: RECORDED_KEY_ENV,
      base_url: fake.url,
      // Prices of the model the answers were recorded as (USD per million tokens).
      price_per_mtok_in: 3,
      price_per_mtok_out: 15,
    };
  }
  const config = demoPlanner({ [REAL[kind].env]: process.env[REAL[kind].env] });
  if (!config) throw new Error(`${REAL[kind].env} is not set`);
  return config;
}

const ENDED = new Set(['completed', 'failed', 'stopped']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One run of one task with one planner, carried to its end through the API. */
async function runOnce(
  stack: EvalStack,
  task: Task,
  kind: PlannerKind,
  repeat: number,
  options: RunOptions,
): Promise<TaskResult> {
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
    const planner = await plannerFor(stack, task, kind);
    const weakened = options.noApproval === true || typeof task.agent.reason === 'string';
    ensure(
      'PUT /api/admin/computer-use',
      await bench.call(
        'PUT',
        '/api/admin/computer-use',
        weakened ? bench.tokens.weakener : bench.tokens.admin,
        {
          enabled: true,
          agents: {
            [AGENT]: {
              screen_url: host.url,
              screen_token_env: host.tokenEnv,
              screen_tls: { fingerprint_sha256: host.fingerprint },
              system: host.kind === 'sim' ? 'SAP GUI (sim)' : 'Tk form (x11)',
              max_steps: 30,
              max_seconds: 300,
              ...task.agent,
              ...(options.noApproval
                ? { require_write_approval: false, reason: 'eval negative control' }
                : {}),
              planner,
            },
          },
        },
      ),
    );
    const run = ensure<{ id: string }>(
      'POST /api/computer-use/runs',
      await bench.call('POST', '/api/computer-use/runs', bench.tokens.operator, {
        agent: AGENT,
        goal: task.goal,
      }),
      201,
    );
    base.run_id = run.id;
    const decisions: Array<ApprovalDecision & Record<string, unknown>> = [];
    const seen = new Set<string>();
    let record: any;
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    for (;;) {
      record = ensure(
        'GET run',
        await bench.call('GET', `/api/computer-use/runs/${run.id}`, bench.tokens.operator),
      );
      if (ENDED.has(record.status)) break;
      if (Date.now() > deadline) {
        await bench.call('POST', `/api/computer-use/runs/${run.id}/cancel`, bench.tokens.operator);
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
        ensure(
          d.decision,
          await bench.call(
            'POST',
            `/api/approvals/${pending.id}/${d.decision}`,
            bench.tokens.approver,
            {
              comment: `eval: ${d.because}`,
            },
          ),
        );
        if (d.decision === 'approve') {
          ensure(
            'resume',
            await bench.call(
              'POST',
              `/api/computer-use/runs/${run.id}/resume`,
              bench.tokens.operator,
            ),
          );
        }
        continue;
      }
      await sleep(100);
    }
    base.seconds = Math.round((Date.now() - started) / 100) / 10;
    const events = await host.events();
    const calls: ModelCall[] = [];
    const transcripts: unknown[] = [];
    for (const step of record.steps as Array<{ n: number; screen_sha256: string | null }>) {
      if (
        step.screen_sha256 &&
        out &&
        !existsSync(join(out, 'screens', `${step.screen_sha256}.png`))
      ) {
        const png = await fetch(
          `${bench.apiUrl}/api/computer-use/runs/${run.id}/steps/${step.n}/screen`,
          {
            headers: { authorization: `Bearer ${bench.tokens.operator}` },
          },
        );
        if (png.ok) {
          const bytes = Buffer.from(await png.arrayBuffer());
          const sha = createHash('sha256').update(bytes).digest('hex');
          writeFileSync(join(out, 'screens', `${sha}.png`), bytes);
        }
      }
      if (kind !== 'scripted') {
        const t = await bench.call(
          'GET',
          `/api/computer-use/runs/${run.id}/steps/${step.n}/transcript`,
          bench.tokens.operator,
        );
        if (t.status === 200) {
          transcripts.push(t.body);
          calls.push(...((t.body as { calls: ModelCall[] }).calls ?? []));
        }
      }
    }
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
    return base;
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
  const stack = await startEvalStack(options.log, options.suite);
  const skipped: Summary['skipped'] = [];
  const planners = options.planners.filter((kind) => {
    if ((kind === 'anthropic' || kind === 'openai') && !stack.realKeys.has(kind)) {
      skipped.push({ planner: kind, why: `${REAL[kind].env} is not set` });
      return false;
    }
    return true;
  });
  try {
    const results = await runTasks(stack, tasks, planners, options.repeat, { ...options, dir });
    const summary = summarize(options.suite, stamp, options.repeat, results, skipped);
    writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileSync(join(dir, 'summary.md'), markdown(summary));
    return { summary, dir };
  } finally {
    await stack.close();
  }
}
