import type { OutlineElement } from '../../src/computer-use/actions';
import { WriteReceipts } from '../../src/computer-use/engine/write-receipts.service';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host.client';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { StepsRepository } from '../../src/computer-use/runs/steps.repository';
import { type StageBed, startStageBed } from './stage-bed';

/** A status bar saying `text` with its message type, as SAP GUI's outline serves it. */
function statusBar(type: 'S' | 'E' | 'W', text: string): OutlineElement[] {
  return [
    {
      id: 'wnd[0]/sbar',
      role: 'status',
      name: text,
      rect: { x: 0, y: 780, width: 1280, height: 20 },
      message_type: type,
    },
  ];
}

/**
 * WriteReceipts over a real PostgreSQL and a fake screen host: after a sent write, what the
 * application says is kept on the step and audited, once; a fresh error ends the step
 * `refused_by_application`; a receipt never sends anything and never stops the run.
 */
describe('WriteReceipts', () => {
  let bed: StageBed;
  let receipts: WriteReceipts;

  beforeAll(async () => {
    bed = await startStageBed();
    receipts = bed.get(WriteReceipts);
  });

  afterAll(async () => {
    await bed?.close();
  });

  /** A run whose step 1 sent a write, decided on a screen whose status bar said `before`. */
  async function sentWrite(
    options: { classification?: string; staged?: boolean; before?: string } = {},
  ): Promise<{ run: Run; step: Step }> {
    const { run, steps } = await bed.run({
      steps: [{ phase: 'done', classification: options.classification ?? 'write' }],
    });
    const before = options.before ? { source: 'status', type: 'S', text: options.before } : null;
    await bed.db.sql(`UPDATE steps SET receipt = $2, staged = $3 WHERE id = $1`, [
      steps[0].id,
      JSON.stringify({ before }),
      options.staged
        ? JSON.stringify({
            field: { label: 'Quantity', id: 'wnd[0]/usr/qty', rect: null, at: null },
            before: '1',
            text: '2',
          })
        : null,
    ]);
    return { run, step: (await bed.get(StepsRepository).find(run.id, 1))! };
  }
  const stepRow = async (id: string) =>
    (
      await bed.db.sql<{ outcome: string | null; error: string | null; receipt: unknown }>(
        `SELECT outcome, error, receipt FROM steps WHERE id = $1`,
        [id],
      )
    )[0];

  it("keeps the application's answer on the step and audits it", async () => {
    const { run, step } = await sentWrite({ before: 'Change order 4711' });
    bed.host.outlines = [statusBar('S', 'Standard Order 4711 has been saved')];
    await receipts.read(bed.context(run), step);
    const message = { source: 'status', type: 'S', text: 'Standard Order 4711 has been saved' };
    expect(await stepRow(step.id)).toEqual({
      outcome: 'sent',
      error: null,
      receipt: {
        before: { source: 'status', type: 'S', text: 'Change order 4711' },
        message,
        fresh: true,
      },
    });
    const events = await bed.events(run.id, 'computer_use.write.receipt');
    expect(events).toEqual([
      {
        type: 'computer_use.write.receipt',
        step: 1,
        details: {
          agent: run.agent,
          idempotency_key: step.id,
          receipt: { message, fresh: true },
        },
      },
    ]);
    expect(bed.host.acted).toEqual([]);
  });

  it('ends the step refused_by_application on a fresh error, and the run goes on', async () => {
    const { run, step } = await sentWrite();
    bed.host.outlines = [statusBar('E', 'Quantity must be positive')];
    await receipts.read(bed.context(run), step);
    const why = 'the application answered with an error message: Quantity must be positive';
    expect(await stepRow(step.id)).toMatchObject({ outcome: 'refused_by_application', error: why });
    const [event] = await bed.events(run.id, 'computer_use.write.receipt');
    expect(event.details).toMatchObject({ outcome: 'refused_by_application', why });
    const [state] = await bed.db.sql<{ status: string }>(`SELECT status FROM runs WHERE id = $1`, [
      run.id,
    ]);
    expect(state.status).toBe('running');
  });

  it('leaves a staged edit staged, whatever the application shows', async () => {
    const { run, step } = await sentWrite({ staged: true });
    bed.host.outlines = [statusBar('E', 'Quantity must be positive')];
    await receipts.read(bed.context(run), step);
    expect(await stepRow(step.id)).toMatchObject({ outcome: 'sent', error: null });
  });

  it('says why there is no receipt where the host does not answer for the outline', async () => {
    const { run, step } = await sentWrite();
    bed.host.outlines = [new ScreenHostError('timeout', 'no answer in 5 s')];
    await receipts.read(bed.context(run), step);
    expect((await stepRow(step.id)).receipt).toEqual({
      before: null,
      none: 'the screen host did not answer for the outline: no answer in 5 s',
    });
    expect(await bed.events(run.id, 'computer_use.write.receipt')).toHaveLength(1);
  });

  it('records a receipt once, however many read it at the same time', async () => {
    const { run, step } = await sentWrite();
    bed.host.outlines = [statusBar('S', 'saved')];
    const again = (await bed.get(StepsRepository).find(run.id, 1))!;
    await Promise.all([
      receipts.read(bed.context(run), step),
      receipts.read(bed.context(run), again),
    ]);
    expect(await bed.events(run.id, 'computer_use.write.receipt')).toHaveLength(1);
    // A later read of the step, its receipt already kept, records nothing either.
    await receipts.read(bed.context(run), (await bed.get(StepsRepository).find(run.id, 1))!);
    expect(await bed.events(run.id, 'computer_use.write.receipt')).toHaveLength(1);
  });

  it('reads nothing for a read', async () => {
    const { run, step } = await sentWrite({ classification: 'read' });
    bed.host.outlines = [statusBar('E', 'Quantity must be positive')];
    await receipts.read(bed.context(run), step);
    expect(await stepRow(step.id)).toMatchObject({ outcome: 'sent', receipt: { before: null } });
    expect(await bed.events(run.id)).toEqual([]);
  });
});
