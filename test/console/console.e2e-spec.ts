import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Page } from 'playwright-core';
import { ConsoleBrowser, ImageElement, startBrowser } from '../support/browser';
import {
  anthropicComputer,
  anthropicTool,
  FakeProvider,
  startFakeProvider,
} from '../support/fake-provider';
import { corruptIdat } from '../support/crafted-png';
import { isEnded, startStack, Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * The console in a real browser (Debian's chromium through playwright-core) against the real API,
 * worker, PostgreSQL, Redis and an HTTPS sim screen host. Each page is saved as a screenshot under
 * artifacts/console/ for a person to look at.
 */

// The browser's names, used only in callbacks that run inside the page: this file is compiled
// without the DOM types.
declare const document: any, sessionStorage: any, localStorage: any, requestAnimationFrame: any;

const COMMAND = { role: 'textbox', name: 'Command field' };
/** One held write: a click on the toolbar's Save button (a committing verb), then done. */
const SAVE_CLICK = {
  steps: [
    { step: 'save', action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    { action: { action: 'done', summary: 'saved' } },
  ],
};
/** A read (focus the command field), then a held write: typing `text` into it. */
const typeInto = (text: string) => ({
  steps: [
    { action: { action: 'click', element: COMMAND } },
    { step: 'the write', action: { action: 'type', text } },
    { action: { action: 'done', summary: 'typed' } },
  ],
});
const TYPE_COMMAND = typeInto('/nVA03');
/** Longer than any line of the page, with a tab in it. */
const LONG_TEXT =
  'Delivery note for order 4711: deliver on working days between 7 am and 3 pm to ramp 3, ' +
  'gate 7, and call the day before.\tContact at goods receipt: Ms Weber. Pallets no higher ' +
  'than 1.80 m; two copies of the delivery note with every pallet, please. Thank you!';
/**
 * A line that presses Enter at its end. (Text after a newline is refused: it lands on a screen
 * nobody judged it on.)
 */
const LINES_TEXT = 'Ship to: Weber GmbH, ramp 3, gate 7\t70173 Stuttgart\n';

describe('the console', () => {
  let stack: Stack;
  let browser: ConsoleBrowser;
  let saveClick: string;
  let typeCommand: string;
  let fake: FakeProvider;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${process.pid}`;

  beforeAll(async () => {
    // A model planner's key variable, for the transcript test: the worker reads it at start.
    process.env[keyEnv] = `sk-ant-test-${'k'.repeat(32)}`;
    fake = await startFakeProvider();
    stack = await startStack();
    await stack.grant(keyEnv, fake.url);
    saveClick = await stack.planner(SAVE_CLICK);
    typeCommand = await stack.planner(TYPE_COMMAND);
    browser = await startBrowser(stack.api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  beforeEach(async () => {
    await stack.sim.reset();
    await stack.configure({ planner: saveClick });
  });

  afterEach(async () => {
    // No run may keep the screen host's lease into the next test.
    const runs = await stack.api.request('GET', '/api/computer-use/runs?limit=200', {
      token: stack.tokens.operator,
    });
    for (const run of runs.body.items) {
      if (isEnded(run)) continue;
      await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
        token: stack.tokens.operator,
      });
    }
  });

  const tab = () => browser.tab();
  const signIn = (page: Page, token: string, subject: string) =>
    browser.signIn(page, token, subject);
  const shot = (page: Page, name: string) => browser.shot(page, name);

  async function heldRun(planner = saveClick): Promise<{ id: string; approval: any }> {
    await stack.configure({ planner });
    const run = await stack.start('change order 4711');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    return { id: run.id, approval: held.pending_approval };
  }

  /** The screen host's own outline: where its elements really are. */
  async function hostElement(name: string) {
    const answer = await stack.sim.call('GET', '/elements');
    const elements = JSON.parse(answer.body.toString()) as Array<{ name: string; rect: any }>;
    return elements.find((e) => e.name === name)!;
  }

  it('signs in with a token, says who and what they may do, and shows only that', async () => {
    const page = await tab();
    await page.goto(`${stack.api.url}/console`);
    await page.getByRole('heading', { name: 'Sign in to the Warden console' }).waitFor();
    await shot(page, 'signin');

    await page.getByLabel('API token').fill('wdn_' + 'x'.repeat(43));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /does not accept this token/,
    );

    await page.getByLabel('API token').fill(stack.tokens.approver);
    await page.keyboard.press('Enter');
    await page.locator('.who-subject', { hasText: 'bob' }).waitFor();
    await expect(page.locator('#who').textContent()).resolves.toMatch(
      /bob in tenant acme.*May approve held writes/,
    );
    const nav = await page.getByRole('navigation', { name: 'Console pages' }).textContent();
    expect(nav).toBe('Approvals');
    expect(new URL(page.url()).pathname).toBe('/console/approvals');
    // The token stays in this tab only.
    const stored = await page.evaluate(() => ({
      session: Object.values(sessionStorage),
      local: Object.keys(localStorage).length,
    }));
    expect(stored).toEqual({ session: [stack.tokens.approver], local: 0 });

    // A page the token's permissions do not allow says so and shows nothing of it.
    await page.goto(`${stack.api.url}/console/audit`);
    await page.getByRole('heading', { name: 'Audit: not for this token' }).waitFor();

    const auditor = await tab();
    await signIn(auditor, stack.tokens.auditor, 'aud');
    expect(await auditor.getByRole('navigation', { name: 'Console pages' }).textContent()).toBe(
      'RunsAudit',
    );
    await auditor.getByRole('button', { name: 'Sign out' }).click();
    await auditor.getByRole('heading', { name: 'Sign in to the Warden console' }).waitFor();
    expect(await auditor.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
    await auditor.close();
  });

  it('serves the console with a CSP that allows no inline script', async () => {
    const html = await stack.api.request('GET', '/console/approvals');
    expect(html.status).toBe(200);
    const csp = html.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(html.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    // The address people type, with or without its last slash.
    const typed = await stack.api.request('GET', '/console/');
    expect(typed.status).toBe(200);
    expect(typed.text).toBe(html.text);
    const script = await stack.api.request('GET', '/console/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await stack.api.request('GET', '/console/assets/tsconfig.json')).status).toBe(404);
    expect((await stack.api.request('GET', '/console/assets/..%2Fconsole.module.ts')).status).toBe(
      404,
    );
  });

  it('shows a held write in the inbox within 2 s, and the marker where the click lands', async () => {
    const page = await tab();
    await signIn(page, stack.tokens.approver, 'bob');
    await page.getByText('Nothing is waiting for approval.').waitFor();

    const { approval } = await heldRun();
    const save = await hostElement('Save');
    expect(approval.action).toMatchObject({
      action: 'click',
      x: save.rect.x + Math.floor(save.rect.width / 2),
      y: save.rect.y + Math.floor(save.rect.height / 2),
    });
    const link = page.getByRole('link', { name: 'Click “Save”' });
    await link.waitFor({ timeout: 2000 });

    const item = page.locator(`[data-approval-id="${approval.id}"]`);
    // The goal comes from the run, fetched once the row is there; with it the title names the
    // system. No point on the screen in it: the screenshot shows where.
    await item.getByText('“change order 4711”').waitFor();
    const words = 'SAP GUI (sim) · Click “Save”';
    await expect(link.textContent()).resolves.toBe(words);
    const text = await item.textContent();
    expect(text).toContain('sap-orders');
    expect(text).toContain('“change order 4711”');
    expect(text).toMatch(/Step1/);
    expect(text).toContain('click on “Save” (from the screen outline)');
    expect(text).toMatch(/Waiting\d+ s ago/);
    expect(text).toMatch(/Expiresin (59 min|1 h)May decide now/);
    // An agent that names no approvers: anyone with agents.approve decides (approver groups).
    expect(text).toMatch(/May decide nowanyone with agents\.approveEscalationnot escalated$/);
    await item.locator('img.screen-img[src]').evaluate((img: ImageElement) => img.decode());
    await shot(page, 'inbox');

    await link.click();
    await page.getByRole('heading', { level: 1, name: words, exact: true }).waitFor();
    await expect(page.title()).resolves.not.toMatch(/\d+, \d+/);
    const check = async () => {
      const img = page.locator('.held-screen img.screen-img');
      await img.evaluate((el: ImageElement) => el.decode());
      const box = (await img.boundingBox())!;
      // The click lands on the host's Save button (the action is in the host's coordinate space:
      // the step's width and height, 1280 x 800); the red frame goes around the button, outside
      // it, so that nothing of it is covered.
      const marker = page.locator('.held-screen .marker-framed');
      await expect(marker.getAttribute('data-x')).resolves.toBe(String(approval.action.x));
      await expect(marker.getAttribute('data-y')).resolves.toBe(String(approval.action.y));
      const button = save.rect;
      const sx = box.width / 1280;
      const sy = box.height / 800;
      const target = {
        left: box.x + button.x * sx,
        top: box.y + button.y * sy,
        right: box.x + (button.x + button.width) * sx,
        bottom: box.y + (button.y + button.height) * sy,
      };
      // Placed for the size the picture is shown at (a resize observer): after the next frames.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      // The white halo's inner edge (3 px inside the line) is clear of the button on every side.
      const line = (await marker.locator('rect.ring').boundingBox())!;
      expect({
        left: line.x + 3 <= target.left - 0.5,
        top: line.y + 3 <= target.top - 0.5,
        right: line.x + line.width - 3 >= target.right + 0.5,
        bottom: line.y + line.height - 3 >= target.bottom + 0.5,
      }).toEqual({ left: true, top: true, right: true, bottom: true });
      expect(line.x + line.width).toBeLessThan(target.right + 12);
      // Readable without scrolling sideways.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      return box;
    };
    const wide = await check();
    expect(wide.width).toBeLessThan(1280); // shown scaled down, and the marker scaled with it
    await page.setViewportSize({ width: 900, height: 800 });
    const narrow = await check();
    expect(narrow.width).toBeLessThan(wide.width);
    await page.setViewportSize({ width: 1366, height: 768 });
    await check();
    await shot(page, 'approval-laptop');
    await page.setViewportSize({ width: 1280, height: 800 });
    await check();
    await expect(page.locator('.held-screen figcaption').textContent()).resolves.toContain(
      `x ${approval.action.x}, y ${approval.action.y} on the 1280 × 800 screen`,
    );
    await shot(page, 'approval');
    await page.close();
  });

  it('approves, lets an operator resume from the same page, and the run view shows the step sent', async () => {
    const { id, approval } = await heldRun();
    const bob = await tab();
    await signIn(bob, stack.tokens.approver, 'bob');
    await bob.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    await bob.getByLabel('Comment (optional)').fill('Checked with the customer.');
    await bob.getByRole('button', { name: 'Approve' }).click();
    await bob.getByText('You approved this write.').waitFor();
    await expect(bob.locator('#standing').textContent()).resolves.toMatch(
      /Approved by bob .*Comment: “Checked with the customer.”.*an operator must resume/,
    );

    // Follows the run live while it waits and after it moves on.
    const auditor = await tab();
    await signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.goto(`${stack.api.url}/console/runs/${id}`);
    const step1 = auditor.locator('li.step[data-step="1"]');
    await expect(step1.locator('.outcome').textContent()).resolves.toBe('held for approval');

    // olga started the run, so four-eyes keeps her from approving, but she may resume it.
    const olga = await tab();
    await signIn(olga, stack.tokens.both, 'olga');
    await olga.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    await olga.getByRole('button', { name: 'Resume the run: send this write' }).click();
    await olga.getByText(/^Sent: step 1 \(Click “Save”\) was carried out/).waitFor();
    // The page then says what was sent, by whose decision, and shows the screen after it.
    const sent = olga.locator('.after-sent');
    await sent.locator('.after-screen img.screen-img[src]').waitFor();
    await expect(sent.locator('.sent-what').textContent()).resolves.toMatch(
      /^Warden sent Click “Save” \(step 1\), approved by bob, resumed by olga at [\d-]+ [\d:]+\./,
    );
    await expect(sent.locator('figcaption').textContent()).resolves.toBe(
      'The screen after it was sent: what step 2 saw.',
    );
    await expect(olga.locator('.why-title').first().textContent()).resolves.toBe(
      'Why Warden held it',
    );
    // Above the screen it was approved on.
    const order = await olga.evaluate(() => {
      const after = document.querySelector('.after-sent').getBoundingClientRect();
      const held = document.querySelector('.held-screen').getBoundingClientRect();
      return after.bottom <= held.top;
    });
    expect(order).toBe(true);
    await sent.locator('.after-screen img.screen-img').evaluate((el: ImageElement) => el.decode());
    await shot(olga, 'approval-resumed');

    await auditor
      .locator('li.step[data-step="1"][data-outcome="sent_after_approval"]')
      .waitFor({ timeout: 5000 });
    await expect(step1.locator('.outcome').textContent()).resolves.toBe('sent after approval');
    await auditor.locator('.status-completed').waitFor({ timeout: 10_000 });
    await expect(step1.textContent()).resolves.toMatch(
      /Step 1 Click “Save”write.*click on “Save” \(from the screen outline\)/,
    );
    // The point on the screen is in the step's details, not its heading.
    await expect(step1.locator('h3').textContent()).resolves.not.toMatch(/\d+, \d+/);
    await expect(step1.locator('.facts').textContent()).resolves.toMatch(
      /Exact action\{.*"x":\d+.*"y":\d+/,
    );
    await expect(step1.textContent()).resolves.toContain('no model call (scripted planner)');
    // The film names the people: who approved, when, with which comment, who resumed; and links
    // to the approval.
    const decided = step1.locator('a.step-approval');
    await expect(decided.textContent()).resolves.toMatch(
      /^approved by bob at [\d-]+ [\d:]+ \(“Checked with the customer\.”\); resumed by olga at [\d-]+ [\d:]+$/,
    );
    await expect(decided.getAttribute('href')).resolves.toBe(`/console/approvals/${approval.id}`);
    await expect(auditor.locator('.run-header').textContent()).resolves.toMatch(
      /completed: the planner finished the goal/,
    );
    const run = await stack.run(id);
    expect(run.steps[0]).toMatchObject({ outcome: 'sent_after_approval' });
    await step1.getByRole('button', { name: 'Show the screen of step 1 larger' }).click();
    await step1
      .locator('.step-large img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await shot(auditor, 'run');
    await step1.locator('.step-large').evaluate((el) => el.scrollIntoView());
    await shot(auditor, 'run-step-open');

    // The audit view lists the run's events in order, the chain checks out, and it exports.
    await auditor.getByRole('link', { name: 'Events of this run' }).click();
    await auditor.getByRole('heading', { name: 'Audit log' }).waitFor();
    await expect(auditor.getByLabel('Run id').inputValue()).resolves.toBe(id);
    await auditor.locator('table.audit tbody tr').first().waitFor();
    const types = await auditor
      .locator('table.audit tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')));
    expect(types).toEqual([
      'computer_use.start',
      'computer_use.write.held',
      'approval.decided',
      'computer_use.write',
      // What the application said after it, once the screen settled.
      'computer_use.write.receipt',
      'computer_use.end',
    ]);
    // The write's row says on whose authority it went.
    await expect(
      auditor.locator('table.audit tbody tr[data-type="computer_use.write"]').textContent(),
    ).resolves.toContain('approved by bob, resumed by olga');
    await auditor.getByRole('button', { name: 'Check the hash chain' }).click();
    await expect(auditor.locator('.chain-ok').textContent({ timeout: 5000 })).resolves.toMatch(
      /^Chain ok: all \d+ events of tenant acme are intact/,
    );
    const download = auditor.waitForEvent('download');
    await auditor.getByRole('button', { name: 'Export as NDJSON' }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => e.type)).toEqual(types);
    expect(lines.every((e) => e.run_id === id)).toBe(true);
    await auditor.getByText('Exported 6 events').waitFor();
    expect(await auditor.getByRole('button', { name: 'Load more events' }).isVisible()).toBe(false);
    await shot(auditor, 'audit');

    await bob.close();
    await olga.close();
    await auditor.close();
  });

  it('rejects: the run ends without acting', async () => {
    const { id, approval } = await heldRun();
    const bob = await tab();
    await signIn(bob, stack.tokens.approver, 'bob');
    await bob.getByRole('link', { name: /Click “Save”/ }).click();
    await bob.getByLabel('Comment (optional)').fill('Wrong order.');
    await bob.getByRole('button', { name: 'Reject' }).click();
    await bob
      .getByText('You rejected this write. Nothing was sent, and the run stopped.')
      .waitFor();
    await expect(bob.locator('#standing').textContent()).resolves.toMatch(
      /^Rejected by bob at .*\. Comment: “Wrong order\.” Nothing was sent; the run stopped\.$/,
    );
    const run = await stack.run(id);
    expect(run).toMatchObject({ status: 'stopped', end_reason: 'rejected' });
    const sent = (await stack.sim.events()).filter((e) => e.type === 'action');
    expect(sent).toEqual([]);
    await bob.goto(`${stack.api.url}/console/approvals`);
    await bob.getByText('Nothing is waiting for approval.').waitFor();
    expect(await bob.locator(`[data-approval-id="${approval.id}"]`).count()).toBe(0);
    await bob.close();
  });

  it('puts Approve and Reject in the first screen at 1280×800, and at the bottom of a phone', async () => {
    const { approval } = await heldRun();
    const bob = await tab();
    await signIn(bob, stack.tokens.approver, 'bob');
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ]) {
      await bob.setViewportSize({ width, height });
      await bob.goto(`${stack.api.url}/console/approvals/${approval.id}`);
      for (const name of ['Approve', 'Reject']) {
        const box = (await bob.getByRole('button', { name }).boundingBox())!;
        // Wholly on the first screen, without scrolling.
        expect({ name, width, top: box.y >= 0, bottom: box.y + box.height <= height }).toEqual({
          name,
          width,
          top: true,
          bottom: true,
        });
      }
      if (width === 390) {
        // Scrolled to the end of the page, they are still there, at the bottom, over nothing.
        await bob.evaluate('window.scrollTo(0, document.body.scrollHeight)');
        const box = (await bob.getByRole('button', { name: 'Approve' }).boundingBox())!;
        expect(box.y + box.height).toBeGreaterThan(height - 80);
        expect(box.y + box.height).toBeLessThanOrEqual(height);
        await shot(bob, 'approval-phone');
      }
    }
    await bob.close();
  });

  it('says before anyone presses it that four-eyes keeps the run starter from approving', async () => {
    const { id, approval } = await heldRun();
    const olga = await tab();
    await signIn(olga, stack.tokens.both, 'olga');
    await olga.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    const approve = olga.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    // Disabled, with the reason as its description, in the words of the refusal it would meet;
    // rejecting stays open to her.
    expect(await approve.isDisabled()).toBe(true);
    const why = olga.locator('#approve-why-not');
    await expect(why.textContent()).resolves.toBe(
      'You cannot approve this write. Four-eyes rule: olga started this run, so someone else must approve its writes. Ask another approver; you may still reject it.',
    );
    expect(await approve.getAttribute('aria-describedby')).toBe('approve-why-not');
    expect(await olga.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(false);
    // The API says the same to her, and refuses the approval as the page said it would.
    const view = await stack.api.request('GET', `/api/approvals/${approval.id}`, {
      token: stack.tokens.both,
    });
    expect(view.body.for_you).toEqual({
      approve: 'olga started this run, so someone else must approve its writes',
      reject: null,
    });
    const refused = await stack.api.request('POST', `/api/approvals/${approval.id}/approve`, {
      token: stack.tokens.both,
      json: {},
    });
    expect(refused.status).toBe(403);
    const bobView = await stack.api.request('GET', `/api/approvals/${approval.id}`, {
      token: stack.tokens.approver,
    });
    expect(bobView.body.for_you).toEqual({ approve: null, reject: null });
    await shot(olga, 'four-eyes');
    expect((await stack.run(id)).status).toBe('awaiting_approval');
    await olga.close();
  });

  it('says so in plain words when the screen changed before the resume (stale)', async () => {
    const { id, approval } = await heldRun();
    await stack.api.request('POST', `/api/approvals/${approval.id}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    await stack.sim.poke('Order 4711 is being processed by another user');
    const olga = await tab();
    await signIn(olga, stack.tokens.both, 'olga');
    await olga.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    await olga.getByRole('button', { name: 'Resume the run: send this write' }).click();
    await expect(
      olga.getByRole('alert').filter({ hasText: 'Not sent' }).textContent(),
    ).resolves.toMatch(
      /^Not sent: the screen changed after approval \(.+\)\. Warden stopped the run \(stale screen\) without clicking or typing anything\.$/,
    );
    await expect(olga.locator('#standing').textContent()).resolves.toMatch(
      /It was not sent: the screen had changed since it was approved/,
    );
    expect(await stack.run(id)).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    await shot(olga, 'stale');
    await olga.close();
  });

  it('shows where pixels moved by themselves while a write was held (the check leaves them out)', async () => {
    await stack.sim.blink(true);
    try {
      const held = await heldRun(typeCommand);
      // The mask is learnt after the hold, while the approval is open.
      const approval = await until('the mask learnt', async () => {
        const answer = await stack.api.request('GET', `/api/approvals/${held.approval.id}`, {
          token: stack.tokens.approver,
        });
        return answer.body.volatile_mask === 'learning' ? null : answer.body;
      });
      expect(approval.volatile_mask).toBe('learnt');
      expect(approval.volatile_pixels).toBeGreaterThan(0);
      expect(approval.volatile_regions.rects.length).toBeGreaterThan(0);
      const bob = await tab();
      await signIn(bob, stack.tokens.approver, 'bob');
      await bob.goto(`${stack.api.url}/console/approvals/${approval.id}`);
      await bob.getByRole('heading', { level: 1, name: /“\/nVA03”/ }).waitFor();
      const regions = bob.locator('.held-screen .volatile-region');
      await regions.first().waitFor({ state: 'attached' });
      expect(await regions.count()).toBe(approval.volatile_regions.rects.length);
      // The caret blinks in the command field: the hatched area lies in it.
      const field = (await hostElement('Command field')).rect;
      const drawn = await regions.first().evaluate((el) => ({
        x: Number(el.getAttribute('x')),
        y: Number(el.getAttribute('y')),
      }));
      expect(drawn.x).toBeGreaterThanOrEqual(field.x);
      expect(drawn.x).toBeLessThanOrEqual(field.x + field.width);
      expect(drawn.y).toBeGreaterThanOrEqual(field.y);
      expect(drawn.y).toBeLessThanOrEqual(field.y + field.height);
      await bob.getByText('More about this action').click();
      await expect(bob.locator('.more').textContent()).resolves.toMatch(
        /hatched on the screenshot/,
      );
      await bob.close();
    } finally {
      await stack.sim.blink(false);
    }
  });

  it('outlines the field a held typing goes into, and shows the earlier steps', async () => {
    const { approval } = await heldRun(typeCommand);
    const bob = await tab();
    await signIn(bob, stack.tokens.approver, 'bob');
    await bob.getByRole('link', { name: /“\/nVA03”/ }).click();
    await bob.getByRole('heading', { level: 1, name: /“\/nVA03”/ }).waitFor();
    const outline = bob.locator('.held-screen .field-outline');
    await outline.waitFor({ state: 'attached' });
    const drawn = await outline.evaluate((el) => ({
      x: Number(el.getAttribute('data-x')),
      y: Number(el.getAttribute('data-y')),
      width: Number(el.getAttribute('data-width')),
      height: Number(el.getAttribute('data-height')),
    }));
    // Found in the pixels; the host's own outline says where the field really is.
    const field = (await hostElement('Command field')).rect;
    expect(Math.abs(drawn.x - field.x)).toBeLessThanOrEqual(2);
    expect(Math.abs(drawn.y - field.y)).toBeLessThanOrEqual(2);
    expect(Math.abs(drawn.height - field.height)).toBeLessThanOrEqual(3);
    // The field's drop-down button is part of the field on screen but not of the text area.
    expect(drawn.width).toBeGreaterThan(field.width * 0.8);
    expect(drawn.width).toBeLessThanOrEqual(field.width + 3);
    await expect(bob.locator('.held-screen figcaption').textContent()).resolves.toContain(
      'Types the 6-character text into the field “Command field” clicked in step 1',
    );
    await expect(bob.locator('.held-screen .screen-badge').textContent()).resolves.toBe(
      'Type “/nVA03”',
    );
    await bob
      .locator('.held-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await bob.locator('.closeup .field-outline').waitFor({ state: 'attached' });
    await shot(bob, 'approval-type');
    const strip = bob.locator('.strip-item');
    expect(await strip.count()).toBe(1);
    await expect(strip.textContent()).resolves.toContain('1 Click “Command field”');
    await strip.click();
    await expect(strip.getAttribute('aria-pressed')).resolves.toBe('true');
    await bob
      .locator('.step-viewer img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await bob.locator('.step-viewer').evaluate((el) => el.scrollIntoView());
    await shot(bob, 'approval-earlier-step');
    expect(approval.action).toEqual({ action: 'type', text: '/nVA03' });
    await bob.close();
  });

  /** The held typing's text as the page shows it: its characters, marks and lines. */
  async function typedOnPage(page: Page, selector: string) {
    const typed = page.locator(selector).first();
    return typed.evaluate((el) => ({
      text: el.textContent as string,
      lines: (el.innerText as string).split('\n'),
      marks: [...el.querySelectorAll('.typed-mark')].map((m: any) => [m.textContent, m.title]),
      // Rendered line boxes: more than one means the text wraps or breaks, rather than being cut.
      boxes: el.getClientRects().length,
      fits:
        el.closest('h1, h2, h3, .strip-caption').scrollWidth <=
        el.closest('h1, h2, h3, .strip-caption').clientWidth,
    }));
  }

  it('shows a long typed text with a tab in full, with its mark, where people decide', async () => {
    expect([...LONG_TEXT].length).toBeGreaterThan(200);
    const { approval } = await heldRun(await stack.planner(typeInto(LONG_TEXT)));
    expect(approval.action).toEqual({ action: 'type', text: LONG_TEXT });
    const shownText = LONG_TEXT.replace('\t', '⇥');
    const bob = await tab();
    await signIn(bob, stack.tokens.approver, 'bob');

    // The inbox: the whole text is the waiting action's title.
    const item = bob.locator(`[data-approval-id="${approval.id}"]`);
    // Once its run is read, the title names the system.
    await item.locator('img.screen-img').waitFor();
    await expect(
      typedOnPage(bob, `[data-approval-id="${approval.id}"] h2 .typed`),
    ).resolves.toEqual({
      text: shownText,
      lines: [shownText],
      marks: [['⇥', 'tab']],
      boxes: expect.any(Number),
      fits: true,
    });
    await expect(item.locator('h2').textContent()).resolves.toBe(
      `SAP GUI (sim) · Type “${shownText}”`,
    );

    // The approval page: in full in the heading, wrapped on the page, with nothing cut.
    await item.getByRole('link').first().click();
    const heading = bob.getByRole('heading', { level: 1 });
    await heading.waitFor();
    await expect(heading.textContent()).resolves.toBe(`SAP GUI (sim) · Type “${shownText}”`);
    const onPage = await typedOnPage(bob, 'h1 .typed');
    expect(onPage).toMatchObject({ text: shownText, marks: [['⇥', 'tab']], fits: true });
    expect(onPage.boxes).toBeGreaterThan(1);
    await expect(bob.locator('main').textContent()).resolves.not.toContain('…');
    // The screenshot's label has no room for it: it says how long it is, never a cut text.
    await expect(bob.locator('.held-screen .screen-badge').textContent()).resolves.toBe(
      `Type ${[...LONG_TEXT].length} characters`,
    );
    await bob.getByText('More about this action').click();
    await expect(bob.locator('.more code').first().textContent()).resolves.toBe(
      JSON.stringify(approval.action),
    );
    await bob
      .locator('.held-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await bob.getByText('More about this action').click();
    await bob.evaluate(() => document.scrollingElement.scrollTo(0, 0));
    await shot(bob, 'approval-long-text');
    const overflow = await bob.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await bob.close();
  });

  it('shows a typed text that ends in a newline with its line break, each key marked', async () => {
    const { id, approval } = await heldRun(await stack.planner(typeInto(LINES_TEXT)));
    const lines = ['Ship to: Weber GmbH, ramp 3, gate 7⇥70173 Stuttgart↵', ''];
    const bob = await tab();
    await signIn(bob, stack.tokens.approver, 'bob');
    await bob.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    await bob.getByRole('heading', { level: 1 }).waitFor();
    const onPage = await typedOnPage(bob, 'h1 .typed');
    expect(onPage).toMatchObject({
      text: LINES_TEXT.replace('\t', '⇥').replace('\n', '↵\n'),
      lines,
      marks: [
        ['⇥', 'tab'],
        ['↵', 'newline'],
      ],
      fits: true,
    });
    expect(onPage.boxes).toBeGreaterThanOrEqual(1);
    await bob
      .locator('.held-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await shot(bob, 'approval-newlines');
    await bob.close();

    // The run view shows the same, for the held step.
    const auditor = await tab();
    await signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.goto(`${stack.api.url}/console/runs/${id}`);
    await auditor.locator('li.step[data-step="2"] h3 .typed').waitFor();
    await expect(typedOnPage(auditor, 'li.step[data-step="2"] h3 .typed')).resolves.toMatchObject({
      lines,
      fits: true,
    });
    await auditor.close();
  });

  it('can be used by keyboard alone', async () => {
    const { approval } = await heldRun();
    const page = await tab();
    await page.goto(`${stack.api.url}/console`);
    await page.getByLabel('API token').focus();
    await page.keyboard.type(stack.tokens.approver);
    await page.keyboard.press('Enter');
    await page.locator('.who-subject', { hasText: 'bob' }).waitFor();
    // Focus moves to the page's heading, then Tab reaches the waiting action's link.
    const link = page.getByRole('link', { name: /Click “Save”/ });
    await link.waitFor();
    for (let i = 0; i < 20; i++) {
      if (await link.evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /Click “Save”/ }).waitFor();
    await page.getByLabel('Comment (optional)').focus();
    await page.keyboard.type('By keyboard.');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Approve (an operator sends it)',
    );
    await page.keyboard.press('Enter');
    await page.getByText('You approved this write.').waitFor();
    const decided = await stack.api.request('GET', `/api/approvals/${approval.id}`, {
      token: stack.tokens.approver,
    });
    expect(decided.body).toMatchObject({ status: 'approved', comment: 'By keyboard.' });
    // Every image has a text alternative; every field a label.
    const unlabelled = await page.evaluate(() => [
      ...[...document.querySelectorAll('img')]
        .filter((i) => !i.hasAttribute('alt'))
        .map((i) => i.outerHTML),
      ...[...document.querySelectorAll('input, textarea, select')]
        .filter((f) => !f.labels?.length && !f.getAttribute('aria-label'))
        .map((f) => f.outerHTML),
    ]);
    expect(unlabelled).toEqual([]);
    await page.close();
  });

  it("shows a model-planned step's transcript in the run view, as text", async () => {
    await stack.configure({
      planner: {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        api_key_env: keyEnv,
        base_url: fake.url,
      },
    });
    fake.script([
      anthropicComputer({ action: 'key', text: 'Tab' }),
      anthropicTool('done', { summary: 'looked <b>around</b>' }),
    ]);
    const run = await stack.start('look around');
    const done = await stack.waitFor(run.id, isEnded);
    expect(done.steps.map((st: any) => st.outcome)).toEqual(['sent', 'ended']);

    const auditor = await tab();
    await signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.goto(`${stack.api.url}/console/runs/${run.id}`);
    const step1 = auditor.locator('li.step[data-step="1"]');
    await step1.getByText('Model transcript').click();
    const call = step1.locator('.model-call');
    await call.getByRole('heading', { name: 'Call 1: anthropic claude-sonnet-4-5' }).waitFor();
    const transcript = await stack.api.request(
      'GET',
      `/api/computer-use/runs/${run.id}/steps/1/transcript`,
      { token: stack.tokens.auditor },
    );
    const [sent] = transcript.body.calls;
    await expect(call.locator('dl').textContent()).resolves.toBe(
      `Tokens${sent.input_tokens} in / ${sent.output_tokens} out` +
        `Cost${sent.cost_usd === null ? 'unknown' : `$${sent.cost_usd.toFixed(4)}`}` +
        `Latency${sent.latency_ms} msAttempts1`,
    );
    await call.getByText('The answer').click();
    await expect(call.locator('pre').first().textContent()).resolves.toBe(
      JSON.stringify(sent.answer, null, 2),
    );
    // The last step's answer holds markup: it is shown as text, never parsed as HTML.
    const step2 = auditor.locator('li.step[data-step="2"]');
    await step2.getByText('Model transcript').click();
    await step2.getByText('The answer').click();
    await expect(step2.locator('pre').first().textContent()).resolves.toContain(
      'looked <b>around</b>',
    );
    expect(await step2.locator('pre b').count()).toBe(0);
    await shot(auditor, 'run-transcript');
    await auditor.close();
  });

  it('lets an admin pause every agent of the tenant with a reason, and resume them', async () => {
    const page = await tab();
    await signIn(page, stack.tokens.admin, 'ada');
    expect(await page.getByRole('navigation', { name: 'Console pages' }).textContent()).toBe(
      'Admin',
    );
    await page.getByRole('link', { name: 'Admin' }).click();
    // The agents of the config in force, one row each, with what they run on.
    const agent = page.locator('#inventory tr[data-agent="sap-orders"]');
    await agent.waitFor();
    await expect(agent.locator('th').textContent()).resolves.toBe('sap-orders');
    await expect(agent.textContent()).resolves.toContain(stack.sim.url);
    await expect(agent.textContent()).resolves.toContain('every write');
    // The planner catalog: the navigator listed, not available to ada, and why.
    const navigator = page.locator(
      '#planner-catalog tr[data-planner="navigator-2026-11-10-normal"]',
    );
    await navigator.waitFor();
    await expect(navigator.locator('td').nth(1).textContent()).resolves.toBe('no');
    await expect(navigator.textContent()).resolves.toContain(
      'is not public: it is available only to subjects tagged researcher (subject ada is not)',
    );
    // The switch's words come with the state, loaded after the page.
    await page.getByRole('button', { name: 'Pause every agent' }).waitFor();
    await expect(page.locator('#pause-state').textContent()).resolves.toMatch(/^Not paused/);
    await page.getByLabel('Reason').fill('quarter close');
    await page.getByRole('button', { name: 'Pause every agent' }).click();
    await page.getByRole('button', { name: 'Resume every agent' }).waitFor();
    await expect(page.locator('#pause-state').textContent()).resolves.toMatch(
      /^Paused.*quarter close.*ada/,
    );
    const paused = await stack.api.request('GET', '/api/admin/pause', {
      token: stack.tokens.admin,
    });
    expect(paused.body).toMatchObject({ paused: true, reason: 'quarter close', updated_by: 'ada' });
    await shot(page, 'admin-paused');
    await page.getByRole('button', { name: 'Resume every agent' }).click();
    await page.getByRole('button', { name: 'Pause every agent' }).waitFor();
    const resumed = await stack.api.request('GET', '/api/admin/pause', {
      token: stack.tokens.admin,
    });
    expect(resumed.body.paused).toBe(false);
    // The page's own address loads it too.
    await page.goto(`${stack.api.url}/console/admin`);
    await page.getByRole('button', { name: 'Pause every agent' }).waitFor();
    await page.close();
  });

  it("says so over a stored screenshot whose PNG is damaged (a read's screen kept as sent)", async () => {
    const { id } = await heldRun(typeCommand);
    await stack.api.request('POST', `/api/computer-use/runs/${id}/cancel`, {
      token: stack.tokens.operator,
    });
    // Step 1 saw the screen a host whose encoder damages data under correct CRCs would have sent:
    // stored under its own SHA-256, as the worker stores a read's screen.
    const [row] = await stack.api.db.sql<{ png: Buffer; w: number; h: number; pixels: string }>(
      `SELECT s.png, s.width AS w, s.height AS h, s.pixel_sha256 AS pixels
         FROM screens s JOIN steps t ON t.screen_sha256 = s.sha256
        WHERE t.run_id = $1 AND t.n = 1`,
      [id],
    );
    const damaged = corruptIdat(row.png);
    const sha = createHash('sha256').update(damaged).digest('hex');
    await stack.api.db.sql(
      `INSERT INTO screens (tenant, sha256, png, width, height, pixel_sha256)
       VALUES ('acme', $1, $2, $3, $4, $5)`,
      [sha, damaged, row.w, row.h, row.pixels],
    );
    await stack.api.db.sql(`UPDATE steps SET screen_sha256 = $2 WHERE run_id = $1 AND n = 1`, [
      id,
      sha,
    ]);
    const auditor = await tab();
    await signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.goto(`${stack.api.url}/console/runs/${id}`);
    await auditor
      .locator('li.step[data-step="1"]')
      .getByText(/^The screen host sent a damaged screenshot: the PNG is damaged/)
      .waitFor({ timeout: 10_000 });
    await shot(auditor, 'damaged-screenshot');
    await auditor.close();
  });

  it('offers an admin "Save as routine" on a completed run, and saves it with a parameter', async () => {
    await stack.configure({ planner: typeCommand });
    const started = await stack.start('open VA03');
    await stack.approveAndResume(started.id);
    const done = await stack.waitFor(started.id, isEnded);
    expect(done.status).toBe('completed');
    // An auditor reads the run but is no admin: no button.
    const auditor = await tab();
    await signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.goto(`${stack.api.url}/console/runs/${started.id}`);
    await auditor.locator('.status-completed').waitFor({ timeout: 10_000 });
    expect(await auditor.getByRole('button', { name: 'Save as routine' }).count()).toBe(0);
    await auditor.close();

    const { token } = await stack.api.token('acme', 'ada', ['computer_use.admin', 'audit.read']);
    const page = await tab();
    await signIn(page, token, 'ada');
    await page.goto(`${stack.api.url}/console/runs/${started.id}`);
    const open = page.getByRole('button', { name: 'Save as routine' });
    await open.waitFor();
    await open.click();
    await page.getByLabel('Routine name', { exact: true }).fill('VA03 by transaction code');
    await page.getByLabel(/^Parameters, one a line/).fill('tcode = /nVA03');
    await page.getByRole('button', { name: 'Save the routine' }).click();
    const said = page.locator('.said');
    await said.getByText(/^Saved as routine scripted-/).waitFor();
    await expect(said.textContent()).resolves.toMatch(
      /^Saved as routine (scripted-[0-9a-f-]{36}) \(3 steps, parameters tcode\)\. Name it in an agent's planner to replay it\.$/,
    );
    const id = /scripted-[0-9a-f-]{36}/.exec((await said.textContent()) ?? '')![0];
    const planner = await stack.api.request('GET', `/api/planners/${id}`, { token });
    expect(planner.body.planner).toMatchObject({
      name: 'VA03 by transaction code',
      source_run_id: started.id,
      script: { parameters: ['tcode'] },
    });
    expect(planner.body.planner.script.steps[1].action).toEqual({
      action: 'type',
      text: '{{tcode}}',
    });
    // A line that names no value is refused on the page, before anything is sent (the API's
    // refusals, such as a value the run never typed, are test/runs/routine-runs.e2e-spec.ts's).
    await open.click();
    await page.getByLabel(/^Parameters, one a line/).fill('order');
    await page.getByRole('button', { name: 'Save the routine' }).click();
    await page
      .locator('[role="alert"]')
      .getByText('Not saved: line 1 is not "name = value the run typed".')
      .waitFor();
    await shot(page, 'run-save-as-routine');
    await page.close();
  });

  it('scrolls no page sideways on a phone (390×844): every page of the console', async () => {
    const { id, approval } = await heldRun();
    const all = (
      await stack.api.token('acme', 'pia', [
        'agents.approve',
        'agents.operate',
        'audit.read',
        'computer_use.admin',
      ])
    ).token;
    const page = await tab();
    await page.setViewportSize({ width: 390, height: 844 });
    /** How far the page is wider than the screen, and what sticks out past its right edge. */
    const wider = () =>
      page.evaluate(() => {
        const root = document.documentElement;
        const over = root.scrollWidth - root.clientWidth;
        const out = [...document.querySelectorAll('main *')]
          .filter((el: any) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
          .slice(0, 3)
          .map((el: any) => `${el.tagName.toLowerCase()}.${el.className}`);
        return { over: Math.max(0, over), out: over > 0 ? out : [] };
      });
    await page.goto(`${stack.api.url}/console`);
    await page.getByLabel('API token').waitFor();
    await expect(wider()).resolves.toEqual({ over: 0, out: [] });
    await signIn(page, all, 'pia');
    const pages: Array<[string, string]> = [
      ['/console/approvals', `.inbox-item[data-approval-id="${approval.id}"] img.screen-img`],
      [`/console/approvals/${approval.id}`, '.held-screen img.screen-img'],
      ['/console/runs', `tr[data-run-id="${id}"], a[href="/console/runs/${id}"]`],
      [`/console/runs/${id}`, 'li.step[data-step="1"]'],
      ['/console/audit', 'table.audit tbody tr'],
      ['/console/chat-link', 'main h1'],
      ['/console/admin', '#inventory tr[data-agent="sap-orders"]'],
    ];
    const seen: Array<{ path: string; over: number; out: string[] }> = [];
    for (const [path, ready] of pages) {
      await page.goto(`${stack.api.url}${path}`);
      await page.locator(ready).first().waitFor();
      if (path === '/console/admin') {
        await page.locator('#planner-catalog tbody tr').first().waitFor();
        await page.locator('article.governance dl').first().waitFor();
        await page.getByRole('button', { name: 'Pause every agent' }).waitFor();
      }
      seen.push({ path, ...(await wider()) });
      if (path === '/console/admin') await shot(page, 'admin-phone');
    }
    expect(seen).toEqual(pages.map(([path]) => ({ path, over: 0, out: [] })));
    await page.close();
  });

  it('had no script errors and no CSP violations on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
