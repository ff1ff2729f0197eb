import { randomUUID } from 'node:crypto';
import { StepEngine } from '../../src/computer-use/engine/step-engine.service';
import { RunLifecycle } from '../../src/computer-use/runs/run-lifecycle.service';
import { PlannersService } from '../../src/computer-use/planning/planners.service';
import { SettingsService } from '../../src/computer-use/settings/settings.service';
import { AGENT, type StageBed, startStageBed } from './stage-bed';

/**
 * The StepEngine's entry points over a real PostgreSQL, BullMQ and a fake screen host: which step
 * a job works on, the switches before a step opens, a held step left to a person, the next step
 * queued only while the run is at this one, and a run that ended while sending recorded but
 * never sent again.
 */
describe('StepEngine', () => {
  let bed: StageBed;
  let engine: StepEngine;

  beforeAll(async () => {
    bed = await startStageBed();
    await bed.configure();
    engine = bed.get(StepEngine);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
  });

  const stepsOf = (runId: string) =>
    bed.db.sql<{ n: number; phase: string; outcome: string | null }>(
      `SELECT n, phase, outcome FROM steps WHERE run_id = $1 ORDER BY n`,
      [runId],
    );

  it('ends the run before its step opens when the kill switch is engaged, and sends nothing', async () => {
    const { run } = await bed.run();
    const settings = bed.get(SettingsService);
    await settings.setKillSwitch(bed.admin, AGENT, { engaged: true, reason: 'a stage spec' });
    try {
      await engine.runStep(run.id, 1);
    } finally {
      await settings.setKillSwitch(bed.admin, AGENT, { engaged: false });
    }
    expect(await bed.runState(run.id)).toMatchObject({ status: 'stopped', end_reason: 'killed' });
    expect(await stepsOf(run.id)).toEqual([]);
    expect(bed.host.acted).toEqual([]);
  });

  it('ends the run at its step cap before another step opens', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'done' }] });
    await bed.db.sql(`UPDATE runs SET max_steps = 1 WHERE id = $1`, [run.id]);
    await engine.runStep(run.id, 2);
    expect(await bed.runState(run.id)).toMatchObject({ status: 'stopped', end_reason: 'step_cap' });
    expect(await stepsOf(run.id)).toHaveLength(1);
  });

  it('opens no next step while the current one is approved or sending', async () => {
    for (const phase of ['approved', 'sending'] as const) {
      const { run } = await bed.run({
        steps: [{ phase, owner: 'a-live-worker', leaseMs: 60_000 }],
      });
      await engine.runStep(run.id, 2);
      expect(await stepsOf(run.id)).toHaveLength(1);
      expect(await bed.runState(run.id)).toMatchObject({ status: 'running', step_count: 1 });
    }
    expect(bed.host.acted).toEqual([]);
  });

  it('leaves a held step to a person', async () => {
    const { run } = await bed.run({ status: 'awaiting_approval', steps: [{ phase: 'held' }] });
    await engine.runStep(run.id, 1);
    await engine.runApproved(run.id, 1);
    expect(await stepsOf(run.id)).toEqual([{ n: 1, phase: 'held', outcome: 'held' }]);
    expect(await bed.jobsOf(run.id)).toEqual([]);
    expect(bed.host.acted).toEqual([]);
  });

  it('does nothing for a step long past', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'done' }, { phase: 'done' }] });
    await engine.runStep(run.id, 1);
    expect(await bed.runState(run.id)).toMatchObject({ status: 'running', step_count: 2 });
    expect(await bed.jobsOf(run.id)).toEqual([]);
  });

  it('queues the next step after a step that is done, while the run is still at it', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'done' }] });
    await engine.runStep(run.id, 1);
    expect(await bed.jobsOf(run.id)).toEqual([`${run.id}.2`]);
  });

  it('records what became of the send of a run cancelled meanwhile, never sends it again, and queues nothing', async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending' }] });
    await bed.get(RunLifecycle).end(run.id, 'cancelled', 'cancelled by a person', 'operator');
    bed.host.lookups = [{ performed: true, result: { ok: true, ms: 4 } }];
    await engine.runStep(run.id, 1);
    expect(bed.host.looked).toEqual([steps[0].id]);
    expect(bed.host.acted).toEqual([]);
    expect(await stepsOf(run.id)).toEqual([{ n: 1, phase: 'done', outcome: 'sent' }]);
    expect(await bed.events(run.id, 'computer_use.write')).toHaveLength(1);
    expect(await bed.runState(run.id)).toMatchObject({
      status: 'stopped',
      end_reason: 'cancelled',
    });
    expect(await bed.jobsOf(run.id)).toEqual([]);
  });

  it('does nothing for a run that ended with no step sending', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    await bed.get(RunLifecycle).end(run.id, 'cancelled', 'cancelled by a person', 'operator');
    await engine.runStep(run.id, 1);
    await engine.runApproved(run.id, 1);
    expect(await stepsOf(run.id)).toEqual([{ n: 1, phase: 'done', outcome: 'ended' }]);
    expect(bed.host.looked).toEqual([]);
    expect(await bed.jobsOf(run.id)).toEqual([]);
  });

  it('carries out only an approved or sending step for an approved job', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    await engine.runApproved(run.id, 1);
    await engine.runApproved(run.id, 2);
    expect(await stepsOf(run.id)).toEqual([{ n: 1, phase: 'planning', outcome: null }]);
    expect(bed.host.acted).toEqual([]);
  });

  describe('a whole step, planned by a script', () => {
    /** A run of the agent planned by a script of these actions, one a step. */
    async function scripted(...actions: Array<Record<string, unknown>>) {
      const planner = await bed
        .get(PlannersService)
        .create(bed.admin, `spec-${randomUUID().slice(0, 8)}`, {
          steps: actions.map((action) => ({ action })),
        });
      await bed.configure({ planner: planner.id });
      return (await bed.run()).run;
    }

    it('holds a write for a person and sends nothing', async () => {
      const run = await scripted({ action: 'key', key: 'Enter' });
      await engine.runStep(run.id, 1);
      expect(await stepsOf(run.id)).toEqual([{ n: 1, phase: 'held', outcome: 'held' }]);
      expect((await bed.runState(run.id)).status).toBe('awaiting_approval');
      const [approval] = await bed.db.sql<{ status: string }>(
        `SELECT status FROM approvals WHERE run_id = $1`,
        [run.id],
      );
      expect(approval.status).toBe('pending');
      expect(bed.host.acted).toEqual([]);
      expect(await bed.jobsOf(run.id)).toEqual([]);
    });

    it("sends a read once under the step's key, then queues the next step", async () => {
      const run = await scripted({ action: 'scroll', x: 10, y: 10, direction: 'down', amount: 1 });
      await engine.runStep(run.id, 1);
      const [step] = await bed.db.sql<{ id: string; phase: string; outcome: string }>(
        `SELECT id, phase, outcome FROM steps WHERE run_id = $1`,
        [run.id],
      );
      expect(step).toMatchObject({ phase: 'done', outcome: 'sent' });
      expect(bed.host.acted.map((a) => [a.action.action, a.key])).toEqual([['scroll', step.id]]);
      expect(await bed.jobsOf(run.id)).toEqual([`${run.id}.2`]);
    });

    it('ends the run where the planner says done', async () => {
      const run = await scripted({ action: 'done', summary: 'all saved' });
      await engine.runStep(run.id, 1);
      expect(await bed.runState(run.id)).toMatchObject({ status: 'completed', end_reason: 'done' });
      expect(await stepsOf(run.id)).toEqual([{ n: 1, phase: 'done', outcome: 'ended' }]);
      expect(bed.host.acted).toEqual([]);
    });
  });
});
