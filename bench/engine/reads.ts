/**
 * reads-1, reads-10, reads-50: runs of the 10-step read-only script on 1, 10 and 50 hosts at once.
 * Every step must be classified `read`, or the bench stops: the script is meant to read only.
 */
import type { ProcessStack, StackHost } from '../../test/support/process-stack';
import { prepareHosts, startRuns } from './calls';
import { cpuSnapshot } from './cpu';
import { loads } from './figures';
import { ENDED, onlyReads, runsOf, stepsOf, waitForRuns } from './records';
import { type RunScenario, type ScenarioResult, summarize } from './result';
import { READ_SCRIPT, stepsPerRun } from './scripts';

/** Runs the read script once on each of `hosts`, all at once, and measures them. */
export async function reads(
  stack: ProcessStack,
  scenario: RunScenario,
  hosts: readonly StackHost[],
): Promise<ScenarioResult> {
  return measureReads(stack, scenario, async () => {
    prepareHosts(hosts, scenario);
    const ids = await startRuns(stack, hosts, `bench ${scenario}: read the menu`);
    await waitForRuns(stack, ids, ENDED);
    return ids;
  });
}

/**
 * The figures of the read-script runs that `go` starts and waits for (it answers their ids):
 * load and CPU before and after, the runs and steps they left, every step a read.
 */
export async function measureReads(
  stack: ProcessStack,
  scenario: RunScenario,
  go: () => Promise<string[]>,
): Promise<ScenarioResult> {
  const before = loads();
  const cpuBefore = await cpuSnapshot(stack);
  const started = Date.now();
  const ids = await go();
  const cpuAfter = await cpuSnapshot(stack);
  const after = loads();
  const runs = await runsOf(stack, ids);
  const steps = await stepsOf(stack, ids);
  onlyReads(steps);
  return summarize({
    scenario,
    runs,
    steps,
    started,
    stepsPerRun: stepsPerRun(READ_SCRIPT),
    loads: { before, after },
    cpu: { before: cpuBefore, after: cpuAfter },
  });
}
