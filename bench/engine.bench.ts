/**
 * npm run bench — how much time Warden's run engine adds to each step, how many steps it carries
 * per second, and how fast an approved write reaches the screen after a resume.
 *
 * Real parts only (test/support/process-stack.ts): a throwaway PostgreSQL database through the
 * real migrations (dropped at the end), the machine's Redis under a queue prefix of the bench's own
 * (its keys removed at the end), the API and the worker as processes from source (`src/main.ts`,
 * `src/worker.ts`), tokens made by the CLI, and one sim screen host per concurrent run over HTTPS
 * with a pinned certificate of its own (a screen host serves one run at a time). API and worker
 * are processes, not in-process, because that is how Warden runs (one API and one worker in a
 * small deployment; `--workers 2` for two), and because in one process the sim hosts and this
 * bench would share the worker's event loop and show up as Warden's overhead. The sim hosts run
 * here, in this process, so that the bench sees from the host's side the moment an action arrived
 * (BenchSim, test/support/bench-sim.ts). Every call of the API goes through the typed client
 * (@warden/client) as a person would make it; results are read from the database.
 *
 * Scenarios (after a warm-up of 10 runs that is not measured), one file each under bench/engine/:
 * - reads-1, reads-10, reads-50 (reads.ts): runs of a 10-step read-only scripted planner
 *   (navigation keys, clicks on menu folders, a scroll; then `done`) on 1, 10 and 50 hosts at once.
 * - held-serial, held-burst (held.ts): 50 runs each holding one write (a click on Save); another
 *   person approves each, then the operator resumes them one at a time, each run ending before
 *   the next resume, or all 50 at once.
 * - 4k (four-k.ts): the read script, three runs one after another, on a 3840×2160 sim screen;
 *   with the decode and model-image time of one of its screenshots.
 * - routine (routine.ts), opt-in (`--scenarios routine`, or added to a list): the VA02 change
 *   planned by a fake model answering 1.5 s after each call (`--model-delay`) against the same
 *   change replayed from its saved routine, no model call; on a stack of its own (about a minute).
 * The default is every scenario but routine.
 *
 * Figures per scenario: platform overhead per step job (the step rows' `timings`: total minus
 * screen host, planner and deliberate pauses) p50/p99; steps per second (all steps of the runs,
 * over the scenario's wall clock: first start request to last run end); end-to-end step time (a
 * step's start to the next step's start) p50/p99; resume-to-action (sending `POST …/resume` to the
 * sim performing the action, both by this process's clock) p50/p99; CPU ms per step of each part
 * (from /proc), which the load of other work on the machine disturbs less than the latencies.
 * Runs that do not go as scripted (on an overloaded machine a run can fail) are listed, not hidden.
 * The goals (report.ts) are printed with ✓ or ✗ each.
 *
 * Options: --workers N (worker processes, default 1), --scenarios a,b (default all but routine),
 * --worker-concurrency N (default 50), --out FILE (default bench/results/engine.json),
 * --label TEXT (kept in the JSON), --node-flag FLAG (repeatable, for the API and worker
 * processes, e.g. --node-flag=--cpu-prof), --keep (keep the database and the process logs),
 * --model-delay SECONDS (routine: the fake model's latency, default 1.5).
 * Needs PostgreSQL (WARDEN_BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres) and
 * Redis (WARDEN_BENCH_REDIS_URL, default redis://127.0.0.1:6379).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/lib/processes';
import { startProcessStack, type ProcessStack } from '../test/support/process-stack';
import { BenchSim } from '../test/support/bench-sim';
import { configure, createPlanner, prepareHosts, startRuns } from './engine/calls';
import { loads, sleep } from './engine/figures';
import { fourK } from './engine/four-k';
import { held, HELD_RUNS } from './engine/held';
import { reads } from './engine/reads';
import { ENDED, waitForRuns } from './engine/records';
import { GOALS, report } from './engine/report';
import { RUN_SCENARIOS, type RunScenario, type ScenarioResult } from './engine/result';
import { routine, type RoutineResult } from './engine/routine';
import { READ_SCRIPT, WRITE_SCRIPT } from './engine/scripts';
import { Sim4k } from './engine/sim-4k';

const ALL_SCENARIOS = [...RUN_SCENARIOS, 'routine'] as const;
type ScenarioName = (typeof ALL_SCENARIOS)[number];
const DEFAULT_SCENARIOS = RUN_SCENARIOS;

function log(line: string): void {
  console.log(`• ${line}`);
}

/** Hosts of 1280×800 the scenarios need at once (the 4K host comes after them). */
function hostsFor(scenarios: readonly RunScenario[]): number {
  return Math.max(
    0,
    ...scenarios.map((s) =>
      s.startsWith('held') ? HELD_RUNS : s === '4k' ? 0 : Number(s.split('-')[1]),
    ),
  );
}

