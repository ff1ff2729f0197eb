import type { Action } from '../../src/computer-use/actions';
import { RunEnds } from '../../src/computer-use/engine/run-ends';
import { SendRecording } from '../../src/computer-use/engine/send-recording.service';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host.client';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { StepsRepository } from '../../src/computer-use/runs/steps.repository';
import { type StageBed, startStageBed } from './stage-bed';

const ENTER: Action = { action: 'key', key: 'Enter' };

/**
 * SendRecording over a real PostgreSQL and a fake screen host: a send is recorded, and a write
 * audited with it, once, by whoever records it first; a failed request is asked about, never
 * repeated, and what the host cannot say stays unknown.
 */
describe('SendRecording', () => {
  let bed: StageBed;
  let recording: SendRecording;

  beforeAll(async () => {
    bed = await startStageBed();
    recording = bed.get(SendRecording);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
  });

  async function sending(classification = 'write'): Promise<{ run: Run; step: Step }> {
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending', classification }] });
    return { run, step: steps[0] };
  }
  const outcome = async (id: string) =>
    (
      await bed.db.sql<{ phase: string; outcome: string | null }>(
        `SELECT phase, outcome FROM steps WHERE id = $1`,
        [id],
      )
    )[0];
  /** What the failed request throws (a RunEnds), or the action it records. */
  const afterFailure = (run: Run, step: Step, error: ScreenHostError) =>
    recording.afterFailedSend(bed.context(run), step, ENTER, error).catch((e: unknown) => e);

  it('records a write sent and audits it with its key, in one go', async () => {
    const { run, step } = await sending();
    expect(await recording.sent(bed.context(run), step, ENTER)).toEqual(ENTER);
    expect(await outcome(step.id)).toEqual({ phase: 'done', outcome: 'sent' });
    const events = await bed.events(run.id, 'computer_use.write');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      step: 1,
      details: {
        agent: run.agent,
        action: ENTER,
        idempotency_key: step.id,
        approval_id: null,
        without_approval: 'require_write_approval is off for this agent',
      },
    });
  });

  it('records the write once when two workers record it at the same time', async () => {
    const { run, step } = await sending();
    // The worker that sent it and a takeover that found the host had performed the key.
    const takeover = (await bed.get(StepsRepository).find(run.id, 1))!;
    const both = await Promise.all([
      recording.sent(bed.context(run), step, ENTER),
      recording.sent(bed.context(run), takeover, ENTER),
    ]);
    expect(both.filter((a) => a !== null)).toEqual([ENTER]);
    expect(await bed.events(run.id, 'computer_use.write')).toHaveLength(1);
  });

  it('records a write sent under an approval with its authority', async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending' }] });
    const approval = await bed.approval(run, steps[0], { status: 'approved' });
    await bed.db.sql(`UPDATE approvals SET status = 'spent', spent_by = 'resumer' WHERE id = $1`, [
      approval.id,
    ]);
    const spent = { ...approval, status: 'spent' as const, spentBy: 'resumer' };
    expect(await recording.sent(bed.context(run), steps[0], ENTER, spent)).toEqual(ENTER);
    expect(await outcome(steps[0].id)).toEqual({ phase: 'done', outcome: 'sent_after_approval' });
    const [event] = await bed.events(run.id, 'computer_use.write');
    expect(event.details).toMatchObject({
      approval_id: approval.id,
      approved_by: 'approver',
      resumed_by: 'resumer',
    });
    expect(event.details).not.toHaveProperty('without_approval');
  });

  it('records a staged edit as staged, audited with why it needed no approval', async () => {
    const { run, step } = await sending();
    const staged = {
      field: { label: 'Quantity', id: 'wnd[0]/usr/qty', rect: null, at: null },
      before: '1',
      text: '2',
    };
    await bed.db.sql(`UPDATE steps SET staged = $2 WHERE id = $1`, [
      step.id,
      JSON.stringify(staged),
    ]);
    step.staged = staged;
    const typed: Action = { action: 'type', text: '2' };
    expect(await recording.sent(bed.context(run), step, typed)).toEqual(typed);
    expect(await outcome(step.id)).toEqual({ phase: 'done', outcome: 'staged' });
    const [event] = await bed.events(run.id, 'computer_use.write');
    expect(event.details).toMatchObject({ staged: true, field: 'Quantity', approval_id: null });
  });

  it('records a read with no audit event', async () => {
    const { run, step } = await sending('read');
    expect(await recording.sent(bed.context(run), step, ENTER)).toEqual(ENTER);
    expect(await outcome(step.id)).toEqual({ phase: 'done', outcome: 'sent' });
    expect(await bed.events(run.id)).toEqual([]);
  });

  it('ends the run on a refusal without asking the host, as it did not act', async () => {
    const { run, step } = await sending();
    const thrown = await afterFailure(run, step, new ScreenHostError('refused', 'bad action'));
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({ reason: 'screen_host_error', step: { outcome: 'refused' } });
    expect(bed.host.looked).toEqual([]);
  });

  it('records a write the host says it performed, once, and sends nothing again', async () => {
    const { run, step } = await sending();
    bed.host.lookups = [{ performed: true, result: { ok: true, ms: 3 } }];
    const result = await afterFailure(run, step, new ScreenHostError('timeout', 'no answer'));
    expect(result).toEqual(ENTER);
    expect(bed.host.looked).toEqual([step.id]);
    expect(bed.host.acted).toEqual([]);
    expect(await outcome(step.id)).toEqual({ phase: 'done', outcome: 'sent' });
    expect(await bed.events(run.id, 'computer_use.write')).toHaveLength(1);
  });

  it('ends the run, nothing sent, where the host says it did not act', async () => {
    const { run, step } = await sending();
    bed.host.lookups = [{ performed: false }];
    const thrown = await afterFailure(run, step, new ScreenHostError('failed', '502'));
    expect(thrown).toMatchObject({ reason: 'screen_host_error', step: { outcome: 'refused' } });
    expect(bed.host.acted).toEqual([]);
    expect(await bed.events(run.id, 'computer_use.write')).toEqual([]);
  });

  it("leaves a write's outcome unknown where the host cannot tell, for a person to check", async () => {
    const { run, step } = await sending();
    bed.host.lookups = [{ performed: 'unknown', message: 'stopped half-way' }];
    const thrown = await afterFailure(run, step, new ScreenHostError('failed', '500'));
    expect(thrown).toMatchObject({
      reason: 'outcome_unknown',
      step: { outcome: null },
      event: { type: 'computer_use.write.unknown', details: { idempotency_key: step.id } },
    });
    expect(bed.host.acted).toEqual([]);
  });

  it("leaves a read's outcome unknown too, with no write's event", async () => {
    const { run, step } = await sending('read');
    bed.host.lookups = [{ performed: 'unknown', message: 'stopped half-way' }];
    const thrown = await afterFailure(run, step, new ScreenHostError('failed', '500'));
    expect(thrown).toMatchObject({ reason: 'screen_host_error', step: { outcome: null } });
    expect((thrown as RunEnds).event).toBeUndefined();
  });

  it('asks a host that does not answer three times, then takes its outcome for unknown', async () => {
    const { run, step } = await sending();
    bed.host.lookups = [new ScreenHostError('unreachable', 'connection refused')];
    expect(await recording.askHost(bed.context(run), step)).toBe(null);
    expect(bed.host.looked).toEqual([step.id, step.id, step.id]);
  });
});
