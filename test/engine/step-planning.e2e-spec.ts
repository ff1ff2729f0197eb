import { randomUUID } from 'node:crypto';
import type { OutlineElement } from '../../src/computer-use/actions';
import { RunEnds } from '../../src/computer-use/engine/run-ends';
import type { StepContext } from '../../src/computer-use/engine/step-context';
import { type Judged, StepPlanning } from '../../src/computer-use/engine/step-planning.service';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host.client';
import { ScreenError } from '../../src/computer-use/pixels/pixels';
import { PlannersService } from '../../src/computer-use/planning/planners.service';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { solidScreenshot } from '../support/fake-screen-host';
import { type StageBed, startStageBed } from './stage-bed';

const SHOT = solidScreenshot(200, 200, 100);
/** A button the outline names, so that no OCR is needed to judge a click on it. */
const OUTLINE: OutlineElement[] = [
  { role: 'button', name: 'Display', rect: { x: 10, y: 10, width: 60, height: 20 } },
] as OutlineElement[];

/**
 * StepPlanning's entry points (planAndJudge, refuse) over a real PostgreSQL, a real scripted
 * planner and a fake screen host: the screen is observed and recorded before the planner is
 * asked; the answer is judged by Warden's rules; an answer the rules refuse is recorded refused
 * and audited, and a planner that cannot answer (gone, failing) or a screen that cannot be taken
 * ends the run with a clear reason. Nothing here ever sends.
 */
describe('StepPlanning', () => {
  let bed: StageBed;
  let planning: StepPlanning;

  beforeAll(async () => {
    bed = await startStageBed();
    await bed.configure();
    planning = bed.get(StepPlanning);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
    bed.host.screenshots = [SHOT];
    bed.host.outlines = [OUTLINE];
  });

  /** A run whose agent plans with `script`, at its first step (observing). */
  async function plannedBy(script: unknown): Promise<{ run: Run; step: Step; ctx: StepContext }> {
    const planner = await bed
      .get(PlannersService)
      .create(bed.admin, `spec-${randomUUID()}`, script);
    return at(planner.id);
  }

  async function at(planner: string): Promise<{ run: Run; step: Step; ctx: StepContext }> {
    const { run, steps } = await bed.run({ steps: [{ phase: 'observing' }] });
    run.agentConfig = { ...run.agentConfig, planner };
    const ctx = bed.context(run);
    ctx.agent = { ...ctx.agent, planner };
    return { run, step: steps[0], ctx };
  }

  const stepOf = async (id: string) =>
    (
      await bed.db.sql<{
        phase: string;
        outcome: string | null;
        screen_sha256: string | null;
        classification: string | null;
      }>(`SELECT phase, outcome, screen_sha256, classification FROM steps WHERE id = $1`, [id])
    )[0];

  it('records the screen before it asks the planner, then judges the answer by the rules', async () => {
    const { step, ctx } = await plannedBy({
      steps: [{ action: { action: 'click', element: { role: 'button', name: 'Display' } } }],
    });
    const judged = (await planning.planAndJudge(ctx, step)) as Judged;
    expect(judged.verdict).toMatchObject({
      classification: 'read',
      action: { action: 'click', x: 40, y: 20 },
    });
    expect(judged.screen.sha256).toBe(SHOT.pngSha256);
    expect(judged.fields).toMatchObject({ classification: 'read', screenSha256: SHOT.pngSha256 });
    // The decision is the caller's to record; the screen is recorded already.
    expect(await stepOf(step.id)).toEqual({
      phase: 'planning',
      outcome: null,
      screen_sha256: SHOT.pngSha256,
      classification: 'write', // as the spec wrote it: not yet decided
    });
    expect(bed.host.acted).toEqual([]);
  });

  it('judges an answer off the screen invalid, and records it refused and audited', async () => {
    const { run, step, ctx } = await plannedBy({
      steps: [{ action: { action: 'click', x: 5000, y: 20 } }],
    });
    const judged = (await planning.planAndJudge(ctx, step)) as Judged;
    expect(judged.verdict).toMatchObject({ classification: 'invalid', action: null });
    expect(judged.verdict.why).toEqual(expect.any(String));
    expect(judged.fields).toMatchObject({ classification: 'invalid' });

    const invalid = await planning.refuse(ctx, step, judged.fields);
    expect(invalid).toBe(1);
    expect(await stepOf(step.id)).toMatchObject({ phase: 'done', outcome: 'refused' });
    const [event] = await bed.events(run.id, 'computer_use.action.refused');
    expect(event.details).toMatchObject({ why: judged.verdict.why });
    expect(bed.host.acted).toEqual([]);
  });

  it('answers a stop, never an action, where the script cannot go on', async () => {
    const { step, ctx } = await plannedBy({
      patience: 0,
      steps: [{ when: { text: '^Never shown$' }, action: { action: 'key', key: 'Enter' } }],
    });
    const judged = (await planning.planAndJudge(ctx, step)) as Judged;
    expect(judged.verdict.action).toEqual({
      action: 'fail',
      reason: expect.stringContaining('has patience 0'),
    });
    expect(bed.host.acted).toEqual([]);
  });

  it('ends the run with a model error where the planner fails', async () => {
    const { step, ctx } = await plannedBy({ steps: [{ action: { action: 'key', key: 'Tab' } }] });
    ctx.signal = AbortSignal.abort(new Error('the worker is shutting down'));
    const thrown = await planning.planAndJudge(ctx, step).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({ reason: 'model_error' });
    expect((thrown as RunEnds).summary).toMatch(/^the planner failed: /);
    expect(bed.host.acted).toEqual([]);
  });

  it('ends the run with a model error where the agent’s planner is gone', async () => {
    const { step, ctx } = await at(`scripted-${randomUUID()}`);
    const thrown = await planning.planAndJudge(ctx, step).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({
      reason: 'model_error',
      summary: "the agent's planner is not available",
    });
    expect(bed.host.acted).toEqual([]);
  });

  it('ends the run where the screen host cannot show the screen, asking no planner', async () => {
    const { step, ctx } = await plannedBy({ steps: [{ action: { action: 'key', key: 'Tab' } }] });
    bed.host.screenshots = [new ScreenHostError('unreachable', 'connection refused')];
    const thrown = await planning.planAndJudge(ctx, step).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ reason: 'screen_host_error' });
    expect(await stepOf(step.id)).toMatchObject({ phase: 'observing', screen_sha256: null });
  });

  it('takes an undecodable screenshot again, then fails clearly with nothing sent', async () => {
    const { step, ctx } = await plannedBy({ steps: [{ action: { action: 'key', key: 'Tab' } }] });
    const broken = Buffer.from(SHOT.png);
    broken.fill(0xff, broken.indexOf('IDAT') + 4, broken.indexOf('IDAT') + 24);
    const bad = { ...SHOT, png: broken, pngSha256: 'b'.repeat(64) };
    bed.host.screenshots = [bad, bad, bad, SHOT];
    const thrown = await planning.planAndJudge(ctx, step).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ScreenError);
    expect(bed.host.screenshots).toEqual([SHOT]); // three tries, no more
    expect(await stepOf(step.id)).toMatchObject({ phase: 'observing' });
    expect(bed.host.acted).toEqual([]);
  });
});
