/**
 * npm run bench:navigator — the navigator (docs/models.md) on the sim's first screen (SAP Easy
 * Access, its outline as the sim serves it): for five tasks, the energy of the right control and
 * of the best other one, whether its first press is the right control, and its decision time per
 * step (a run's eight presses on that screen, the word vectors already loaded), after the time
 * the first step of a process takes to load them.
 *
 * `--json` prints the numbers as one JSON object as well.
 */
import { cpus } from 'node:os';
import { SimApp } from '../screen-host/src/backends/sim/sim-app';
import type { ObservedScreen, PlanningContext } from '../src/computer-use/planner-contract/planner';
import {
  choose,
  NAVIGATOR_MAX_PRESSES,
  NavigatorPlanner,
} from '../src/computer-use/planning/navigator/navigator-planner';
import { pressableControls } from '../src/computer-use/planning/navigator/controls';
import { shippedWordVectors } from '../src/computer-use/planning/navigator/word-vectors';
import { loadRules } from '../src/computer-use/actions';

const TASKS: Array<{ task: string; right: string }> = [
  { task: 'open the display of a sales order', right: 'VA03 - Display Sales Order' },
  { task: 'change a sales order', right: 'VA02 - Change Sales Order' },
  { task: 'post a document to the general ledger', right: 'FB50 - Enter G/L Account Document' },
  { task: 'change my password', right: 'PWD - Change Password' },
  { task: 'print what is on the screen', right: 'Print' },
];
const RUNS = 50;

function context(screen: ObservedScreen, goal: string, state: unknown): PlanningContext {
  return {
    tenant: 'bench',
    runId: 'bench',
    agent: 'bench',
    goal,
    system: 'SAP GUI (sim)',
    screenTokenEnv: null,
    step: 1,
    screen,
    history: [],
    state,
    look: () => Promise.reject(new Error('not used')),
    signal: new AbortController().signal,
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main(): Promise<void> {
  const app = new SimApp('en');
  const outline = app.outline();
  const screen: ObservedScreen = {
    sha256: '0'.repeat(64),
    pixelSha256: '0'.repeat(64),
    width: 1280,
    height: 800,
    png: Buffer.alloc(0),
    outline,
  };
  const rules = loadRules();
  const planner = new NavigatorPlanner(shippedWordVectors, rules);

  // The first step of a process reads and indexes the package's file.
  const coldStarted = performance.now();
  await planner.plan(context(screen, TASKS[0].task, null));
  const coldMs = performance.now() - coldStarted;
  const rssMb = Math.round(process.memoryUsage().rss / 1e6);

  const vectors = await shippedWordVectors();
  const controls = pressableControls(outline, screen, rules);
  const rows = [];
  for (const { task, right } of TASKS) {
    const choice = choose(task, controls, new Set(), vectors);
    const rightAt = choice.ranked.findIndex((r) => r.name === right);
    const other = choice.ranked.find((r) => r.name !== right)!;
    const first = choice.kind === 'press' ? choice.control.name : null;
    // A run's presses on this screen, one plan() each, timed.
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let state: unknown = null;
      for (let step = 0; step < NAVIGATOR_MAX_PRESSES; step++) {
        const t = performance.now();
        const result = await planner.plan(context(screen, task, state));
        times.push(performance.now() - t);
        state = result.state;
      }
    }
    times.sort((a, b) => a - b);
    rows.push({
      task,
      right,
      right_energy: choice.ranked[rightAt]?.energy ?? null,
      right_rank: rightAt + 1,
      next: other.name,
      next_energy: other.energy,
      first_press: first,
      right_first: first === right,
      step_ms_p50: quantile(times, 0.5),
      step_ms_p95: quantile(times, 0.95),
      steps_timed: times.length,
    });
  }

  console.log(
    `navigator on the sim's first screen (${controls.length} pressable controls), ` +
      `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
  );
  console.log(
    `first step of a process (loads the word vectors): ${coldMs.toFixed(0)} ms, rss ${rssMb} MB`,
  );
  console.log(
    '| task | right control | its energy (rank) | next control | its energy | first press right | step p50 / p95 ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.task} | ${r.right} | ${r.right_energy?.toFixed(3)} (${r.right_rank}) | ${r.next} | ` +
        `${r.next_energy.toFixed(3)} | ${r.right_first ? 'yes' : `no: ${r.first_press}`} | ` +
        `${r.step_ms_p50.toFixed(2)} / ${r.step_ms_p95.toFixed(2)} |`,
    );
  }
  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify({ cold_ms: coldMs, rss_mb: rssMb, controls: controls.length, rows }),
    );
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
