import { RunEnds } from '../../src/computer-use/engine/run-ends';
import { StepLease } from '../../src/computer-use/engine/step-lease.service';
import { startTiming } from '../../src/computer-use/engine/step-timing';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { SecretGrants } from '../../src/secrets/secret-grants.service';
import { until } from '../support/until';
import { type StageBed, startStageBed, TENANT } from './stage-bed';

/**
 * StepLease over a real PostgreSQL: a step is opened once, worked on by one worker at a time (a
 * live lease held elsewhere is not taken, and one process never works on a step twice), given
 * back after the work, and the run ended here where the work says so or fails too often.
 */
describe('StepLease', () => {
  let bed: StageBed;
  let lease: StepLease;

  beforeAll(async () => {
    bed = await startStageBed();
    await bed.configure();
    lease = bed.get(StepLease);
  });

  afterAll(async () => {
    await bed?.close();
  });

  const row = async (runId: string, n = 1) =>
    (
      await bed.db.sql<{
        phase: string;
        lease_owner: string | null;
        failures: number;
        timings: unknown[] | null;
      }>(`SELECT phase, lease_owner, failures, timings FROM steps WHERE run_id = $1 AND n = $2`, [
        runId,
        n,
      ])
    )[0];
  /** Works on step `n` with `work`, as a job does; what it threw, if anything. */
  const withStep = (run: Run, n: number, work: (step: Step) => Promise<void>) =>
    lease
      .withStep(run, n, startTiming('step'), null, bed.agent, (_ctx, step) => work(step))
      .then(
        () => undefined,
        (error: unknown) => error,
      );

  it('opens a step once, leased to this worker, however many try at once', async () => {
    const { run } = await bed.run();
    const opened = await Promise.all([lease.open(run, 1), lease.open(run, 1), lease.open(run, 1)]);
    expect(opened.filter((s) => s !== null)).toHaveLength(1);
    expect(await row(run.id)).toMatchObject({ phase: 'observing', lease_owner: lease.workerId });
    expect((await bed.runState(run.id)).step_count).toBe(1);
  });

  it('opens no step while an earlier one is unfinished', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'held' }] });
    expect(await lease.open(run, 2)).toBe(null);
    expect((await bed.runState(run.id)).step_count).toBe(1);
  });

  it('opens no step while an earlier one is done but still leased, and opens it once the lease lapsed', async () => {
    // Its job is still settling the screen or reading the write's receipt.
    const { run } = await bed.run({
      steps: [{ phase: 'done', owner: 'another-worker', leaseMs: 60_000 }],
    });
    expect(await lease.open(run, 2)).toBe(null);
    expect((await bed.runState(run.id)).step_count).toBe(1);
    await bed.db.sql(
      `UPDATE steps SET lease_until = now() - interval '1 second' WHERE run_id = $1`,
      [run.id],
    );
    expect(await lease.open(run, 2)).not.toBe(null);
    expect((await bed.runState(run.id)).step_count).toBe(2);
  });

  it('queues the next step only after the lease is given back', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    let leasedWhenQueued: string | null | undefined;
    await lease.withStep(run, 1, startTiming('step'), null, bed.agent, (ctx) => {
      ctx.queueNext = async () => {
        leasedWhenQueued = (await row(run.id)).lease_owner;
      };
      return Promise.resolve();
    });
    expect(leasedWhenQueued).toBe(null);
  });

  it('does not take a step whose lease another live worker holds', async () => {
    const { run } = await bed.run({
      steps: [{ phase: 'planning', owner: 'another-worker', leaseMs: 60_000 }],
    });
    const work = jest.fn(() => Promise.resolve());
    expect(await withStep(run, 1, work)).toBeUndefined();
    expect(work).not.toHaveBeenCalled();
    expect(await row(run.id)).toMatchObject({ lease_owner: 'another-worker', timings: null });
  });

  it('takes over a lease that lapsed, works, and gives it back with the timings', async () => {
    const { run } = await bed.run({
      steps: [{ phase: 'planning', owner: 'a-dead-worker', leaseMs: -1000 }],
    });
    let owner: string | null = null;
    await withStep(run, 1, async (step) => {
      owner = (await row(run.id)).lease_owner;
      expect(step.phase).toBe('planning');
    });
    expect(owner).toBe(lease.workerId);
    const after = await row(run.id);
    expect(after.lease_owner).toBe(null);
    expect(after.timings).toHaveLength(1);
  });

  it('works on a step once in this process, even when its lease lapsed during the work', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const first = withStep(run, 1, async () => {
      calls++;
      await held;
    });
    await until('the first job works', () => Promise.resolve(calls === 1));
    // The event loop stood still past the lease; the reconciler queued the step again.
    await bed.db.sql(
      `UPDATE steps SET lease_until = now() - interval '1 second' WHERE run_id = $1`,
      [run.id],
    );
    await withStep(run, 1, () => {
      calls++;
      return Promise.resolve();
    });
    release();
    await first;
    expect(calls).toBe(1);
  });

  it('ends the run as the work says', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    const thrown = await withStep(run, 1, () =>
      Promise.reject(new RunEnds('done', 'finished', { outcome: 'ended' })),
    );
    expect(thrown).toBeUndefined();
    expect(await bed.runState(run.id)).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect((await row(run.id)).phase).toBe('done');
  });

  it('throws an unexpected error again for a retry, counting it, until the tenth ends the run', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    const boom = new Error('the planner process crashed');
    expect(await withStep(run, 1, () => Promise.reject(boom))).toBe(boom);
    expect(await row(run.id)).toMatchObject({ phase: 'planning', failures: 1 });
    expect((await bed.runState(run.id)).status).toBe('running');
    await bed.db.sql(`UPDATE steps SET failures = 9 WHERE run_id = $1`, [run.id]);
    expect(await withStep(run, 1, () => Promise.reject(boom))).toBeUndefined();
    expect(await bed.runState(run.id)).toMatchObject({
      status: 'failed',
      end_reason: 'model_error',
    });
  });

  it('audits a sending write that failed too often as unknown, with the approval spent on it', async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending' }] });
    const approval = await bed.approval(run, steps[0], { status: 'approved' });
    await bed.db.sql(`UPDATE approvals SET status = 'spent', spent_by = 'resumer' WHERE id = $1`, [
      approval.id,
    ]);
    await bed.db.sql(`UPDATE steps SET failures = 9 WHERE run_id = $1`, [run.id]);
    await withStep(run, 1, () => Promise.reject(new Error('lost')));
    expect(await bed.runState(run.id)).toMatchObject({
      status: 'failed',
      end_reason: 'outcome_unknown',
    });
    const [event] = await bed.events(run.id, 'computer_use.write.unknown');
    expect(event.details).toMatchObject({ approval_id: approval.id, resumed_by: 'resumer' });
    expect(bed.host.acted).toEqual([]);
  });

  it("ends the run not_granted, before any work, once the host's token is no longer granted", async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    const grants = bed.get(SecretGrants);
    await grants.revoke(TENANT, bed.agent.screen_token_env, bed.agent.screen_url, 'admin');
    try {
      const work = jest.fn(() => Promise.resolve());
      expect(await withStep(run, 1, work)).toBeUndefined();
      expect(work).not.toHaveBeenCalled();
      expect(await bed.runState(run.id)).toMatchObject({
        status: 'stopped',
        end_reason: 'not_granted',
      });
    } finally {
      await grants.grant(TENANT, bed.agent.screen_token_env, bed.agent.screen_url, 'admin');
    }
  });

  // Last: it shuts the lease down (its pauses end at once from then on).
  it('ends the job without its work after the release, which shutdown waits for', async () => {
    const { run } = await bed.run({ steps: [{ phase: 'planning' }] });
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let ownerThen: string | null | undefined;
    let done = false;
    await lease.withStep(run, 1, startTiming('step'), null, bed.agent, (ctx) => {
      (ctx.afterRelease ??= []).push(async () => {
        ownerThen = (await row(run.id)).lease_owner;
        await held; // a held write's samples, seconds of them
        done = true;
      });
      return Promise.resolve();
    });
    // The job has ended (its slot is free for other jobs) while its work after the release goes on.
    expect(done).toBe(false);
    await until('the work after the release to start', () => ownerThen !== undefined);
    expect(ownerThen).toBe(null);
    let closed = false;
    const closing = lease.onModuleDestroy().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve)); // whatever was ready has run
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(done).toBe(true);
  });
});
