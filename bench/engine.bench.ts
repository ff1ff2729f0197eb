/**
 * npm run bench — how much time Warden's run engine adds to each step, how many steps it carries
 * per second, and how fast an approved write reaches the screen after a resume.
 *
 * Real parts only: a throwaway PostgreSQL database through the real migrations (dropped at the
 * end), the machine's Redis under a queue prefix of the bench's own (its keys removed at the end),
 * the API and the worker as processes from source (`src/main.ts`, `src/worker.ts`), tokens made by
 * the CLI, and one sim screen host per concurrent run over HTTPS with a pinned certificate of its
 * own (a screen host serves one run at a time). API and worker are processes, not in-process,
 * because that is how Warden runs (one API and one worker in a small deployment; `--workers 2` for
 * two), and because in one process the sim hosts and this bench would share the worker's event
 * loop and show up as Warden's overhead. The sim hosts run here, in this process, so that the
 * bench sees from the host's side the moment an action arrived (see BenchSim in engine-stack.ts).
 *
 * Scenarios (after a warm-up of 10 runs that is not measured):
 * - reads-1, reads-10, reads-50: runs of a 10-step read-only scripted planner (navigation keys,
 *   clicks on menu folders, a scroll; then `done`) on 1, 10 and 50 hosts at once. Every step must
 *   be classified `read`, or the bench stops: the script is meant to read only.
 * - held-serial: 50 runs each holding one write (a click on Save); another person approves each,
 *   then the operator resumes them one at a time, each run ending before the next resume.
 * - held-burst: the same, with all 50 resumes sent at once.
 *
 * Figures per scenario: platform overhead per step job (the step rows' `timings`: total minus
 * screen host, planner and deliberate pauses) p50/p99; steps per second (all steps of the runs,
 * over the scenario's wall clock: first start request to last run end); end-to-end step time (a
 * step's start to the next step's start) p50/p99; resume-to-action (sending `POST …/resume` to the
 * sim performing the action, both by this process's clock) p50/p99; CPU ms per step of each part
 * (from /proc), which the load of other work on the machine disturbs less than the latencies.
 * Runs that do not go as scripted (on an overloaded machine a run can fail) are listed, not hidden.
 *
 * Options: --workers N (worker processes, default 1), --scenarios a,b (default all),
 * --worker-concurrency N (default 50), --out FILE (default bench/results/engine.json),
 * --label TEXT (kept in the JSON), --node-flag FLAG (repeatable, for the API and worker
 * processes, e.g. --node-flag=--cpu-prof), --keep (keep the database and the process logs).
 * Needs PostgreSQL (WARDEN_BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres) and
 * Redis (WARDEN_BENCH_REDIS_URL, default redis://127.0.0.1:6379).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/lib/processes';
import {
  startProcessStack as startBenchStack,
  type ProcessStack as BenchStack,
  type StackHost as BenchHost,
} from '../test/support/process-stack';

const GOALS = {
  overhead_p50_ms: 20,
  steps_per_second_at_50: 100,
  resume_to_action_p50_ms: 60,
};

const ALL_SCENARIOS = ['reads-1', 'reads-10', 'reads-50', 'held-serial', 'held-burst'] as const;
type ScenarioName = (typeof ALL_SCENARIOS)[number];
const HELD_RUNS = 50;

/** Ten reads on SAP Easy Access: navigation keys, clicks on menu folders, a scroll. */
const READ_SCRIPT = {
  steps: [
    { step: 'down-1', action: { action: 'key', key: 'ArrowDown' } },
    { step: 'down-2', action: { action: 'key', key: 'ArrowDown' } },
    {
      step: 'logistics',
      action: { action: 'click', element: { role: 'listitem', name: 'Logistics' } },
    },
    {
      step: 'sd',
      action: { action: 'click', element: { role: 'listitem', name: 'Sales and Distribution' } },
    },
    { step: 'down-3', action: { action: 'key', key: 'ArrowDown' } },
    {
      step: 'scroll',
      action: {
        action: 'scroll',
        element: { role: 'listitem', name: 'Sales' },
        direction: 'down',
        amount: 3,
      },
    },
    {
      step: 'accounting',
      action: { action: 'click', element: { role: 'listitem', name: 'Accounting' } },
    },
    { step: 'up', action: { action: 'key', key: 'ArrowUp' } },
    {
      step: 'gl',
      action: { action: 'click', element: { role: 'listitem', name: 'General Ledger' } },
    },
    { step: 'help', action: { action: 'key', key: 'F1' } },
  ],
};

