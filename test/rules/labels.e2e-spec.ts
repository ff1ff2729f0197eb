import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { isEnded, startSimHost, startStack, type SimHost, type Stack } from '../support/stack';
import { type Approved, runApprovingEveryWrite, saves } from '../support/approving';

/**
 * Labels fail closed (docs/rules.md), end to end: real API, worker, PostgreSQL, Redis and HTTPS sim
 * screen hosts. On a host started like `--no-elements --lang de` there is no outline, so every
 * click's label is what OCR (tesseract.js, in the worker) reads from the real pixels: an icon-only
 * button or a blank spot is "nothing could read it" and held; a text label is a read; a misread
 * committing verb is still that verb; and nothing is typed into a field labelled as a password.
 */

jest.setTimeout(180_000);

/**
 * Where things are on the German sim's screens (screen-host/src/backends/sim/sim-layout.ts): the
 * scripts aim at pixels, as a model does when the host has no outline.
 */
const DE = {
  commandField: { x: 140, y: 66 },
  saveIcon: { x: 266, y: 66 },
  /** The menu bar's "Bearbeiten" (Edit), a text label without a committing verb. */
  editMenu: { x: 106, y: 36 },
  /** The status bar's text (a message put there with the sim's test route /sim/poke). */
  statusText: { x: 60, y: 786 },
  orderField: { x: 255, y: 183 },
  reqDelivDateField: { x: 255, y: 305 },
  /** The first field of PWD's dialog, labelled "Altes Kennwort" (old password). */
  oldPasswordField: { x: 725, y: 341 },
};

const click = (at: { x: number; y: number }) => ({ action: { action: 'click', ...at } });
const type = (text: string) => ({ action: { action: 'type', text } });
const key = (k: string) => ({ action: { action: 'key', key: k } });
const done = (summary: string) => ({ action: { action: 'done', summary } });

/** The demo's VA02 run (scripts/demo.ts, VA02_EXAMPLE_SCRIPT), aimed at pixels instead of elements. */
const VA02_BY_PIXELS = {
  steps: [
    click(DE.commandField),
    type('/nVA02'),
    key('Enter'),
    click(DE.orderField),
    type('4711'),
    key('Enter'),
    click(DE.reqDelivDateField),
    type('30.04.2026'),
    click(DE.saveIcon),
    done('order 4711: Req. Deliv. Date is now 30.04.2026'),
  ],
};

