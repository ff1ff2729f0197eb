import type { Action } from '../../src/computer-use/actions';
import type { Approval } from '../../src/computer-use/approvals/approval.entity';
import { ApprovalsRepository } from '../../src/computer-use/approvals/approvals.repository';
import { RunEnds } from '../../src/computer-use/engine/run-ends';
import { StepSending } from '../../src/computer-use/engine/step-sending.service';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { StepsRepository } from '../../src/computer-use/runs/steps.repository';
import { ScreensService } from '../../src/computer-use/screens/screens.service';
import { SettingsService } from '../../src/computer-use/settings/settings.service';
import { FRAME_PRECONDITION_CAPABILITY } from '@warden/protocol';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host.client';
import type {
  ScreenHostHealth,
  Screenshot,
} from '../../src/computer-use/host-client/screen-host.types';
import { dottedScreenshot, FakeScreenHost, solidScreenshot } from '../support/fake-screen-host';
import { Client } from 'pg';
import { until } from '../support/until';
import { AGENT, type StageBed, startStageBed, TENANT } from './stage-bed';

const ENTER: Action = { action: 'key', key: 'Enter' };
/** The screen the approver saw, as the host sends it while nothing changed. */
const HELD = solidScreenshot(200);
/** Another screen: every pixel differs from the held one. */
const OTHER = solidScreenshot(90);
/** The held screen with its caret drawn: a blink. */
const CARET = dottedScreenshot(200, [
  [5, 5],
  [5, 6],
]);
/** The held screen with a message that appeared at the bottom, and stays. */
const MESSAGE = dottedScreenshot(200, [
  [30, 40],
  [31, 40],
]);
/** A message and the caret at once. */
const MESSAGE_CARET = dottedScreenshot(200, [
  [5, 5],
  [5, 6],
  [30, 40],
  [31, 40],
]);
/** A screen blinking between `on` and `off`, sample after sample (more than a mask's samples). */
const blinking = (on: Screenshot, off: Screenshot) =>
  Array.from({ length: 40 }, (_, i) => (i % 2 ? off : on));
/** A frame hash, as a host that checks frames sends with every screenshot. */
const framed = (shot: Screenshot, level: string): Screenshot => ({
  ...shot,
  frameSha256: level.repeat(64),
});

/** A host that checks the frame itself, atomically with acting (FakeScreenHost does not). */
class FrameCheckingHost extends FakeScreenHost {
  override readonly url: string = 'https://frame-checking-host.test';
  override health(): Promise<ScreenHostHealth | null> {
    return Promise.resolve({ capabilities: ['idempotency', FRAME_PRECONDITION_CAPABILITY] });
  }
}

/**
 * StepSending over a real PostgreSQL and a fake screen host: a held write is sent once, under
 * its step's key, only with its approval spent, only onto the screen the approver saw, never
 * while the held screen's mask is still being learnt, and of two sends of one step one loses.
 */
