import type { Action } from '../../src/computer-use/actions';
import { RunEnding } from '../../src/computer-use/engine/run-ending.service';
import { RunEnds, staleEnd, writeOutcomeUnknown } from '../../src/computer-use/engine/run-ends';
import { RunLifecycle } from '../../src/computer-use/runs/run-lifecycle.service';
import { StepsRepository } from '../../src/computer-use/runs/steps.repository';
import { type StageBed, startStageBed } from './stage-bed';

/**
 * RunEnding over a real PostgreSQL: a step's last state, its own audit event and the run's end in
 * one transaction, and the event written only by whoever ends the step.
 */
describe('RunEnding', () => {
  let bed: StageBed;
  let ending: RunEnding;

  beforeAll(async () => {
    bed = await startStageBed();
    ending = bed.get(RunEnding);
  });

  afterAll(async () => {
    await bed?.close();
  });

  const stepRow = async (id: string) =>
    (
      await bed.db.sql<{ phase: string; outcome: string | null; error: string | null }>(
        `SELECT phase, outcome, error FROM steps WHERE id = $1`,
        [id],
      )
    )[0];
  const unknown = (step: Parameters<typeof writeOutcomeUnknown>[0]) =>
    writeOutcomeUnknown(step, step.action as Action, null, {
      summary: 'the host did not answer; check the screen',
      error: 'whether the host acted is unknown',
    });

  it("ends the step, audits the step's event and ends the run, together", async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'planning' }] });
    await ending.end(
      run,
      steps[0],
      new RunEnds('fail', 'the planner gave up', { outcome: 'ended', fields: { why: 'gave up' } }),
    );
    expect(await stepRow(steps[0].id)).toEqual({ phase: 'done', outcome: 'ended', error: null });
    expect(await bed.runState(run.id)).toMatchObject({ status: 'failed', end_reason: 'fail' });
    expect((await bed.events(run.id)).map((e) => [e.type, e.step])).toEqual([
      ['computer_use.end', 1],
    ]);
  });

  it('keeps the record of a step that had ended already, and ends the run', async () => {
    // A sent step after which the screen stalled: the step is done, the run ends.
    const { run, steps } = await bed.run({ steps: [{ phase: 'done' }] });
    await ending.end(
      run,
      steps[0],
      new RunEnds('stalled', 'the screen did not change', {
        outcome: null,
        fields: { error: 'stalled' },
      }),
    );
    expect(await stepRow(steps[0].id)).toEqual({ phase: 'done', outcome: 'sent', error: null });
    expect(await bed.runState(run.id)).toMatchObject({ status: 'stopped', end_reason: 'stalled' });
  });

  it("writes a write's unknown outcome with the step it ends", async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending' }] });
    await ending.end(run, steps[0], unknown(steps[0]));
    expect(await stepRow(steps[0].id)).toMatchObject({ phase: 'done', outcome: null });
    expect(await bed.runState(run.id)).toMatchObject({
      status: 'failed',
      end_reason: 'outcome_unknown',
    });
    const events = await bed.events(run.id);
    expect(events.map((e) => e.type)).toEqual(['computer_use.write.unknown', 'computer_use.end']);
    expect(events[0].details).toMatchObject({ agent: run.agent, idempotency_key: steps[0].id });
  });

  it('leaves a step another worker recorded meanwhile with its record, and audits no unknown outcome', async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending' }] });
    // Another worker took the step over and recorded it sent (its write event is its own).
    const other = (await bed.get(StepsRepository).find(run.id, 1))!;
    expect(
      await bed
        .get(StepsRepository)
        .move(other, 'sending', 'done', { outcome: 'sent', endedAt: new Date() }),
    ).toBe(true);
    // This worker, holding the step as it read it (sending), ends the run: outcome unknown.
    await ending.end(run, steps[0], unknown(steps[0]));
    expect(await stepRow(steps[0].id)).toEqual({ phase: 'done', outcome: 'sent', error: null });
    expect(await bed.events(run.id, 'computer_use.write.unknown')).toEqual([]);
  });

  it("leaves a step that the run's end closed with its record, and audits no stale screen for it", async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'approved' }] });
    await bed.get(RunLifecycle).end(run.id, 'cancelled', 'cancelled by a person', 'operator');
    await ending.end(run, steps[0], staleEnd('the dialog moved', null));
    expect(await stepRow(steps[0].id)).toEqual({
      phase: 'done',
      outcome: 'held',
      error: 'the run ended (cancelled) before it was sent',
    });
    expect(await bed.runState(run.id)).toMatchObject({
      status: 'stopped',
      end_reason: 'cancelled',
    });
    expect(await bed.events(run.id, 'computer_use.write.stale')).toEqual([]);
    expect(await bed.events(run.id, 'computer_use.end')).toHaveLength(1);
  });

  it('still audits a write whose outcome is unknown after a cancel, and keeps the cancel as the end', async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'sending' }] });
    // A cancel while the step was sending leaves the step to its worker.
    await bed.get(RunLifecycle).end(run.id, 'cancelled', 'cancelled by a person', 'operator');
    expect((await stepRow(steps[0].id)).phase).toBe('sending');
    await ending.end(run, steps[0], unknown(steps[0]));
    expect((await stepRow(steps[0].id)).phase).toBe('done');
    expect(await bed.runState(run.id)).toMatchObject({
      status: 'stopped',
      end_reason: 'cancelled',
    });
    expect(await bed.events(run.id, 'computer_use.write.unknown')).toHaveLength(1);
    expect(await bed.events(run.id, 'computer_use.end')).toHaveLength(1);
  });
});
