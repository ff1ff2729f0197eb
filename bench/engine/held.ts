/**
 * held-serial and held-burst: 50 runs each holding one write (a click on Save); another person
 * approves each, then the operator resumes them one at a time, each run ending before the next
 * resume (serial), or all 50 at once (burst). Resume-to-action: from sending `POST …/resume` to
 * the sim performing the action, both by this process's clock.
 */
import type { ProcessStack, StackHost } from '../../test/support/process-stack';
import { approveAll, prepareHosts, resume, startRuns } from './calls';
import { cpuPerStep, cpuSnapshot } from './cpu';
import { loads, percentiles } from './figures';
import { ENDED, runsOf, stepsOf, waitForRuns } from './records';
import { type ScenarioResult, summarize } from './result';
import { stepsPerRun, WRITE_SCRIPT } from './scripts';

export const HELD_RUNS = 50;

export async function held(
  stack: ProcessStack,
  scenario: 'held-serial' | 'held-burst',
): Promise<ScenarioResult> {
  const hosts = stack.hosts.slice(0, HELD_RUNS);
  prepareHosts(hosts, scenario);
  const before = loads();
  const cpuBefore = await cpuSnapshot(stack);
  const started = Date.now();
  const ids = await startRuns(stack, hosts, `bench ${scenario}: save`);
  await waitForRuns(stack, ids, ['awaiting_approval'], 180_000);
  const waiting = new Set(
    (await runsOf(stack, ids)).filter((r) => r.status === 'awaiting_approval').map((r) => r.id),
  );
  await approveAll(stack, waiting);

  const resumeToAction: number[] = [];
  const resumeAnswer: number[] = [];
  const problems: string[] = [];
  const resumeOne = async (i: number) => {
    const sim = hosts[i].sim;
    const mark = sim.performedAt.length;
    const sent = performance.now();
    await resume(stack, ids[i]);
    resumeAnswer.push(performance.now() - sent);
    const performed = sim.performedAt[mark];
    if (performed === undefined) problems.push(`run ${ids[i]}: no action reached the host`);
    else resumeToAction.push(performed - sent);
  };
  const resumable = ids.map((id, i) => ({ id, i })).filter(({ id }) => waiting.has(id));
  const cpuResumes = await cpuSnapshot(stack);
  if (scenario === 'held-burst') {
    await Promise.all(resumable.map(({ i }) => resumeOne(i)));
  } else {
    for (const { id, i } of resumable) {
      await resumeOne(i);
      await waitForRuns(stack, [id], ENDED);
    }
  }
  const cpuResumed = await cpuSnapshot(stack);
  await waitForRuns(stack, ids, ENDED);
  const cpuAfter = await cpuSnapshot(stack);
  const after = loads();

  const runs = await runsOf(stack, ids);
  problems.push(...writesOnce(hosts, ids, runs));
  const steps = await stepsOf(stack, ids);
  const result = summarize({
    scenario,
    runs,
    steps,
    started,
    stepsPerRun: stepsPerRun(WRITE_SCRIPT),
    loads: { before, after },
    cpu: { before: cpuBefore, after: cpuAfter },
    // The held step's own time is mostly the approver's: left out.
    skipE2e: (s) => s.outcome === 'sent_after_approval',
  });
  return {
    ...result,
    resume_to_action_ms: percentiles(resumeToAction),
    resume_answer_ms: percentiles(resumeAnswer),
    cpu_ms_per_resume: cpuPerStep(cpuResumes, cpuResumed, resumable.length),
    anomalies: [...result.anomalies, ...problems],
  };
}

/**
 * The write reached each host at most once (or the bench stops); a run that completed sent it
 * exactly once (or that run is listed).
 */
function writesOnce(
  hosts: readonly StackHost[],
  ids: string[],
  runs: Array<{ id: string; status: string }>,
): string[] {
  const problems: string[] = [];
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
  return problems;
}
