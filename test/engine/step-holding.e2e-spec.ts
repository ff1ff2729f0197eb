import type { Action } from '../../src/computer-use/actions';
import type { ObservedScreen } from '../../src/computer-use/planner-contract/planner';
import { StepHolding, type HeldWrite } from '../../src/computer-use/engine/step-holding.service';
import type { StepContext } from '../../src/computer-use/engine/step-context';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { StepsRepository } from '../../src/computer-use/runs/steps.repository';
import { ScreensService } from '../../src/computer-use/screens/screens.service';
import { StepQueue } from '../../src/queue/step-queue';
import { solidScreenshot } from '../support/fake-screen-host';
import { type StageBed, startStageBed, TENANT } from './stage-bed';

const POST: Action = { action: 'key', key: 'F11' };
const WHY = 'F11 posts the order: a write';
const SHOT = solidScreenshot(200);

/**
 * StepHolding over a real PostgreSQL and BullMQ: a held write gets one approval (however many
 * jobs hold its step), recorded with its why, on the screen the approver is shown; the run waits
 * for it and the audit trail says so; the approval's expiry is queued; the held screen's volatile
 * pixels are learnt only once the step's lease is given back.
 */
describe('StepHolding', () => {
  let bed: StageBed;
  let holding: StepHolding;
  let screen: ObservedScreen;

  beforeAll(async () => {
    bed = await startStageBed({ env: { MASK_INTERVAL_MS: '10' } });
    await bed.configure();
    holding = bed.get(StepHolding);
    const stored = await bed.get(ScreensService).store(TENANT, SHOT);
    screen = {
      sha256: stored.sha256,
      pixelSha256: stored.pixelSha256,
      width: SHOT.width,
      height: SHOT.height,
      png: SHOT.png,
      frameSha256: null,
      outline: null,
    };
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
  });

  async function planning(): Promise<{ run: Run; step: Step }> {
    const { run, steps } = await bed.run({ steps: [{ phase: 'planning' }] });
    return { run, step: steps[0] };
  }

  function held(on: ObservedScreen = screen): HeldWrite {
    return {
      action: POST,
      why: WHY,
      screen: on,
      fields: {
        action: POST,
        classification: 'write',
        why: WHY,
        screenSha256: on.sha256,
        screenPixelSha256: on.pixelSha256,
      },
      safetyChecks: [],
      changes: null,
    };
  }

  const approvalsOf = (stepId: string) =>
    bed.db.sql<{
      id: string;
      status: string;
      why: string;
      action: unknown;
      screen_sha256: string;
      mask_state: string;
      redaction: { percent: number } | null;
    }>(
      `SELECT id, status, why, action, screen_sha256, mask_state, redaction
         FROM approvals WHERE step_id = $1`,
      [stepId],
    );
  const stepOf = async (id: string) =>
    (
      await bed.db.sql<{ phase: string; outcome: string | null; why: string }>(
        `SELECT phase, outcome, why FROM steps WHERE id = $1`,
        [id],
      )
    )[0];
  const pendingOf = async (runId: string) =>
    (
      await bed.db.sql<{ pending_approval: string | null }>(
        `SELECT pending_approval FROM runs WHERE id = $1`,
        [runId],
      )
    )[0].pending_approval;

  it('holds a write for one approval, with its why, and the run waits for it', async () => {
    const { run, step } = await planning();
    const ctx = bed.context(run);
    await holding.hold(ctx, step, held());

    const approvals = await approvalsOf(step.id);
    expect(approvals).toEqual([
      expect.objectContaining({
        status: 'pending',
        why: WHY,
        action: POST,
        screen_sha256: screen.sha256,
        mask_state: 'learning',
        redaction: null,
      }),
    ]);
    expect(await stepOf(step.id)).toEqual({ phase: 'held', outcome: 'held', why: WHY });
    expect(await bed.runState(run.id)).toMatchObject({ status: 'awaiting_approval' });
    expect(await pendingOf(run.id)).toBe(approvals[0].id);
    const events = await bed.events(run.id, 'computer_use.write.held');
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({
      approval_id: approvals[0].id,
      action: POST,
      why: WHY,
    });
    const expiry = await bed.get(StepQueue).queue.getJob(`expire.${approvals[0].id}`);
    expect(expiry?.data).toEqual({ approvalId: approvals[0].id });
    expect(bed.host.acted).toEqual([]);
  });

  it('holds a step once when two jobs hold it at the same time', async () => {
    const { run, step } = await planning();
    const other = (await bed.get(StepsRepository).find(run.id, 1))!;
    const contexts: StepContext[] = [bed.context(run), bed.context(run)];
    await Promise.all([
      holding.hold(contexts[0], step, held()),
      holding.hold(contexts[1], other, held()),
    ]);
    expect(await approvalsOf(step.id)).toHaveLength(1);
    expect(await bed.events(run.id, 'computer_use.write.held')).toHaveLength(1);
    // Only the job that held it learns its screen's mask.
    expect(contexts.map((c) => c.afterRelease?.length ?? 0).sort()).toEqual([0, 1]);
  });

  it('holds a step held already no second time', async () => {
    const { run, step } = await planning();
    await holding.hold(bed.context(run), step, held());
    const again = (await bed.get(StepsRepository).find(run.id, 1))!;
    again.phase = 'planning'; // a job that read the step before it was held
    await holding.hold(bed.context(run), again, held());
    expect(await approvalsOf(step.id)).toHaveLength(1);
    expect(await bed.events(run.id, 'computer_use.write.held')).toHaveLength(1);
  });

  it('gives each held write of a run its own approval', async () => {
    const { run, step } = await planning();
    await holding.hold(bed.context(run), step, held());
    const [first] = await approvalsOf(step.id);
    // Decided and sent: the run is at its next step, which holds another change.
    await bed.db.sql(`UPDATE approvals SET status = 'spent' WHERE id = $1`, [first.id]);
    await bed.db.sql(`UPDATE steps SET phase = 'done', outcome = 'sent' WHERE id = $1`, [step.id]);
    await bed.db.sql(
      `UPDATE runs SET status = 'running', pending_approval = NULL, step_count = 2 WHERE id = $1`,
      [run.id],
    );
    await bed.db.sql(
      `INSERT INTO steps (run_id, tenant, n, phase, started_at) VALUES ($1, $2, 2, 'planning', now())`,
      [run.id, TENANT],
    );
    const second = (await bed.get(StepsRepository).find(run.id, 2))!;
    await holding.hold(bed.context(run), second, { ...held(), why: 'F11 again: another order' });
    const [next] = await approvalsOf(second.id);
    expect(next).toMatchObject({ status: 'pending', why: 'F11 again: another order' });
    expect(next.id).not.toBe(first.id);
    expect(await pendingOf(run.id)).toBe(next.id);
  });

  it('says in the why what the redacted regions hide from the approver', async () => {
    const { run, step } = await planning();
    const ctx = bed.context(run);
    ctx.agent = { ...ctx.agent, redact_regions: [{ x: 0, y: 0, width: 32, height: 48 }] };
    await holding.hold(ctx, step, { ...held(), targetRedacted: true });
    const [approval] = await approvalsOf(step.id);
    expect(approval.why.startsWith(`${WHY}; `)).toBe(true);
    expect(approval.why.length).toBeGreaterThan(WHY.length + 2);
    expect(approval.redaction).toMatchObject({ percent: 50, target: true });
    const [event] = await bed.events(run.id, 'computer_use.write.held');
    expect(event.details).toMatchObject({ why: approval.why });
  });

  it('holds nothing on a screen the approver could not see, and the step stays planning', async () => {
    const { run, step } = await planning();
    const png = Buffer.from(SHOT.png);
    const idat = png.indexOf('IDAT');
    png.fill(0xff, idat + 4, idat + 20); // the compressed data no longer inflates
    const broken = { ...screen, sha256: 'c'.repeat(64), png };
    await expect(holding.hold(bed.context(run), step, held(broken))).rejects.toThrow();
    expect(await approvalsOf(step.id)).toEqual([]);
    expect(await stepOf(step.id)).toMatchObject({ phase: 'planning' });
    expect(await bed.runState(run.id)).toMatchObject({ status: 'running' });
  });

  it('learns the held screen’s mask only after the lease is given back, onto its approval', async () => {
    const { run, step } = await planning();
    const ctx = bed.context(run);
    bed.host.screenshots = [SHOT];
    await holding.hold(ctx, step, held());
    const [approval] = await approvalsOf(step.id);
    expect(approval.mask_state).toBe('learning');
    expect(ctx.afterRelease).toHaveLength(1);
    for (const work of ctx.afterRelease!) await work();
    expect((await approvalsOf(step.id))[0].mask_state).toBe('learnt');
  });
});
