import { DataSource, type QueryRunner } from 'typeorm';
import { ApprovalExpiry } from '../../src/computer-use/engine/approval-expiry.service';
import { RunLifecycle } from '../../src/computer-use/runs/run-lifecycle.service';
import { RunResumeRepository } from '../../src/computer-use/runs/run-resume.repository';
import { RunsRepository } from '../../src/computer-use/runs/runs.repository';
import { StepQueue } from '../../src/queue/step-queue';
import { until } from '../support/until';
import { type StageBed, startStageBed } from './stage-bed';

/**
 * ApprovalExpiry over a real PostgreSQL: an approval not resumed in time ends the run
 * `approval_expired`, and an expiry and a resume of the same approval never both win, whichever
 * takes the run's lock first.
 */
describe('ApprovalExpiry', () => {
  let bed: StageBed;
  let expiry: ApprovalExpiry;

  beforeAll(async () => {
    bed = await startStageBed();
    expiry = bed.get(ApprovalExpiry);
  });

  afterAll(async () => {
    await bed?.close();
  });

  /** A run awaiting approval of its held step 1, the approval in `status`, expired a second ago. */
  async function held(status: 'pending' | 'approved', expiresAt = new Date(Date.now() - 1000)) {
    const { run, steps } = await bed.run({
      status: 'awaiting_approval',
      steps: [{ phase: 'held' }],
    });
    const approval = await bed.approval(run, steps[0], { status, expiresAt });
    return { run, step: steps[0], approval };
  }

  const state = async (runId: string) =>
    (
      await bed.db.sql<{
        status: string;
        end_reason: string | null;
        phase: string;
        error: string | null;
        approval: string;
      }>(
        `SELECT r.status, r.end_reason, s.phase, s.error, a.status AS approval
           FROM runs r JOIN steps s ON s.run_id = r.id JOIN approvals a ON a.step_id = s.id
          WHERE r.id = $1`,
        [runId],
      )
    )[0];

  /** Sessions of this database waiting for a lock: the statement a spec holds back. */
  const waiting = async () =>
    Number(
      (
        await bed.db.sql<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      )[0].n,
    );

  /** A transaction of the spec's own, open until the spec ends it. */
  async function transaction(): Promise<QueryRunner> {
    const runner = bed.get(DataSource).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    return runner;
  }

  it('ends the run approval_expired when the time is up, and sends nothing', async () => {
    const { run, approval } = await held('pending');
    await expiry.expire(approval.id);
    expect(await state(run.id)).toEqual({
      status: 'stopped',
      end_reason: 'approval_expired',
      phase: 'done',
      error: 'the approval expired before anyone resumed the run',
      approval: 'expired',
    });
    expect(bed.host.acted).toEqual([]);
    const [end] = await bed.events(run.id, 'computer_use.end');
    expect(end).toMatchObject({ step: 1, details: { end_reason: 'approval_expired' } });
  });

  it('arms itself again for an approval not yet due, and changes nothing', async () => {
    const due = new Date(Date.now() + 3_600_000);
    const { run, approval } = await held('pending', due);
    await expiry.expire(approval.id);
    expect(await state(run.id)).toMatchObject({ status: 'awaiting_approval', phase: 'held' });
    const job = await bed.get(StepQueue).queue.getJob(`expire.${approval.id}`);
    expect(job?.data).toEqual({ approvalId: approval.id });
    expect(await job?.isDelayed()).toBe(true);
  });

  it('leaves an approval that was rejected (closed) alone', async () => {
    const { run, approval } = await held('pending');
    await bed.db.sql(`UPDATE approvals SET status = 'rejected' WHERE id = $1`, [approval.id]);
    await expiry.expire(approval.id);
    expect(await state(run.id)).toMatchObject({ status: 'awaiting_approval', phase: 'held' });
  });

  it('has nothing to do once a resume spent the approval first, though it read it open', async () => {
    const { run, approval } = await held('approved');
    // The resume (its checks passed a moment ago) holds the run's lock and has spent the approval.
    const resume = await transaction();
    try {
      expect(
        await bed.get(RunResumeRepository).lockHeld(resume.manager, run.tenant, run.id),
      ).not.toBe(null);
      const resumed = await bed
        .get(RunLifecycle)
        .resume(resume.manager, run.id, approval.id, 'operator');
      expect(resumed).toEqual({ spent: true, stepApproved: true, running: true });
      // The expiry reads the approval still approved, then waits for the run's lock.
      const expired = expiry.expire(approval.id);
      await until('the expiry waits for the run', async () => (await waiting()) === 1 || null);
      await resume.commitTransaction();
      await expired;
    } finally {
      await resume.release();
    }
    expect(await state(run.id)).toEqual({
      status: 'running',
      end_reason: null,
      phase: 'approved',
      error: null,
      approval: 'spent',
    });
    expect(await bed.events(run.id, 'computer_use.end')).toEqual([]);
  });

  it('leaves a resume nothing to spend once the expiry ended the run first', async () => {
    const { run, approval } = await held('approved');
    // Someone holds the run's row; the expiry queues for it first, the resume after it.
    const holder = await transaction();
    const resume = await transaction();
    let resumed: Awaited<ReturnType<RunLifecycle['resume']>> | undefined;
    try {
      await bed.get(RunsRepository).lock(holder.manager, run.id);
      const expired = expiry.expire(approval.id);
      await until('the expiry waits for the run', async () => (await waiting()) === 1 || null);
      const resuming = (async () => {
        const locked = await bed
          .get(RunResumeRepository)
          .lockHeld(resume.manager, run.tenant, run.id);
        resumed = await bed
          .get(RunLifecycle)
          .resume(resume.manager, run.id, approval.id, 'operator');
        return locked;
      })();
      await until('the resume waits behind it', async () => (await waiting()) === 2 || null);
      await holder.commitTransaction();
      await expired;
      const locked = await resuming;
      await resume.commitTransaction();
      expect(locked?.status).toBe('stopped');
    } finally {
      await holder.release();
      await resume.release();
    }
    expect(resumed).toEqual({ spent: false, stepApproved: false, running: false });
    expect(await state(run.id)).toMatchObject({
      status: 'stopped',
      end_reason: 'approval_expired',
      phase: 'done',
      approval: 'expired',
    });
  });
});
