import type { Job } from 'bullmq';
import { ApprovalsRepository } from '../../src/computer-use/approvals/approvals.repository';
import { Reconciler } from '../../src/computer-use/engine/reconciler.service';
import { PlannerWorkRepository } from '../../src/computer-use/remote/planner-work.repository';
import { RunLifecycle } from '../../src/computer-use/runs/run-lifecycle.service';
import { RunsRepository } from '../../src/computer-use/runs/runs.repository';
import { DeliveriesRepository } from '../../src/notifications/deliveries.repository';
import { NotifyQueue } from '../../src/queue/notify-queue';
import { JOB, StepQueue } from '../../src/queue/step-queue';
import { type StageBed, startStageBed } from './stage-bed';

/**
 * The Reconciler over a real PostgreSQL and BullMQ on the real Redis: PostgreSQL says what should
 * be moving, and each reconcile puts back the job for it (once, whatever the number of
 * reconciles), leaving alone a step a live worker holds.
 */
describe('Reconciler', () => {
  let bed: StageBed;
  let reconciler: Reconciler;
  let queue: StepQueue;

  beforeAll(async () => {
    bed = await startStageBed();
    await bed.configure();
    queue = bed.get(StepQueue);
    // The real reconciler, called by the spec: its timer is not started.
    reconciler = new Reconciler(
      bed.config,
      bed.get(RunsRepository),
      bed.get(ApprovalsRepository),
      bed.get(RunLifecycle),
      queue,
      bed.get(DeliveriesRepository),
      bed.get(NotifyQueue),
      bed.get(PlannerWorkRepository),
    );
  });

  afterAll(async () => {
    await bed?.close();
  });

  const job = (id: string): Promise<Job | undefined> => queue.queue.getJob(id);
  const leaseUntil = async (runId: string) =>
    (
      await bed.db.sql<{ lease_until: Date }>(
        `SELECT lease_until FROM steps WHERE run_id = $1 AND n = 1`,
        [runId],
      )
    )[0].lease_until;

  it('queues the step of a running run that nobody holds, once however often it reconciles', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    await reconciler.reconcile();
    await reconciler.reconcile();
    expect(await bed.jobsOf(run.id)).toEqual([`${run.id}.1`]);
    expect((await job(`${run.id}.1`))?.name).toBe(JOB.step);
  });

  it('leaves alone a step that a live worker holds', async () => {
    const { run } = await bed.run({
      steps: [{ phase: 'sending', owner: 'a-live-worker', leaseMs: 60_000 }],
    });
    await reconciler.reconcile();
    expect(await bed.jobsOf(run.id)).toEqual([]);
  });

  it('queues a step whose lease lapsed under a job id of its own', async () => {
    const { run } = await bed.run({
      steps: [{ phase: 'sending', owner: 'a-dead-worker', leaseMs: -1000 }],
    });
    const lapsed = await leaseUntil(run.id);
    await reconciler.reconcile();
    expect(await bed.jobsOf(run.id)).toEqual([`${run.id}.1.after.${lapsed.getTime()}`]);
  });

  it('queues the approved job of an approved step, and the next step after a done one', async () => {
    const approved = await bed.run({ steps: [{ phase: 'approved' }] });
    const done = await bed.run({ steps: [{ phase: 'done' }] });
    const fresh = await bed.run();
    await reconciler.reconcile();
    expect(await bed.jobsOf(approved.run.id)).toEqual([`${approved.run.id}.1.approved`]);
    expect((await job(`${approved.run.id}.1.approved`))?.name).toBe(JOB.approved);
    expect(await bed.jobsOf(done.run.id)).toEqual([`${done.run.id}.2`]);
    expect(await bed.jobsOf(fresh.run.id)).toEqual([`${fresh.run.id}.1`]);
  });

  it('queues the step of a run that ended while it was sending, for its outcome', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'sending' }] });
    await bed.get(RunLifecycle).end(run.id, 'cancelled', 'cancelled by a person', 'operator');
    await reconciler.reconcile();
    expect(await bed.jobsOf(run.id)).toEqual([`${run.id}.1`]);
  });

  it('queues nothing for a run waiting for a person, and arms its approval to expire when due', async () => {
    const { run, steps } = await bed.run({
      status: 'awaiting_approval',
      steps: [{ phase: 'held' }],
    });
    const approval = await bed.approval(run, steps[0], {
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await reconciler.reconcile();
    expect(await bed.jobsOf(run.id)).toEqual([]);
    const expire = await job(`expire.${approval.id}`);
    expect(expire?.data).toEqual({ approvalId: approval.id });
    expect(await expire?.isDelayed()).toBe(true);
  });

  it("gives a step waiting for a remote planner's worker no job, but a check that is overdue", async () => {
    const waitsOn = async (nextCheckAt: Date) => {
      const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
      const [work] = await bed.db.sql<{ id: string }>(
        `INSERT INTO planner_work (tenant, family, planner, run_id, step, status, input, screen,
                                   deadline_at, next_check_at)
         VALUES ($1, 'spec-family', 'spec-family-1-normal', $2, 1, 'waiting', '{}', '{}',
                 now() + interval '1 hour', $3)
         RETURNING id`,
        [run.tenant, run.id, nextCheckAt],
      );
      return { run, work };
    };
    const due = await waitsOn(new Date(Date.now() + 3_600_000));
    const overdue = await waitsOn(new Date(Date.now() - 60_000));
    await reconciler.reconcile();
    expect(await bed.jobsOf(due.run.id)).toEqual([]);
    const late = await bed.jobsOf(overdue.run.id);
    expect(late).toHaveLength(1);
    expect(late[0]).toMatch(
      new RegExp(`^${overdue.run.id}\\.1\\.remote\\.${overdue.work.id}\\.late\\.`),
    );
  });

  it('starts a queued run whose screen host is free', async () => {
    const { run } = await bed.run({ status: 'queued' });
    await reconciler.reconcile();
    const [row] = await bed.db.sql<{ status: string }>(`SELECT status FROM runs WHERE id = $1`, [
      run.id,
    ]);
    expect(row.status).toBe('running');
    expect(await bed.jobsOf(run.id)).toEqual([`${run.id}.1`]);
  });
});
