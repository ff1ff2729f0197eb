import { Page } from 'playwright-core';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { runApprovingEveryWrite, saves } from '../support/approving';
import { ConsoleBrowser, ImageElement, startBrowser } from '../support/browser';
import { isEnded, startStack, type Stack } from '../support/stack';

/**
 * Commit-point approval in the console: the VA02 change under `approve_at: "commit"`
 * with the two screen rules asks a person once, at Save, and the approver sees what that Save
 * stores as a table above the screenshot (in the inbox too), the changed field outlined on it.
 * The same change with the default `every_write` asks three times. Real API, worker, PostgreSQL,
 * Redis, the HTTPS sim screen host and Debian's chromium; pages are saved under artifacts/console/.
 */

jest.setTimeout(180_000);

// The browser's names, used only in callbacks that run inside the page: this file is compiled
// without the DOM types.
declare const document: any, getComputedStyle: any;

const RULES = [
  { command_field: { transactions: ['VA02', 'VA03'] } },
  { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
];
const REASON = 'VA02 typing is stored only by Save; the approver decides there';
const EVERY_WRITE = { screen_rules: RULES, reason: REASON };
const COMMIT = { approve_at: 'commit', ...EVERY_WRITE };

/** The steps a person approved: their writes were sent after approval. */
const approvedSteps = (run: any) =>
  run.steps.filter((s: any) => s.outcome === 'sent_after_approval').map((s: any) => s.n);

/** A change list's rows as the page shows them: field, before, after (with its flag), check. */
const rowsOf = (page: Page, scope: string) =>
  page.locator(`${scope} .change-list tbody tr`).evaluateAll((rows) =>
    rows.map((r: any) => ({
      field: r.querySelector('th').textContent,
      before: r.querySelector('td').textContent,
      after: r.querySelector('td.change-after').textContent,
      flag: r.querySelector('.change-flag')?.textContent ?? null,
      check: r.getAttribute('data-check'),
    })),
  );

describe('the console under commit-point approval', () => {
  let stack: Stack;
  let browser: ConsoleBrowser;
  let va02: string;

  beforeAll(async () => {
    stack = await startStack();
    va02 = await stack.planner(VA02_EXAMPLE_SCRIPT);
    browser = await startBrowser(stack.api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  /** The screen host's own outline of its current screen: where a text field really is. */
  async function hostField(name: string) {
    const answer = await stack.sim.call('GET', '/elements');
    const elements = JSON.parse(answer.body.toString()) as Array<{
      role: string;
      name: string;
      rect: any;
    }>;
    return elements.find((e) => e.role === 'textbox' && e.name === name)!;
  }

  it('every_write, with the two screen rules: three approvals (Order, date, Save)', async () => {
    await stack.configure({ planner: va02, ...EVERY_WRITE });
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(held.map((h) => h.n)).toEqual([5, 8, 9]);
    expect(approvedSteps(run)).toEqual([5, 8, 9]);
    // The typing is held on its own; the Save lists what those approved edits leave it to store.
    expect(held.map((h) => h.changes === null)).toEqual([true, true, false]);
    expect(held[2].changes!.map((c: any) => [c.field, c.after, c.read_back_check, c.step])).toEqual(
      [
        ['Order', '4711', 'earlier', 5],
        ['Req. Deliv. Date', '30.04.2026', 'same', 8],
      ],
    );
    // Its why is the rules' alone: nothing was staged.
    expect(held[2].why).toBe('click on “Save” (from the screen outline)');
    expect(await saves(stack.sim)).toHaveLength(1);
  });

  it('approve_at commit: one approval, at Save, with the change list above the screenshot', async () => {
    await stack.configure({ planner: va02, ...COMMIT });
    const bob = await browser.tab();
    await browser.signIn(bob, stack.tokens.approver, 'bob');
    await bob.getByText('Nothing is waiting for approval.').waitFor();

    const started = await stack.start('change order 4711');
    const held = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    const approval = held.pending_approval;
    expect(approval).toMatchObject({ step: 9, action: { action: 'click' } });
    expect(approval.changes).toHaveLength(2);
    const before = approval.changes[1].before as string;
    expect(before).toMatch(/^\d\d\.\d\d\.\d{4}$/);

    // The inbox: the table under the waiting action's title.
    const item = bob.locator(`[data-approval-id="${approval.id}"]`);
    await item.locator('.change-list').waitFor();
    await expect(item.locator('.change-list h3').textContent()).resolves.toBe(
      'This Save stores 1 change',
    );
    // The order number opened the overview (its Enter is a read by screen rule 2): said in grey
    // under the heading, not counted and not a row.
    await expect(
      item.locator('.change-list .change-navigation').allTextContents(),
    ).resolves.toEqual(['opened order 4711']);
    const expectedRows = [
      { field: 'Req. Deliv. Date', before, after: '30.04.2026', flag: null, check: 'same' },
    ];
    await expect(rowsOf(bob, `[data-approval-id="${approval.id}"]`)).resolves.toEqual(expectedRows);
    // The why does not count the change again beside the list.
    await expect(item.textContent()).resolves.toContain(
      'Why heldclick on “Save” (from the screen outline)Run started by',
    );
    await item.locator('img.screen-img[src]').evaluate((img: ImageElement) => img.decode());
    // The thumbnail frames the Save button as the approval page does: no ring.
    await expect(item.locator('.marker-framed').getAttribute('data-x')).resolves.toBe(
      String(approval.action.x),
    );
    expect(await item.locator('circle.ring').count()).toBe(0);
    await browser.shot(bob, 'commit-inbox');

    // The approval page: the table above the screenshot, the changed field outlined on it.
    // Its title is the decision: the system, the Save, what it stores and the order it opened.
    const title = item.getByRole('link', { name: /^SAP GUI \(sim\) · Click “Save” stores/ });
    await expect(title.textContent()).resolves.toMatch(
      /^SAP GUI \(sim\) · Click “Save” stores Req\. Deliv\. Date “\d\d\.\d\d\.\d{4}” → “30\.04\.2026” \(opened with Order “4711”\)$/,
    );
    await title.click();
    // The heading is that sentence, with no point on the screen in it.
    await bob
      .getByRole('heading', { level: 1, name: /^SAP GUI \(sim\) · Click “Save” stores/ })
      .waitFor();
    // One sentence first, in the system's words: what the Save stores, and what only opened it.
    await expect(bob.locator('.decision-sentence').textContent()).resolves.toMatch(
      /^SAP GUI \(sim\) · Click “Save” stores Req\. Deliv\. Date “\d\d\.\d\d\.\d{4}” → “30\.04\.2026” \(opened with Order “4711”\)$/,
    );
    const list = bob.locator('.change-list');
    await expect(list.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
      'This Save stores 1 change',
    );
    await expect(list.locator('.change-navigation').allTextContents()).resolves.toEqual([
      'opened order 4711',
    ]);
    await expect(rowsOf(bob, '.approval-layout')).resolves.toEqual(expectedRows);
    const above = await bob.evaluate(() => {
      const table = document.querySelector('.change-list').getBoundingClientRect();
      const screen = document.querySelector('.held-screen').getBoundingClientRect();
      return table.bottom <= screen.top;
    });
    expect(above).toBe(true);
    // Under the table one line: who typed it, and what After is.
    await expect(list.locator('.help').textContent()).resolves.toBe(
      'Typed earlier in this run without a person; After is read back from this screen, outlined in green.',
    );
    // The why does not count the change again beside the list's heading.
    await expect(bob.locator('.decision p.why').textContent()).resolves.toBe(
      'click on “Save” (from the screen outline)',
    );

    const img = bob.locator('.held-screen img.screen-img[src]');
    await img.evaluate((el: ImageElement) => el.decode());
    const outlines = bob.locator('.held-screen .change-outline');
    expect(await outlines.count()).toBe(1);
    const date = outlines.first();
    await expect(date.getAttribute('data-field')).resolves.toBe('Req. Deliv. Date');
    // Where the host says the field is (the held screen is still on it), drawn on the picture
    // 4 points outside it; the bounding box holds the 3-pixel stroke too.
    const field = (await hostField('Req. Deliv. Date')).rect;
    await expect(date.getAttribute('data-x')).resolves.toBe(String(field.x));
    await expect(date.getAttribute('data-width')).resolves.toBe(String(field.width));
    const box = (await img.boundingBox())!;
    const drawn = (await date.locator('rect.line').boundingBox())!;
    const scale = box.width / 1280;
    const centre = (x: number, y: number) => ({ x: box.x + x * scale, y: box.y + y * scale });
    const expected = centre(field.x + field.width / 2, field.y + field.height / 2);
    expect(Math.abs(drawn.x + drawn.width / 2 - expected.x)).toBeLessThan(1.5);
    expect(Math.abs(drawn.y + drawn.height / 2 - expected.y)).toBeLessThan(1.5);
    expect(drawn.width).toBeGreaterThan((field.width + 8) * scale);
    expect(drawn.width).toBeLessThan((field.width + 8) * scale + 4);
    // The Save click keeps its own red ring.
    expect(await bob.locator('.held-screen .marker-click').count()).toBe(1);
    // The earlier steps say what was staged, and where.
    const strip = bob.locator('.strip-item');
    await expect(strip.nth(4).textContent()).resolves.toContain(
      'write · staged into “Order” until the commit',
    );
    await expect(strip.nth(7).textContent()).resolves.toContain(
      'write · staged into “Req. Deliv. Date” until the commit',
    );
    await browser.shot(bob, 'commit-approval');

    // Approve on the page; olga (who started the run) resumes it from the same page.
    await bob.getByRole('button', { name: 'Approve' }).click();
    await bob.getByText('You approved this write.').waitFor();
    const olga = await browser.tab();
    await browser.signIn(olga, stack.tokens.both, 'olga');
    await olga.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    await olga.getByRole('button', { name: 'Resume the run: send this write' }).click();
    await olga.getByText(/^Sent: step 9 \(Click “Save”\) was carried out/).waitFor();

    const run = await stack.waitFor(started.id, isEnded);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(approvedSteps(run)).toEqual([9]);
    expect(run.steps.filter((s: any) => s.outcome === 'staged').map((s: any) => s.n)).toEqual([
      5, 8,
    ]);
    const saved = await saves(stack.sim);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });

    // The run page: a staged step says so, with its field and what the field held before.
    const auditor = await browser.tab();
    await browser.signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.goto(`${stack.api.url}/console/runs/${started.id}`);
    const step8 = auditor.locator('li.step[data-step="8"]');
    await expect(step8.locator('.outcome').textContent()).resolves.toBe(
      'staged into “Req. Deliv. Date” until the commit',
    );
    await expect(step8.locator('.facts').textContent()).resolves.toContain(`Field before${before}`);
    await step8.locator('img.screen-img[src]').evaluate((el: ImageElement) => el.decode());
    await step8.evaluate((el) => el.scrollIntoView());
    await browser.shot(auditor, 'commit-run');
    await bob.close();
    await olga.close();
    await auditor.close();
  });

  it('a Save that changes nothing: the page says “unchanged”, and the application’s “no data changed” is no green Sent', async () => {
    await stack.configure({ planner: va02, ...COMMIT });
    const decide = async (runId: string, approvalId: string) => {
      const approved = await stack.api.request('POST', `/api/approvals/${approvalId}/approve`, {
        token: stack.tokens.approver,
        json: {},
      });
      expect(approved.status).toBe(200);
      const resumed = await stack.api.request('POST', `/api/computer-use/runs/${runId}/resume`, {
        token: stack.tokens.operator,
      });
      expect(resumed.status).toBe(200);
    };
    const heldOf = async (runId: string) => {
      const run = await stack.waitFor(runId, (r) => r.status === 'awaiting_approval' || isEnded(r));
      expect(run.status).toBe('awaiting_approval');
      return run.pending_approval;
    };
    // The first run stores the new date; the second, on the same sim, types the same date again.
    const first = await stack.start('change order 4711');
    await decide(first.id, (await heldOf(first.id)).id);
    expect(await stack.waitFor(first.id, isEnded)).toMatchObject({ end_reason: 'done' });
    const second = await stack.start('change order 4711');
    const approval = await heldOf(second.id);
    const date = approval.changes.find((c: any) => c.field === 'Req. Deliv. Date');
    expect([date.before, date.read_back]).toEqual(['30.04.2026', '30.04.2026']);

    const bob = await browser.tab();
    await browser.signIn(bob, stack.tokens.approver, 'bob');
    await bob.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    const heading = bob.getByRole('heading', { level: 1 });
    await expect(heading.textContent()).resolves.toBe(
      'SAP GUI (sim) · Click “Save” stores Req. Deliv. Date “30.04.2026” (unchanged) (opened with Order “4711”)',
    );
    // No point on the screen in the heading or the tab's title.
    await expect(bob.title()).resolves.not.toMatch(/\d+, \d+/);
    const list = bob.locator('.change-list');
    await expect(list.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
      'This Save stores no change: the values are as they were',
    );
    await expect(list.locator('tbody td.change-after').textContent()).resolves.toBe(
      '30.04.2026 unchanged',
    );
    await bob
      .locator('.held-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await browser.shot(bob, 'commit-unchanged');

    // Sent once approved and resumed: the application says it changed nothing, and so does the
    // page, in amber, not the green of a change stored.
    await decide(second.id, approval.id);
    const sent = bob.locator('.after-sent');
    // The step is sent before the receipt is read (the screen settles first): the heading says
    // what the application said once it is read.
    await sent.locator('h2', { hasText: 'changed nothing' }).waitFor();
    await expect(sent.locator('h2').textContent()).resolves.toBe(
      'Sent, and the application changed nothing',
    );
    await expect(sent.getAttribute('class')).resolves.toBe('after-sent after-sent-nothing');
    await expect(sent.locator('.sent-what').textContent()).resolves.toContain(
      '“No data was changed”',
    );
    await expect(sent.evaluate((el: any) => getComputedStyle(el).borderLeftColor)).resolves.toBe(
      'rgb(138, 75, 0)',
    );

    // The script then waits for the save's message in vain: the run page says so in words.
    const run = await stack.waitFor(second.id, isEnded, 60_000);
    expect(run).toMatchObject({ status: 'failed', end_reason: 'fail' });
    expect(run.summary).toMatch(/^steps\[\d+\] \(step "check"\) waited 10 times for text \//);
    const auditor = await browser.tab();
    await browser.signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.goto(`${stack.api.url}/console/runs/${second.id}`);
    const summary = auditor.locator('.facts div', { hasText: /^Summary/ }).locator('dd');
    await expect(summary.textContent()).resolves.toMatch(
      /^the script's step “check” waited 10 times for the text it expects; the screen never showed itAs the planner wrote it/,
    );
    await expect(summary.locator('details code').textContent()).resolves.toBe(run.summary);
    await bob.close();
    await auditor.close();
  });

  it('had no script errors and no CSP violations on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