describe('labels fail closed, end to end', () => {
  let stack: Stack;
  let blind: SimHost;

  /** Agent `sap-blind` on the --no-elements --lang de host, with this script as its planner. */
  async function configureBlind(script: unknown): Promise<void> {
    await stack.configure(
      { planner: await stack.planner(VA02_EXAMPLE_SCRIPT) },
      {
        'sap-blind': {
          screen_url: blind.url,
          screen_token_env: blind.tokenEnv,
          screen_tls: { fingerprint_sha256: blind.fingerprint },
          system: 'SAP GUI (sim, no outline, German)',
          max_steps: 40,
          planner: await stack.planner(script),
        },
      },
    );
  }

  beforeAll(async () => {
    stack = await startStack();
    blind = await startSimHost({ elements: false, lang: 'de' });
    await stack.grant(blind.tokenEnv, blind.url);
  });

  afterAll(async () => {
    await stack?.close();
    await blind?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
    await blind.reset();
  });

  /** What the blind host performed, as its own log says. */
  const performed = async () =>
    (await blind.events()).filter((e) => e.type === 'action').map((e) => e.action);

  /** Starts the blind agent's run and waits for its first stop: a held write or its end. */
  async function firstStop(): Promise<any> {
    const run = await stack.start('try the screen', 'sap-blind');
    return stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r), 60_000);
  }

  const reject = (approvalId: string) =>
    stack.api.request('POST', `/api/approvals/${approvalId}/reject`, {
      token: stack.tokens.approver,
      json: { comment: 'not this' },
    });

  describe('OCR labels through the engine on a --no-elements host', () => {
    it('holds a click on the icon-only Save button, which OCR reads as “H”', async () => {
      await configureBlind({ steps: [click(DE.saveIcon), done('saved')] });
      const run = await firstStop();
      expect(run.status).toBe('awaiting_approval');
      expect(run.steps[0]).toMatchObject({
        classification: 'write',
        outcome: 'held',
        why: 'click at (266, 66): nothing could read its label (OCR read only “H”, fewer than three letters), so it is a write',
      });
      expect(run.pending_approval.why).toBe(run.steps[0].why);
      expect((await reject(run.pending_approval.id)).status).toBe(200);
      expect(await stack.run(run.id)).toMatchObject({ status: 'stopped', end_reason: 'rejected' });
      expect(await performed()).toEqual([]);
    });

    it('sends a click on a text label as a read', async () => {
      await configureBlind({ steps: [click(DE.editMenu), done('looked')] });
      const run = await firstStop();
      expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
      expect(run.steps[0]).toMatchObject({
        classification: 'read',
        outcome: 'sent',
        why: 'click on “Bearbeiten” (read from the screen by OCR): no committing verb',
      });
      expect(await performed()).toEqual([{ action: 'click', ...DE.editMenu }]);
    });

    it('holds a label OCR reads as “Sichem”: it is Sichern', async () => {
      await blind.poke('Sichem');
      await configureBlind({ steps: [click(DE.statusText), done('clicked')] });
      const run = await firstStop();
      expect(run.status).toBe('awaiting_approval');
      expect(run.steps[0]).toMatchObject({
        classification: 'write',
        outcome: 'held',
        why: 'click on “Sichem” (read from the screen by OCR, taken as “Sichern”)',
      });
      await reject(run.pending_approval.id);
      expect(await performed()).toEqual([]);
    });

    it('never types into the field whose label OCR reads as “Altes Kennwort”', async () => {
      await configureBlind({
        steps: [
          click(DE.commandField),
          type('/nPWD'),
          key('Enter'),
          click(DE.oldPasswordField),
          type('geheim123'),
          done('gave up'),
        ],
      });
      const { run, held } = await runApprovingEveryWrite(stack, 'sap-blind');
      // The script stops at the typing Warden refused.
      expect(run).toMatchObject({ status: 'failed', end_reason: 'fail', invalid_actions: 1 });
      // The click into the empty field is held too: nothing could read a label there.
      expect(held.map((h) => h.n)).toEqual([1, 2, 3, 4]);
      expect(run.steps[4]).toMatchObject({
        classification: 'invalid',
        outcome: 'refused',
        why: "the focused field's label “Altes Kennwort” (read from the screen by OCR) names “Kennwort”; Warden never types into a password, PIN, TAN, one-time code, OTP or CVV field",
      });
      const typed = (await performed()).filter((a) => a.action === 'type');
      expect(typed).toEqual([{ action: 'type', text: '/nPWD' }]);
    });
  });

  describe('what failing closed costs: held writes in the VA02 run', () => {
    const report = (name: string, { run, held }: Approved) =>
      console.log(
        `${name}: ${held.length} held writes in ${run.step_count} steps\n` +
          held.map((h) => `  step ${h.n}: ${JSON.stringify(h.action)} — ${h.why}`).join('\n'),
      );

    it('the demo run (outline, English): the order is saved once, every write approved', async () => {
      await configureBlind(VA02_BY_PIXELS);
      const outcome = await runApprovingEveryWrite(stack, 'sap-orders');
      report('VA02 with an outline (the demo)', outcome);
      expect(outcome.run).toMatchObject({ status: 'completed', end_reason: 'done' });
      const saved = await saves(stack.sim);
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });
      // Typing, Enter and Save. The click into the field “Order” is a read: the outline marks it
      // a text field, and a field is not the verb (docs/rules.md).
      expect(outcome.held.map((h) => h.n)).toEqual([2, 3, 5, 6, 8, 9]);
      expect(outcome.run.steps[3]).toMatchObject({
        classification: 'read',
        outcome: 'sent',
        why: 'click on “Order” (a text field in the screen outline): focusing a field is a read',
      });
    });

    it('the same run on a --no-elements --lang de host: every action is held, the save icon too', async () => {
      await configureBlind(VA02_BY_PIXELS);
      const outcome = await runApprovingEveryWrite(stack, 'sap-blind');
      report('VA02 on a --no-elements --lang de host', outcome);
      expect(outcome.run).toMatchObject({ status: 'completed', end_reason: 'done' });
      const saved = await saves(blind);
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });
      const save = outcome.run.steps.find((s: any) => s.action?.x === DE.saveIcon.x);
      expect(save).toMatchObject({ classification: 'write', outcome: 'sent_after_approval' });
      // Empty fields, a date and an icon: nothing could read a label, so no step went unseen.
      expect(outcome.held.map((h) => h.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });
  });
});