describe('StepSending', () => {
  let bed: StageBed;
  let sending: StepSending;

  beforeAll(async () => {
    bed = await startStageBed();
    await bed.configure();
    sending = bed.get(StepSending);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
    bed.host.screenshots = [HELD];
  });

  /**
   * A run at a write held on HELD and approved, its approval spent by a resume unless `status`
   * says otherwise, its mask as `mask` says.
   */
  async function approvedWrite(
    options: { status?: 'approved' | 'spent'; mask?: 'learnt' | 'learning'; heldAgo?: string } = {},
  ): Promise<{ run: Run; step: Step; approval: Approval }> {
    const { status = 'spent', mask = 'learnt', heldAgo = '0 seconds' } = options;
    const stored = await bed.get(ScreensService).store(TENANT, HELD);
    const { run, steps } = await bed.run({ steps: [{ phase: 'approved' }] });
    const created = await bed.approval(run, steps[0], { status: 'approved' });
    await bed.db.sql(
      `UPDATE approvals SET status = $2, spent_by = CASE WHEN $2 = 'spent' THEN 'resumer' END,
                            screen_sha256 = $3, screen_pixel_sha256 = $4, mask_state = $5,
                            created_at = now() - $6::interval
        WHERE id = $1`,
      [created.id, status, stored.sha256, stored.pixelSha256, mask, heldAgo],
    );
    const approval = (await bed.get(ApprovalsRepository).findById(created.id))!;
    return { run, step: steps[0], approval };
  }

  const stepOf = async (id: string) =>
    (
      await bed.db.sql<{ phase: string; outcome: string | null }>(
        `SELECT phase, outcome FROM steps WHERE id = $1`,
        [id],
      )
    )[0];
  const judgedOn = (shot = HELD) => ({ png: shot.png, width: shot.width, height: shot.height });

  it('sends an approved write once, under its key, onto the screen the approver saw', async () => {
    const { run, step, approval } = await approvedWrite();
    expect(await sending.sendApproved(bed.context(run), step)).toEqual({ sent: ENTER });
    expect(bed.host.acted).toEqual([{ action: ENTER, key: step.id }]);
    expect(await stepOf(step.id)).toEqual({ phase: 'done', outcome: 'sent_after_approval' });
    const events = await bed.events(run.id, 'computer_use.write');
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({ approval_id: approval.id, idempotency_key: step.id });
  });

  it('sends nothing and ends the run stale where the screen is not the one the approver saw', async () => {
    const { run, step, approval } = await approvedWrite();
    bed.host.screenshots = [OTHER];
    const thrown = await sending.sendApproved(bed.context(run), step).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({
      reason: 'stale_screen',
      step: { outcome: 'stale' },
      event: { type: 'computer_use.write.stale', details: { approval_id: approval.id } },
    });
    expect(bed.host.acted).toEqual([]);
    expect(await stepOf(step.id)).toMatchObject({ phase: 'approved' });
  });

  it('sends nothing where the screen changed between the comparison and the send', async () => {
    const { run, step } = await approvedWrite();
    // The comparison with the approved screen sees HELD; the check right before the send does not.
    bed.host.screenshots = [HELD, OTHER];
    const thrown = await sending.sendApproved(bed.context(run), step).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ reason: 'stale_screen' });
    expect(bed.host.acted).toEqual([]);
  });

  it('sends nothing, and ends the run, for an approval that no resume has spent', async () => {
    const { run, step } = await approvedWrite({ status: 'approved' });
    const thrown = await sending.sendApproved(bed.context(run), step).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({ reason: 'approval_expired', step: { outcome: 'refused' } });
    expect(bed.host.acted).toEqual([]);
    expect(await stepOf(step.id)).toMatchObject({ phase: 'approved' });
    expect(await bed.events(run.id, 'computer_use.write')).toEqual([]);
  });

  it('sends nothing while the held screen’s mask is still being learnt', async () => {
    const { run, step, approval } = await approvedWrite({ mask: 'learning' });
    // However the send is reached, the gate itself refuses while the mask may still change.
    const thrown = await sending
      .send(bed.context(run), step, ENTER, {
        from: 'approved',
        approval,
        judged: judgedOn(),
        mask: null,
      })
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({
      reason: 'stale_screen',
      summary: "the write's screen was compared before its volatile mask was settled",
    });
    expect(bed.host.acted).toEqual([]);
    expect(await stepOf(step.id)).toMatchObject({ phase: 'approved' });
  });

  it('compares a changed screen whole when the mask was never learnt, and sends nothing', async () => {
    // Held long ago: the mask's learning (a dead worker's) is given up, not waited for.
    const { run, step, approval } = await approvedWrite({ mask: 'learning', heldAgo: '1 hour' });
    bed.host.screenshots = [OTHER];
    const thrown = await sending.sendApproved(bed.context(run), step).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ reason: 'stale_screen' });
    expect(bed.host.acted).toEqual([]);
    const [row] = await bed.db.sql<{ mask_state: string }>(
      `SELECT mask_state FROM approvals WHERE id = $1`,
      [approval.id],
    );
    expect(row.mask_state).toBe('abandoned');
  });

  it('sends a write approved before its mask was learnt, onto the very screen held', async () => {
    const { run, step, approval } = await approvedWrite({ mask: 'learning' });
    expect(await sending.sendApproved(bed.context(run), step)).toEqual({ sent: ENTER });
    expect(bed.host.acted).toEqual([{ action: ENTER, key: step.id }]);
    const [row] = await bed.db.sql<{ mask_state: string }>(
      `SELECT mask_state FROM approvals WHERE id = $1`,
      [approval.id],
    );
    expect(row.mask_state).toBe('abandoned');
  });

  describe('a caret that blinks between the comparison and the send', () => {
    // The approver decided before the mask was learnt, and the screen was exactly the held one:
    // compared whole. Then the caret blinked before the host acted. Nothing went; the held
    // screen's moving pixels are learnt now, and the write goes only if the rest is the same.
    it('sends the write once, after learning that only the caret moves', async () => {
      const { run, step } = await approvedWrite({ mask: 'learning' });
      bed.host.screenshots = [HELD, CARET, ...blinking(CARET, HELD), CARET];
      expect(await sending.sendApproved(bed.context(run), step)).toEqual({ sent: ENTER });
      expect(bed.host.acted).toEqual([{ action: ENTER, key: step.id }]);
      expect(await stepOf(step.id)).toEqual({ phase: 'done', outcome: 'sent_after_approval' });
      expect(await bed.events(run.id, 'computer_use.write')).toHaveLength(1);
    });

    it('sends nothing where a message appeared and stayed, caret or not', async () => {
      const { run, step } = await approvedWrite({ mask: 'learning' });
      bed.host.screenshots = [HELD, MESSAGE_CARET, ...blinking(MESSAGE_CARET, MESSAGE)];
      const thrown = await sending.sendApproved(bed.context(run), step).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(RunEnds);
      expect(thrown).toMatchObject({ reason: 'stale_screen', step: { outcome: 'stale' } });
      expect(bed.host.acted).toEqual([]);
    });

    it('on a host that checks frames: sends once after its refusal, onto the frame compared', async () => {
      const { run, step } = await approvedWrite({ mask: 'learning' });
      const host = new FrameCheckingHost();
      const ctx = { ...bed.context(run), host };
      host.screenshots = [framed(HELD, 'a'), ...blinking(framed(CARET, 'b'), framed(HELD, 'a'))];
      host.acts = [
        new ScreenHostError('screen_changed', 'the screen is not the expected frame'),
        { ok: true, ms: 1, replayed: false },
      ];
      expect(await sending.sendApproved(ctx, step)).toEqual({ sent: ENTER });
      expect(host.acted).toHaveLength(2);
      // The first try was held to the whole held frame; the second leaves out the caret alone.
      expect(host.acted[0].frame).toMatchObject({ expect: 'a'.repeat(64) });
      expect(host.acted[0].frame?.ignore ?? []).toEqual([]);
      expect(host.acted[1].frame?.ignore).toEqual([{ x: 5, y: 5, width: 1, height: 2 }]);
      expect(await stepOf(step.id)).toEqual({ phase: 'done', outcome: 'sent_after_approval' });
    });

    it('sends nothing once a kill switch is engaged while the screen is sampled again', async () => {
      const { run, step } = await approvedWrite({ mask: 'learning' });
      const settings = bed.get(SettingsService);
      const host = new FakeScreenHost();
      const shots = [HELD, CARET, ...blinking(CARET, HELD), CARET];
      let taken = 0;
      // The admin engages the switch during the samples, after the send gate let the write go.
      host.screenshot = async () => {
        if (++taken === 4)
          await settings.setKillSwitch(bed.admin, AGENT, { engaged: true, reason: 'a stage spec' });
        return shots[Math.min(taken - 1, shots.length - 1)];
      };
      let thrown: unknown;
      try {
        thrown = await sending
          .sendApproved({ ...bed.context(run), host }, step)
          .catch((e: unknown) => e);
      } finally {
        await settings.setKillSwitch(bed.admin, AGENT, { engaged: false });
      }
      expect(taken).toBeGreaterThan(4);
      expect(thrown).toMatchObject({ reason: 'killed', step: { outcome: 'refused' } });
      expect(host.acted).toEqual([]);
    });

    it('on a host that checks frames: a second refusal ends the run, sent nothing', async () => {
      const { run, step } = await approvedWrite({ mask: 'learning' });
      const host = new FrameCheckingHost();
      const ctx = { ...bed.context(run), host };
      host.screenshots = [framed(HELD, 'a'), ...blinking(framed(CARET, 'b'), framed(HELD, 'a'))];
      host.acts = [new ScreenHostError('screen_changed', 'the screen is not the expected frame')];
      const thrown = await sending.sendApproved(ctx, step).catch((e: unknown) => e);
      expect(thrown).toMatchObject({ reason: 'stale_screen' });
      expect(host.acted).toHaveLength(2);
    });
  });

  it('sends an approved write once when two workers send it at the same time', async () => {
    const { run, step } = await approvedWrite();
    const other = (await bed.get(StepsRepository).find(run.id, 1))!;
    const results = await Promise.all([
      sending.sendApproved(bed.context(run), step),
      sending.sendApproved(bed.context(run), other),
    ]);
    expect(results.filter((r) => r !== null)).toEqual([{ sent: ENTER }]);
    expect(bed.host.acted).toEqual([{ action: ENTER, key: step.id }]);
    expect(await bed.events(run.id, 'computer_use.write')).toHaveLength(1);
  });

  it('holds a write decided without approval while the agent’s writes need one', async () => {
    const { run, steps } = await bed.run({ steps: [{ phase: 'planning' }] });
    const result = await sending.send(bed.context(run), steps[0], ENTER, {
      from: 'planning',
      judged: judgedOn(),
      mask: null,
      fields: { action: ENTER, classification: 'write', why: 'a spec' },
    });
    expect(result).toEqual({ hold: "the agent's writes need approval again" });
    expect(bed.host.acted).toEqual([]);
    expect(await stepOf(steps[0].id)).toMatchObject({ phase: 'planning' });
  });

  it('sends a read once, and nothing where the screen changed before it', async () => {
    const { run, steps } = await bed.run({
      steps: [{ phase: 'planning', classification: 'read' }],
    });
    const read = { action: 'click', x: 3, y: 3 } as Action;
    const send = (step: Step) =>
      sending.send(bed.context(run), step, read, {
        from: 'planning',
        judged: judgedOn(),
        mask: null,
        fields: { action: read, classification: 'read', why: 'a spec' },
      });
    bed.host.screenshots = [OTHER];
    expect(await send(steps[0])).toMatchObject({ changed: expect.any(String) });
    expect(bed.host.acted).toEqual([]);
    expect(await stepOf(steps[0].id)).toEqual({ phase: 'done', outcome: 'screen_changed' });

    const next = await bed.run({ steps: [{ phase: 'planning', classification: 'read' }] });
    bed.host.screenshots = [HELD];
    const again = await sending.send(bed.context(next.run), next.steps[0], read, {
      from: 'planning',
      judged: judgedOn(),
      mask: null,
      fields: { action: read, classification: 'read', why: 'a spec' },
    });
    expect(again).toEqual({ sent: read });
    expect(bed.host.acted).toEqual([{ action: read, key: next.steps[0].id }]);
  });

  it('ends the run killed, sending nothing, once the kill switch is engaged', async () => {
    const { run, step } = await approvedWrite();
    const settings = bed.get(SettingsService);
    await settings.setKillSwitch(bed.admin, AGENT, { engaged: true, reason: 'a stage spec' });
    let thrown: unknown;
    try {
      thrown = await sending.sendApproved(bed.context(run), step).catch((e: unknown) => e);
    } finally {
      await settings.setKillSwitch(bed.admin, AGENT, { engaged: false });
    }
    expect(thrown).toMatchObject({ reason: 'killed', step: { outcome: 'refused' } });
    expect(bed.host.acted).toEqual([]);
  });

  it('sees a kill switch whose change held the governance lock when the gate began', async () => {
    const { run, step } = await approvedWrite();
    // An admin's change, as SettingsService makes one: the tenant's lock, then the row, not yet
    // committed when the send gate starts.
    const admin = new Client({ connectionString: bed.db.url });
    await admin.connect();
    let sent: Promise<unknown> | undefined;
    try {
      await admin.query('BEGIN');
      await admin.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('computer_use_config:' || $1, 0))`,
        [TENANT],
      );
      await admin.query(
        `INSERT INTO computer_use_kill_switches (tenant, agent, engaged, reason, updated_by, updated_at)
         VALUES ($1, $2, true, 'a stage spec', 'admin', now())
         ON CONFLICT (tenant, agent) DO UPDATE SET engaged = true, reason = 'a stage spec'`,
        [TENANT, AGENT],
      );
      sent = sending.sendApproved(bed.context(run), step).catch((e: unknown) => e);
      // The gate waits for the lock (it began before the change committed) ...
      await until('the send gate waiting for the governance lock', async () => {
        const waiting = await bed.db.sql(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
              AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        );
        return waiting.length > 0;
      });
      await admin.query('COMMIT');
      // ... and, once it has it, reads the switch as committed: nothing is sent.
      expect(await sent).toMatchObject({ reason: 'killed', step: { outcome: 'refused' } });
      expect(bed.host.acted).toEqual([]);
      expect(await stepOf(step.id)).toMatchObject({ phase: 'approved' });
    } finally {
      await admin.query('ROLLBACK').catch(() => undefined);
      await admin.end();
      await sent;
      await bed.get(SettingsService).setKillSwitch(bed.admin, AGENT, { engaged: false });
    }
  });
});