async function runScenarios(
  stack: ProcessStack,
  scenarios: readonly RunScenario[],
  plain: number,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  log(`database ${stack.databaseName}, queue prefix ${stack.queuePrefix}`);
  const readPlanner = await createPlanner(stack, 'bench reads', READ_SCRIPT);
  const writePlanner = await createPlanner(stack, 'bench held write', WRITE_SCRIPT);
  // Warm-up, not measured: the processes compile their hot paths and fill their pools.
  await configure(stack, readPlanner);
  const warm = stack.hosts.slice(0, Math.min(10, plain));
  prepareHosts(warm, 'warm-up');
  await waitForRuns(stack, await startRuns(stack, warm, 'bench warm-up'), ENDED);
  log(`warmed up with ${warm.length} runs`);
  let configured: string = readPlanner;
  for (const name of scenarios) {
    const wanted = name.startsWith('held') ? writePlanner : readPlanner;
    if (configured !== wanted) {
      await configure(stack, wanted);
      configured = wanted;
    }
    // A short pause between scenarios, so one's tail does not run into the next.
    await sleep(1000);
    log(`${name} …`);
    const result =
      name === 'held-serial' || name === 'held-burst'
        ? await held(stack, name)
        : name === '4k'
          ? await fourK(stack, stack.hosts[plain])
          : await reads(stack, name, stack.hosts.slice(0, Number(name.split('-')[1])));
    log(
      `${name}: ${result.steps} steps in ${result.wall_ms} ms, overhead p50 ${result.overhead_ms.p50} ms${result.anomalies.length ? `, ${result.anomalies.length} run(s) not as scripted` : ''}`,
    );
    results.push(result);
  }
  return results;
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
      scenarios: { type: 'string', default: DEFAULT_SCENARIOS.join(',') },
      'worker-concurrency': { type: 'string', default: '50' },
      out: { type: 'string', default: join(ROOT, 'bench/results/engine.json') },
      label: { type: 'string' },
      'node-flag': { type: 'string', multiple: true, default: [] },
      keep: { type: 'boolean', default: false },
      'model-delay': { type: 'string', default: '1.5' },
    },
  });
  const scenarios = values.scenarios.split(',').map((s) => s.trim()) as ScenarioName[];
  const unknown = scenarios.filter((s) => !ALL_SCENARIOS.includes(s));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(', ')}: one of ${ALL_SCENARIOS.join(', ')}`);
  }
  const onStack = scenarios.filter((s): s is RunScenario => s !== 'routine');
  const workers = Number(values.workers);
  // The warm-up runs on up to 10 hosts of 1280×800, whichever scenarios run.
  const plain = onStack.length > 0 ? Math.max(hostsFor(onStack), 1) : 0;
  const with4k = onStack.includes('4k');
  log(`${cpus().length} CPUs, load average ${loads().join(' ')}, node ${process.version}`);
  let results: ScenarioResult[] = [];
  if (onStack.length > 0) {
    const stack = await startProcessStack({
      hosts: plain + (with4k ? 1 : 0),
      workers,
      workerConcurrency: Number(values['worker-concurrency']),
      nodeFlags: values['node-flag'],
      keepDir: values.keep,
      log,
      makeSim: (i) => (i === plain ? new Sim4k('en') : new BenchSim('en')),
    });
    let interrupted = false;
    process.once('SIGINT', () => {
      interrupted = true;
      log('interrupted: stopping what the bench started');
      void stack.close().finally(() => process.exit(130));
    });
    try {
      results = await runScenarios(stack, onStack, plain);
    } finally {
      if (!interrupted) await stack.close();
    }
  }
  let routineResult: RoutineResult | null = null;
  if (scenarios.includes('routine')) {
    log('routine … (a stack of its own, with a fake model)');
    routineResult = await routine(log, Math.round(Number(values['model-delay']) * 1000));
  }
  report(results, routineResult);
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
          screen_hosts: plain,
          screen_hosts_4k: with4k ? 1 : 0,
          read_script_steps: READ_SCRIPT.steps.length,
        },
        goals: GOALS,
        scenarios: results,
        ...(routineResult ? { routine: routineResult } : {}),
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
