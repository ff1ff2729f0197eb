/**
 * npm run eval — how well agents do their tasks under Warden, and what governance cost them.
 *
 *   npm run eval -- --suite sim [--planner scripted,recorded] [--repeat N] [--task a,b] [--smoke]
 *     [--results DIR]   (default evals/results)
 *
 * Stands up Warden as the bench does (a throwaway database and Redis prefix, the API and the
 * worker as processes, sim screen hosts over HTTPS), runs every task of the suite with every
 * planner, writes the records under evals/results/<suite>/<UTC stamp>/ and prints the summary as
 * one JSON object on stdout (progress goes to stderr). Exits 1 when any write reached the screen
 * without an approval, or the eval itself failed. Negative controls, to see the table move:
 * `--policy approve-all|reject-all` (the approver decides wrongly), `--no-approval` (the agent's
 * writes need no approval). See docs/evals.md.
 */
import { parseArgs } from 'node:util';
import type { PolicyMode } from './lib/policy';
import { runRoutineSuite } from './lib/routine';
import { PLANNERS, runSuite, type PlannerKind } from './lib/runner';

const USAGE = `usage: npm run eval -- [options]
  --suite sim|x11          the suite of tasks (default sim)
  --planner LIST           planners, comma-separated: ${PLANNERS.join(', ')} (default scripted,recorded)
  --repeat N               runs of each task with each planner, 1 to 100 (default 1)
  --task a,b               only these tasks
  --smoke                  a short run of each task
  --policy MODE            how the approver decides: task (as the task says), approve-all, reject-all
  --no-approval            the agent's writes need no approval (a negative control)
  --routine                routine runs: the VA02 change by the model (one action a call and in
                           batches), saved as a script, replayed
  --model-delay SECONDS    the fake model answers this much later (default 0; a real model: 1.5)
  --results DIR            where the records go (default evals/results)
  --help                   this text
Prints the summary as one JSON object; exits 1 when a write reached the screen without an
approval or the eval failed. See docs/evals.md.`;

const OPTIONS = {
  suite: { type: 'string', default: 'sim' },
  planner: { type: 'string', default: 'scripted,recorded' },
  repeat: { type: 'string', default: '1' },
  task: { type: 'string' },
  smoke: { type: 'boolean', default: false },
  policy: { type: 'string', default: 'task' },
  'no-approval': { type: 'boolean', default: false },
  routine: { type: 'boolean', default: false },
  'model-delay': { type: 'string', default: '0' },
  results: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** A command line the eval cannot run: printed with the usage, exit 2. */
class UsageError extends Error {}

async function main(): Promise<number> {
  const parsed = (() => {
    try {
      return parseArgs({ options: OPTIONS });
    } catch (error) {
      // An unknown or malformed option: say which, and how the command is used.
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  })();
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const planners = values.planner.split(',').map((p) => p.trim()) as PlannerKind[];
  const unknown = planners.filter((p) => !PLANNERS.includes(p));
  if (unknown.length)
    throw new UsageError(`unknown planner ${unknown.join(', ')}: one of ${PLANNERS.join(', ')}`);
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100)
    throw new UsageError('--repeat is 1 to 100');
  if (!['task', 'approve-all', 'reject-all'].includes(values.policy)) {
    throw new UsageError('--policy is task, approve-all or reject-all');
  }
  const modelDelay = Number(values['model-delay']);
  if (!Number.isFinite(modelDelay) || modelDelay < 0 || modelDelay > 60) {
    throw new UsageError('--model-delay is 0 to 60 seconds');
  }
  const modelDelayMs = Math.round(modelDelay * 1000);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (values.routine) {
    const { summary, dir } = await runRoutineSuite({
      suite: values.suite,
      modelDelayMs,
      resultsRoot: values.results,
      log,
    });
    log(`results in ${dir}`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return summary.ok ? 0 : 1;
  }
  const { summary, dir } = await runSuite({
    suite: values.suite,
    planners,
    repeat,
    only: values.task?.split(',').map((t) => t.trim()),
    smoke: values.smoke,
    policy: values.policy as PolicyMode,
    noApproval: values['no-approval'],
    resultsRoot: values.results,
    modelDelayMs,
    log,
  });
  log(`results in ${dir}`);
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  return summary.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`eval: ${error.message}\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`eval failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
