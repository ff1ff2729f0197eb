import { StepProcessor } from '../../src/computer-use/engine/step.processor';
import { StepQueue } from '../../src/queue/step-queue';
import { until } from '../support/until';
import { type StageBed, startStageBed } from './stage-bed';

/**
 * The StepProcessor as BullMQ runs it, over a real PostgreSQL and Redis: each kind of job reaches
 * the stage that holds its rules (a step and an approved write the engine, an expiry
 * ApprovalExpiry, a reminder and an escalation ApprovalTimers), at the configured concurrency.
 */
describe('StepProcessor', () => {
  let bed: StageBed;
  let queue: StepQueue;

  beforeAll(async () => {
    bed = await startStageBed({ processor: true, env: { WORKER_CONCURRENCY: '7' } });
    await bed.configure();
    queue = bed.get(StepQueue);
  });

  afterAll(async () => {
    await bed?.close();
  });

  const ended = (id: string) =>
    until('the run ends', async () => {
      const row = await bed.runState(id);
      return row.status === 'running' || row.status === 'awaiting_approval' ? null : row;
    });

  it('takes jobs at the configured concurrency', () => {
    expect(bed.get(StepProcessor).worker.concurrency).toBe(7);
  });

  it('hands a step job to the engine', async () => {
    // A run at its step cap: the engine's first check ends it before any step opens.
    const { run } = await bed.run();
    await bed.db.sql(`UPDATE runs SET max_steps = 0 WHERE id = $1`, [run.id]);
    await queue.step(run.id, 1);
    expect(await ended(run.id)).toMatchObject({ status: 'stopped', end_reason: 'step_cap' });
    expect(bed.host.acted).toEqual([]);
  });

  it('hands an approved job to the engine', async () => {
    // A run cancelled while its approved write was sending; the host performed it: recorded, once.
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending' }] });
    await bed.db.sql(`UPDATE runs SET status = 'stopped', end_reason = 'cancelled' WHERE id = $1`, [
      run.id,
    ]);
    bed.host.lookups = [{ performed: true, result: { ok: true, ms: 2 } }];
    await queue.approved(run.id, 1);
    await until('the write is recorded', async () => {
      const [step] = await bed.db.sql<{ phase: string }>(`SELECT phase FROM steps WHERE id = $1`, [
        steps[0].id,
      ]);
      return step.phase === 'done';
    });
    expect(bed.host.looked).toContain(steps[0].id);
    expect(bed.host.acted).toEqual([]);
    expect(await bed.events(run.id, 'computer_use.write')).toHaveLength(1);
  });

  it('never opens a step for an approved job', async () => {
    const { run } = await bed.run();
    const id = await queue.approved(run.id, 1);
    await until('the job is done', async () => (await queue.queue.getJob(id)) === undefined);
    expect(await bed.db.sql(`SELECT id FROM steps WHERE run_id = $1`, [run.id])).toEqual([]);
  });

  it('hands an expiry to ApprovalExpiry', async () => {
    const { run, steps } = await bed.run({
      status: 'awaiting_approval',
      steps: [{ phase: 'held' }],
    });
    const approval = await bed.approval(run, steps[0], { expiresAt: new Date(Date.now() - 1000) });
    await queue.expire(approval.id, approval.expiresAt);
    expect(await ended(run.id)).toMatchObject({
      status: 'stopped',
      end_reason: 'approval_expired',
    });
  });

  it('hands a reminder and an escalation to ApprovalTimers', async () => {
    const { run, steps } = await bed.run({
      status: 'awaiting_approval',
      steps: [{ phase: 'held' }],
    });
    const approval = await bed.approval(run, steps[0]);
    const due = new Date(Date.now() - 1000);
    await bed.db.sql(`UPDATE approvals SET remind_at = $2, escalate_at = $2 WHERE id = $1`, [
      approval.id,
      due,
    ]);
    await queue.remind(approval.id, due);
    await queue.escalate(approval.id, due);
    const types = await until('both are recorded', async () => {
      const events = (await bed.events(run.id)).map((e) => e.type);
      return events.length >= 2 ? events.sort() : null;
    });
    expect(types).toEqual(['approval.escalated', 'approval.reminded']);
    expect((await bed.runState(run.id)).status).toBe('awaiting_approval');
  });
});