/** One write (Save, held for approval), then one read. */
const WRITE_SCRIPT = {
  steps: [
    { step: 'save', action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    { step: 'down', action: { action: 'key', key: 'ArrowDown' } },
  ],
};

interface Percentiles {
  n: number;
  p50: number | null;
  p99: number | null;
}

interface ScenarioResult {
  scenario: ScenarioName;
  runs: number;
  steps: number;
  wall_ms: number;
  steps_per_second: number;
  overhead_ms: Percentiles;
  /** Per kind of job, and the parts of a job's time (p50 of each). */
  jobs: Record<
    string,
    Percentiles & { total_p50: number | null; host_p50: number | null; pause_p50: number | null }
  >;
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
  /** Runs that did not go as the script says, with why. */
  anomalies: string[];
}

function percentiles(values: number[]): Percentiles {
  if (values.length === 0) return { n: 0, p50: null, p99: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const round = (v: number) => Math.round(v * 10) / 10;
  return { n: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loads = () => loadavg().map((l) => Math.round(l * 100) / 100);
/** CPU time (user + system) of a process in ms, from /proc (Linux); 0 when it is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Busy CPU time of the whole machine in ms (every process, other people's work included). */
function machineBusyMs(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const t = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = t[3] + (t[4] ?? 0);
    return ((t.reduce((a, b) => a + b, 0) - idle) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

interface CpuSnapshot {
  worker: number;
  api: number;
  bench: number;
  /** Per backend process id of the bench database. */
  postgres: Map<number, number>;
  machine: number;
}

type CpuPerStep = Record<'worker' | 'api' | 'bench' | 'postgres' | 'machine', number>;

async function cpuSnapshot(stack: BenchStack): Promise<CpuSnapshot> {
  const backends = await stack.sql<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
  );
  const own = process.cpuUsage();
  return {
    worker: stack.pids.workers.reduce((sum, pid) => sum + processCpuMs(pid), 0),
    api: processCpuMs(stack.pids.api),
    bench: (own.user + own.system) / 1000,
    postgres: new Map(backends.map((b) => [b.pid, processCpuMs(b.pid)])),
    machine: machineBusyMs(),
  };
}

/** CPU ms per step, per part, between two snapshots. */
function cpuPerStep(a: CpuSnapshot, b: CpuSnapshot, steps: number): CpuPerStep {
  const per = (ms: number) => Math.round((ms / steps) * 10) / 10;
  // A backend that connected meanwhile counts from zero; one that left is lost (pools keep theirs).
  let postgres = 0;
  for (const [pid, ms] of b.postgres) postgres += ms - (a.postgres.get(pid) ?? 0);
  return {
    worker: per(b.worker - a.worker),
    api: per(b.api - a.api),
    bench: per(b.bench - a.bench),
    postgres: per(postgres),
    machine: per(b.machine - a.machine),
  };
}

const agentName = (i: number) => `bench-${String(i + 1).padStart(2, '0')}`;

function log(line: string): void {
  console.log(`• ${line}`);
}

function expectStatus(what: string, answer: { status: number; body: any }, status = 200): void {
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

async function configure(stack: BenchStack, planner: string, hosts: number): Promise<void> {
  const agents: Record<string, unknown> = {};
  stack.hosts.slice(0, hosts).forEach((h, i) => {
    agents[agentName(i)] = {
      screen_url: h.url,
      screen_token_env: stack.tokenEnv,
      screen_tls: { fingerprint_sha256: h.fingerprint },
      system: 'SAP GUI (sim)',
      max_steps: 20,
      max_seconds: 300,
      planner,
    };
  });
  const answer = await stack.call('PUT', '/api/admin/computer-use', stack.tokens.admin, {
    enabled: true,
    agents,
  });
  expectStatus('configure the agents', answer);
}

/** Each run gets a fresh sim whose PNGs name it, so no two runs share a screenshot file. */
function prepareHosts(hosts: BenchHost[], scenario: string): void {
  const at = new Date().toISOString();
  hosts.forEach((h, i) => h.sim.prepare(`warden bench ${scenario} ${at} host ${i + 1}`));
}

async function startRuns(stack: BenchStack, count: number, goal: string): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const answer = await stack.call('POST', '/api/computer-use/runs', stack.tokens.operator, {
        agent: agentName(i),
        goal,
      });
      expectStatus(`start a run on ${agentName(i)}`, answer, 201);
      return answer.body.id as string;
    }),
  );
}

const ENDED = ['completed', 'failed', 'stopped'];

/** Waits until every run is in one of `statuses` or has ended. */
async function waitForRuns(
  stack: BenchStack,
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

interface RunRow {
  id: string;
  status: string;
  end_reason: string | null;
  summary: string | null;
  ended_at: Date | null;
}

async function runsOf(stack: BenchStack, ids: string[]): Promise<RunRow[]> {
  return stack.sql<RunRow>(
    `SELECT id, status, end_reason, summary, ended_at FROM runs WHERE id = ANY($1)`,
    [ids],
  );
}

interface StepRow {
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

async function stepsOf(stack: BenchStack, ids: string[]): Promise<StepRow[]> {
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
function anomaliesOf(runs: RunRow[], steps: StepRow[], stepsPerRun: number): string[] {
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

function lastEnd(runs: RunRow[]): number {
  return Math.max(...runs.map((r) => r.ended_at?.getTime() ?? 0));
}

/** Time from each step's start to the next one's (its own end for a run's last step). */
function stepTimes(steps: StepRow[], skip: (s: StepRow) => boolean): number[] {
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

function jobFigures(steps: StepRow[]): Pick<ScenarioResult, 'overhead_ms' | 'jobs'> {
  const entries = steps.flatMap((s) => s.timings ?? []);
  const kinds = [...new Set(entries.map((e) => String(e.job)))];
  const jobs: ScenarioResult['jobs'] = {};
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

async function reads(
  stack: BenchStack,
  name: ScenarioName,
  count: number,
): Promise<ScenarioResult> {
  const hosts = stack.hosts.slice(0, count);
  prepareHosts(hosts, name);
  const before = loads();
  const cpuBefore = await cpuSnapshot(stack);
  const started = Date.now();
  const ids = await startRuns(stack, count, `bench ${name}: read the menu`);
  await waitForRuns(stack, ids, ENDED);
  const cpuAfter = await cpuSnapshot(stack);
  const after = loads();
  const runs = await runsOf(stack, ids);
  const steps = await stepsOf(stack, ids);
  // The script must only read: every action step is classified `read` (and the last one ends).
  for (const s of steps) {
    if (s.classification !== null && s.classification !== 'read') {
      throw new Error(
        `step ${s.n} of run ${s.run_id} is classified ${s.classification} (${s.why}): the read-only script must only read`,
      );
    }
  }
  const wall = lastEnd(runs) - started;
  return {
    scenario: name,
    runs: count,
    steps: steps.length,
    wall_ms: wall,
    steps_per_second: Math.round((steps.length / wall) * 1000 * 10) / 10,
    ...jobFigures(steps),
    step_e2e_ms: percentiles(stepTimes(steps, () => false)),
    resume_to_action_ms: null,
    resume_answer_ms: null,
    load_average: { before, after },
    cpu_ms_per_step: cpuPerStep(cpuBefore, cpuAfter, steps.length),
    anomalies: anomaliesOf(runs, steps, READ_SCRIPT.steps.length + 1),
  };
}

async function held(
  stack: BenchStack,
  name: ScenarioName,
  burst: boolean,
): Promise<ScenarioResult> {
  const hosts = stack.hosts.slice(0, HELD_RUNS);
  prepareHosts(hosts, name);
  const before = loads();
  const cpuBefore = await cpuSnapshot(stack);
  const started = Date.now();
  const ids = await startRuns(stack, HELD_RUNS, `bench ${name}: save`);
  await waitForRuns(stack, ids, ['awaiting_approval'], 180_000);
  const waiting = new Set(
    (await runsOf(stack, ids)).filter((r) => r.status === 'awaiting_approval').map((r) => r.id),
  );

  // Another person approves every held write.
  const inbox = await stack.call('GET', '/api/approvals?limit=200', stack.tokens.approver);
  expectStatus('list approvals', inbox);
  const approvals = (inbox.body.items as Array<{ id: string; run_id: string }>).filter((a) =>
    waiting.has(a.run_id),
  );
  if (approvals.length !== waiting.size) {
    throw new Error(`${waiting.size} runs wait, the approver sees ${approvals.length} writes`);
  }
  for (let i = 0; i < approvals.length; i += 10) {
    await Promise.all(
      approvals.slice(i, i + 10).map(async (a) => {
        const answer = await stack.call(
          'POST',
          `/api/approvals/${a.id}/approve`,
          stack.tokens.approver,
          { comment: 'bench' },
        );
        expectStatus('approve', answer);
      }),
    );
  }

  // Resume: from sending the request to the host performing the action, by this process's clock.
  const resumeToAction: number[] = [];
  const resumeAnswer: number[] = [];
  const problems: string[] = [];
  const resume = async (i: number) => {
    const sim = hosts[i].sim;
    const mark = sim.performedAt.length;
    const sent = performance.now();
    const answer = await stack.call(
      'POST',
      `/api/computer-use/runs/${ids[i]}/resume`,
      stack.tokens.operator,
    );
    resumeAnswer.push(performance.now() - sent);
    expectStatus(`resume run ${ids[i]}`, answer);
    const performed = sim.performedAt[mark];
    if (performed === undefined) problems.push(`run ${ids[i]}: no action reached the host`);
    else resumeToAction.push(performed - sent);
  };
  const resumable = ids.map((id, i) => ({ id, i })).filter(({ id }) => waiting.has(id));
  const cpuResumes = await cpuSnapshot(stack);
  if (burst) {
    await Promise.all(resumable.map(({ i }) => resume(i)));
  } else {
    for (const { id, i } of resumable) {
      await resume(i);
      await waitForRuns(stack, [id], ENDED);
    }
  }
  const cpuResumed = await cpuSnapshot(stack);
  await waitForRuns(stack, ids, ENDED);
  const cpuAfter = await cpuSnapshot(stack);
  const after = loads();

  // The write reached each host at most once; a run that completed sent it exactly once.
  const runs = await runsOf(stack, ids);
  hosts.forEach((h, i) => {
    const clicks = h.sim.app
      .eventLog()
      .filter((e) => e.type === 'action' && (e.action as { x?: number }).x !== undefined);
    const run = runs.find((r) => r.id === ids[i]);
    if (clicks.length > 1)
      throw new Error(`host ${i + 1} performed the write ${clicks.length} times`);
    if (run?.status === 'completed' && clicks.length !== 1) {
      problems.push(`run ${ids[i]} completed, but its write (Save) never reached the host`);
    }
  });
  const steps = await stepsOf(stack, ids);
  const wall = lastEnd(runs) - started;
  return {
    scenario: name,
    runs: HELD_RUNS,
    steps: steps.length,
    wall_ms: wall,
    steps_per_second: Math.round((steps.length / wall) * 1000 * 10) / 10,
    ...jobFigures(steps),
    // The held step's own time is mostly the approver's: left out.
    step_e2e_ms: percentiles(stepTimes(steps, (s) => s.outcome === 'sent_after_approval')),
    resume_to_action_ms: percentiles(resumeToAction),
    resume_answer_ms: percentiles(resumeAnswer),
    load_average: { before, after },
    cpu_ms_per_step: cpuPerStep(cpuBefore, cpuAfter, steps.length),
    cpu_ms_per_resume: cpuPerStep(cpuResumes, cpuResumed, resumable.length),
    anomalies: [...anomaliesOf(runs, steps, WRITE_SCRIPT.steps.length + 1), ...problems],
  };
}

function fmt(p: Percentiles | null): string {
  if (!p || p.n === 0) return '—';
  return `${p.p50} / ${p.p99}`;
}

function mark(ok: boolean | null): string {
  return ok === null ? '' : ok ? ' ✓' : ' ✗ misses';
}

function report(results: ScenarioResult[]): void {
  console.log('');
  console.log(
    `goals: overhead p50 ≤ ${GOALS.overhead_p50_ms} ms; ≥ ${GOALS.steps_per_second_at_50} steps/s at 50 concurrent runs; resume-to-action p50 ≤ ${GOALS.resume_to_action_p50_ms} ms`,
  );
  const rows = results.map((r) => {
    const overheadOk =
      r.overhead_ms.p50 === null ? null : r.overhead_ms.p50 <= GOALS.overhead_p50_ms;
    const rateOk =
      r.scenario === 'reads-50' ? r.steps_per_second >= GOALS.steps_per_second_at_50 : null;
    const resumeOk =
      r.resume_to_action_ms?.p50 == null
        ? null
        : r.resume_to_action_ms.p50 <= GOALS.resume_to_action_p50_ms;
    return {
      scenario: r.scenario,
      runs: r.runs,
      steps: r.steps,
      'overhead ms p50/p99': fmt(r.overhead_ms) + mark(overheadOk),
      'steps/s': `${r.steps_per_second}${mark(rateOk)}`,
      'step e2e ms p50/p99': fmt(r.step_e2e_ms),
      'resume→action ms p50/p99': fmt(r.resume_to_action_ms) + mark(resumeOk),
      'load avg (1 min) before→after': `${r.load_average.before[0]} → ${r.load_average.after[0]}`,
    };
  });
  console.table(rows);
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
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '1' },
      scenarios: { type: 'string', default: ALL_SCENARIOS.join(',') },
      'worker-concurrency': { type: 'string', default: '50' },
      out: { type: 'string', default: join(ROOT, 'bench/results/engine.json') },
      label: { type: 'string' },
      'node-flag': { type: 'string', multiple: true, default: [] },
      keep: { type: 'boolean', default: false },
    },
  });
  const scenarios = values.scenarios.split(',').map((s) => s.trim()) as ScenarioName[];
  const unknown = scenarios.filter((s) => !ALL_SCENARIOS.includes(s));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(', ')}: one of ${ALL_SCENARIOS.join(', ')}`);
  }
  const workers = Number(values.workers);
  const hostsNeeded = Math.max(
    ...scenarios.map((s) => (s.startsWith('held') ? HELD_RUNS : Number(s.split('-')[1]))),
  );
  log(`${cpus().length} CPUs, load average ${loads().join(' ')}, node ${process.version}`);
  const stack = await startBenchStack({
    hosts: hostsNeeded,
    workers,
    workerConcurrency: Number(values['worker-concurrency']),
    nodeFlags: values['node-flag'],
    keepDir: values.keep,
    log,
  });
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    log('interrupted: stopping what the bench started');
    void stack.close().finally(() => process.exit(130));
  });
  const results: ScenarioResult[] = [];
  try {
    log(`database ${stack.databaseName}, queue prefix ${stack.queuePrefix}`);
    const planner = async (name: string, script: unknown) => {
      const answer = await stack.call('POST', '/api/planners/scripted', stack.tokens.admin, {
        name,
        script,
      });
      expectStatus(`create planner ${name}`, answer, 201);
      return answer.body.planner.id as string;
    };
    const readPlanner = await planner('bench reads', READ_SCRIPT);
    const writePlanner = await planner('bench held write', WRITE_SCRIPT);
    // Warm-up, not measured: the processes compile their hot paths and fill their pools.
    await configure(stack, readPlanner, stack.hosts.length);
    const warm = Math.min(10, stack.hosts.length);
    prepareHosts(stack.hosts.slice(0, warm), 'warm-up');
    await waitForRuns(stack, await startRuns(stack, warm, 'bench warm-up'), ENDED);
    log(`warmed up with ${warm} runs`);
    let configured: string | null = readPlanner;
    for (const name of scenarios) {
      const wanted = name.startsWith('held') ? writePlanner : readPlanner;
      if (configured !== wanted) {
        await configure(stack, wanted, stack.hosts.length);
        configured = wanted;
      }
      // A short pause between scenarios, so one's tail does not run into the next.
      await sleep(1000);
      log(`${name} …`);
      const result = name.startsWith('held')
        ? await held(stack, name, name === 'held-burst')
        : await reads(stack, name, Number(name.split('-')[1]));
      log(
        `${name}: ${result.steps} steps in ${result.wall_ms} ms, overhead p50 ${result.overhead_ms.p50} ms${result.anomalies.length ? `, ${result.anomalies.length} run(s) not as scripted` : ''}`,
      );
      results.push(result);
    }
  } finally {
    if (!interrupted) await stack.close();
  }
  report(results);
  const out = values.out;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify(
      {
        bench: 'engine',
        label: values.label ?? null,
        at: new Date().toISOString(),
        commit: gitCommit(),
        machine: { cpus: cpus().length, model: cpus()[0]?.model ?? null, node: process.version },
        setup: {
          api_processes: 1,
          worker_processes: workers,
          worker_concurrency: Number(values['worker-concurrency']),
          screen_hosts: hostsNeeded,
          read_script_steps: READ_SCRIPT.steps.length,
        },
        goals: GOALS,
        scenarios: results,
      },
      null,
      2,
    ) + '\n',
  );
  log(`figures written to ${relative(ROOT, out)}`);
}

main().catch((error: unknown) => {
  console.error(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
