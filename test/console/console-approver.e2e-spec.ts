import { Page } from 'playwright-core';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { saves } from '../support/approving';
import { ConsoleBrowser, ImageElement, startBrowser } from '../support/browser';
import { isEnded, startStack, type Stack } from '../support/stack';

/**
 * The approver decides at a glance, in Debian's chromium against the real API, worker,
 * PostgreSQL, Redis and the HTTPS sim screen host: the VA02 change under `every_write` asks three
 * times, and each page says in one sentence what the write does, before → after (the typing's
 * field and whether the text replaces what it holds; the Save's edits since the last commit); the
 * marks go around their target, outside it; the buttons say what approving does; after the send the
 * page says what was sent and shows the screen after. Then the audit view on a phone and the
 * admin page's governance. Element positions and texts at 1280×800 and 390×844, not pixels.
 */

jest.setTimeout(240_000);

// The browser's names, used only in callbacks that run inside the page: this file is compiled
// without the DOM types.
declare const document: any, requestAnimationFrame: any, getComputedStyle: any;

const RULES = [
  { command_field: { transactions: ['VA02', 'VA03'] } },
  { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
];
const REASON =
  'VA02 typing is stored only by Save; Enter on the initial screen only opens the order';
const WIDTHS: Array<[number, number]> = [
  [1280, 800],
  [390, 844],
];

/** A box on the page: left, top, right, bottom in CSS pixels. */
type Edges = { left: number; top: number; right: number; bottom: number };

/** Two animation frames: what a resize observer places is in place. */
const settle = (page: Page) =>
  page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );

/** A rect of the step's 1280 × 800 coordinate space, where the picture shows it on the page. */
async function onPicture(page: Page, scope: string, rect: any): Promise<Edges> {
  const img = (await page.locator(`${scope} img.screen-img`).boundingBox())!;
  const sx = img.width / 1280;
  const sy = img.height / 800;
  return {
    left: img.x + rect.x * sx,
    top: img.y + rect.y * sy,
    right: img.x + (rect.x + rect.width) * sx,
    bottom: img.y + (rect.y + rect.height) * sy,
  };
}

/** Whether a mark's line (with `inside` px of its stroke inside it) stays off the target. */
async function outside(page: Page, selector: string, target: Edges, inside: number) {
  const line = (await page.locator(selector).first().boundingBox())!;
  return {
    left: line.x + inside <= target.left,
    top: line.y + inside <= target.top,
    right: line.x + line.width - inside >= target.right,
    bottom: line.y + line.height - inside >= target.bottom,
  };
}
const ALL_OUTSIDE = { left: true, top: true, right: true, bottom: true };

/** A change list's rows as the page shows them. */
const rowsOf = (page: Page, scope: string) =>
  page.locator(`${scope} tbody tr`).evaluateAll((rows) =>
    rows.map((r: any) => ({
      field: r.querySelector('th').textContent,
      before: r.querySelector('td').textContent,
      after: r.querySelector('td.change-after').textContent,
    })),
  );

describe('the approver decides at a glance', () => {
  let stack: Stack;
  let browser: ConsoleBrowser;
  let va02: string;
  /** May approve and operate, and did not start the runs: approving is followed by sending. */
  let pat: string;

  beforeAll(async () => {
    stack = await startStack();
    va02 = await stack.planner(VA02_EXAMPLE_SCRIPT);
    pat = (await stack.api.token('acme', 'pat', ['agents.approve', 'agents.operate'])).token;
    browser = await startBrowser(stack.api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** The screen host's own outline of its current screen. */
  async function hostElement(role: string, name: string) {
    const answer = await stack.sim.call('GET', '/elements');
    const elements = JSON.parse(answer.body.toString()) as Array<{
      role: string;
      name: string;
      rect: any;
      value?: string;
    }>;
    return elements.find((e) => e.role === role && e.name === name)!;
  }

  /** Waits for the run's next held write (another than `last`). */
  async function nextHeld(runId: string, last: string | null) {
    const run = await stack.waitFor(
      runId,
      (r) => isEnded(r) || (r.status === 'awaiting_approval' && r.pending_approval?.id !== last),
      60_000,
    );
    expect(run.status).toBe('awaiting_approval');
    return run.pending_approval;
  }

  async function approveAndResume(runId: string, approvalId: string) {
    const approved = await stack.api.request('POST', `/api/approvals/${approvalId}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    expect(approved.status).toBe(200);
    const resumed = await stack.api.request('POST', `/api/computer-use/runs/${runId}/resume`, {
      token: stack.tokens.operator,
    });
    expect(resumed.status).toBe(200);
  }

  /** Opens an approval's page and waits for its screenshot. */
  async function openApproval(page: Page, id: string) {
    await page.goto(`${stack.api.url}/console/approvals/${id}`);
    await page
      .locator('.held-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await settle(page);
  }

  it('every_write VA02: the typing says before → after, the Save what it stores, the marks stay outside', async () => {
    await stack.sim.reset();
    await stack.configure({ planner: va02, screen_rules: RULES, reason: REASON });
    const started = await stack.start('change order 4711');
    const bob = await browser.tab();
    await browser.signIn(bob, stack.tokens.approver, 'bob');

    // Step 5: the order number typed into the empty Order field.
    const order = await nextHeld(started.id, null);
    expect(order).toMatchObject({ step: 5, action: { action: 'type', text: '4711' } });
    await openApproval(bob, order.id);
    await expect(bob.locator('.decision-sentence').textContent()).resolves.toBe(
      'SAP GUI (sim) · Type into Order (empty) → “4711”',
    );
    await expect(bob.locator('.edit-list').getAttribute('data-mode')).resolves.toBe('empty');
    await expect(rowsOf(bob, '.edit-list')).resolves.toEqual([
      { field: 'Order', before: '(empty)', after: '4711' },
    ]);
    await approveAndResume(started.id, order.id);

    // Step 8: the date typed over the field's selected content.
    const typing = await nextHeld(started.id, order.id);
    expect(typing).toMatchObject({ step: 8, action: { action: 'type', text: '30.04.2026' } });
    const field = await hostElement('textbox', 'Req. Deliv. Date');
    const before = field.value!;
    expect(before).toMatch(/^\d\d\.\d\d\.\d{4}$/);
    for (const [width, height] of WIDTHS) {
      await bob.setViewportSize({ width, height });
      await openApproval(bob, typing.id);
      await expect(bob.locator('.decision-sentence').textContent()).resolves.toBe(
        `SAP GUI (sim) · Type into Req. Deliv. Date “${before}” → “30.04.2026”`,
      );
      await expect(bob.locator('.edit-list').getAttribute('data-mode')).resolves.toBe('replaces');
      await expect(rowsOf(bob, '.edit-list')).resolves.toEqual([
        { field: 'Req. Deliv. Date', before, after: '30.04.2026' },
      ]);
      await expect(bob.locator('.edit-list .help').textContent()).resolves.toMatch(
        /^The field’s content is selected, so the text replaces it\./,
      );
      // A value never breaks across lines: one line box each, at both widths.
      const lines = await bob
        .locator('.edit-list tbody .typed')
        .evaluateAll((els) => els.map((el: any) => el.getClientRects().length));
      expect({ width, lines }).toEqual({ width, lines: [1, 1] });
      // The field's dashed outline is where the host says the field is, drawn outside it: no
      // dot or line over the digits it replaces.
      const outline = bob.locator('.held-screen .field-outline');
      await expect(outline.getAttribute('data-x')).resolves.toBe(String(field.rect.x));
      await expect(outline.getAttribute('data-width')).resolves.toBe(String(field.rect.width));
      const target = await onPicture(bob, '.held-screen', field.rect);
      await expect(outside(bob, '.held-screen .field-outline', target, 1.25)).resolves.toEqual(
        ALL_OUTSIDE,
      );
      expect(await bob.locator('.held-screen .marker-centre').count()).toBe(0);
      // The close-up shows the field whole.
      const closeup = bob.locator('.closeup-svg');
      const window = await closeup.evaluate((el: any) =>
        ['data-x0', 'data-y0', 'data-w', 'data-h'].map((a) => Number(el.getAttribute(a))),
      );
      const [x0, y0, w, h] = window;
      expect(x0 <= field.rect.x && x0 + w >= field.rect.x + field.rect.width).toBe(true);
      expect(y0 <= field.rect.y && y0 + h >= field.rect.y + field.rect.height).toBe(true);
      // Approve and Reject in the first screen.
      for (const name of ['Approve', 'Reject']) {
        const box = (await bob.getByRole('button', { name }).boundingBox())!;
        expect({ name, width, onScreen: box.y >= 0 && box.y + box.height <= height }).toEqual({
          name,
          width,
          onScreen: true,
        });
      }
      await browser.shot(
        bob,
        width === 1280 ? 'approval-type-before-after' : 'approval-type-phone',
      );
    }
    // The inbox shows the same before → after for the held typing, at both widths.
    for (const [width, height] of WIDTHS) {
      await bob.setViewportSize({ width, height });
      await bob.goto(`${stack.api.url}/console/approvals`);
      const item = bob.locator(`.inbox-item[data-approval-id="${typing.id}"]`);
      const edit = item.locator('.edit-list');
      await edit.waitFor();
      await expect(edit.getAttribute('data-mode')).resolves.toBe('replaces');
      await expect(edit.getByRole('heading', { level: 3 }).textContent()).resolves.toBe(
        'This typing changes “Req. Deliv. Date”',
      );
      await expect(
        rowsOf(bob, `.inbox-item[data-approval-id="${typing.id}"] .edit-list`),
      ).resolves.toEqual([{ field: 'Req. Deliv. Date', before, after: '30.04.2026' }]);
      // Under the item's title, inside the item and the screen (no sideways scrolling).
      const title = (await item.getByRole('heading', { level: 2 }).boundingBox())!;
      const box = (await edit.boundingBox())!;
      const row = (await item.boundingBox())!;
      expect({
        width,
        below: box.y >= title.y + title.height,
        inside: box.x >= row.x && box.x + box.width <= row.x + row.width + 0.5,
        onScreen: box.x + box.width <= width,
      }).toEqual({ width, below: true, inside: true, onScreen: true });
      const values = await edit
        .locator('tbody .typed')
        .evaluateAll((els) => els.map((el: any) => el.getClientRects().length));
      expect({ width, values }).toEqual({ width, values: [1, 1] });
    }
    await bob.setViewportSize({ width: 1280, height: 800 });
    await approveAndResume(started.id, typing.id);

    // Step 9: the Save, which stores the date; the order number only opened the order.
    const save = await nextHeld(started.id, typing.id);
    expect(save).toMatchObject({ step: 9, action: { action: 'click' } });
    // The server tells navigation apart: the console only reads its word.
    expect(save.changes.map((c: any) => [c.field, c.read_back_check, c.kind ?? 'change'])).toEqual([
      ['Order', 'earlier', 'navigation'],
      ['Req. Deliv. Date', 'same', 'change'],
    ]);
    const button = await hostElement('button', 'Save');
    for (const [width, height] of WIDTHS) {
      await bob.setViewportSize({ width, height });
      await openApproval(bob, save.id);
      await expect(bob.locator('.decision-sentence').textContent()).resolves.toBe(
        `SAP GUI (sim) · Click “Save” stores Req. Deliv. Date “${before}” → “30.04.2026” (opened with Order “4711”)`,
      );
      const list = bob.locator('.approval-layout .change-list');
      // Navigation is not a change: the order number that opened the order (typed on VA02's
      // first screen, left by the Enter screen rule 2 makes a read) is said in grey, not counted.
      await expect(list.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
        'This Save stores 1 change',
      );
      await expect(list.locator('.change-navigation').allTextContents()).resolves.toEqual([
        'opened order 4711',
      ]);
      await expect(rowsOf(bob, '.approval-layout .change-list')).resolves.toEqual([
        { field: 'Req. Deliv. Date', before, after: '30.04.2026' },
      ]);
      // The grey line sits between the heading and the table, inside the list.
      const heading = (await list.getByRole('heading', { level: 2 }).boundingBox())!;
      const opened = (await list.locator('.change-navigation').boundingBox())!;
      const table = (await list.locator('table').boundingBox())!;
      expect({ width, order: [heading.y < opened.y, opened.y < table.y] }).toEqual({
        width,
        order: [true, true],
      });
      // Navigation is not in doubt: nothing is flagged red. Under the table, one line.
      expect(await list.locator('.change-flag').count()).toBe(0);
      await expect(list.locator('.help').textContent()).resolves.toBe(
        'Typed earlier in this run, each approved by a person; After is read back from this screen, outlined in green.',
      );
      // The heading is the decision, the biggest text on the page; no point on the screen in it.
      const sizes = await bob.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((el: any) => el.textContent.trim() && el.getClientRects().length)
          .map((el: any) => [el.tagName, parseFloat(getComputedStyle(el).fontSize)]),
      );
      const h1 = sizes.find(([tag]: any) => tag === 'H1')![1];
      expect({ width, bigger: sizes.filter(([, size]: any) => size > h1) }).toEqual({
        width,
        bigger: [],
      });
      await expect(bob.locator('h1').textContent()).resolves.not.toMatch(/\d+, \d+/);
      // The red frame goes around the Save button, outside it.
      const frame = bob.locator('.held-screen .marker-framed');
      await expect(frame.getAttribute('data-x')).resolves.toBe(String(save.action.x));
      const target = await onPicture(bob, '.held-screen', button.rect);
      await expect(
        outside(bob, '.held-screen .marker-framed rect.halo', target, 3),
      ).resolves.toEqual(ALL_OUTSIDE);
      const closeup = await bob
        .locator('.closeup-svg')
        .evaluate((el: any) =>
          ['data-x0', 'data-y0', 'data-w', 'data-h'].map((a) => Number(el.getAttribute(a))),
        );
      expect(
        closeup[0] <= button.rect.x && closeup[0] + closeup[2] >= button.rect.x + button.rect.width,
      ).toBe(true);
      // The button says what approving does for bob: he approves, an operator sends.
      const approve = bob.getByRole('button', { name: /^Approve/ });
      await expect(approve.textContent()).resolves.toBe('Approve (an operator sends it)');
      const box = (await approve.boundingBox())!;
      expect({ width, onScreen: box.y >= 0 && box.y + box.height <= height }).toEqual({
        width,
        onScreen: true,
      });
      await browser.shot(bob, width === 1280 ? 'approval-every-write-save' : 'approval-save-phone');
    }
    await bob.setViewportSize({ width: 1280, height: 800 });

    // pat may approve and send: his button says so, and he sends it from the same page.
    const patPage = await browser.tab();
    await browser.signIn(patPage, pat, 'pat');
    await openApproval(patPage, save.id);
    const approve = patPage.getByRole('button', { name: /^Approve/ });
    await expect(approve.textContent()).resolves.toBe('Approve (you send it next)');
    await approve.click();
    await patPage.getByText('You approved this write.').waitFor();
    await patPage.getByRole('button', { name: 'Resume the run: send this write' }).click();
    const sent = patPage.locator('.after-sent');
    await sent
      .locator('.after-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    await expect(sent.locator('.sent-what').textContent()).resolves.toMatch(
      /^Warden sent Click “Save” \(step 9\), approved by pat, resumed by pat at [\d-]+ [\d:]+\. The application said: success \(S\) “Sales order 4711 has been saved” in the status bar\.$/,
    );
    await expect(sent.locator('figcaption').textContent()).resolves.toBe(
      'The screen after it was sent: what step 10 saw.',
    );
    await expect(patPage.locator('.held-screen figcaption').textContent()).resolves.toBe(
      'The screen it was approved on (step 9), before it was sent.',
    );
    await expect(patPage.locator('.why-title').first().textContent()).resolves.toBe(
      'Why Warden held it',
    );
    await browser.shot(patPage, 'approval-sent');

    const run = await stack.waitFor(started.id, isEnded);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    const saved = await saves(stack.sim);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });
    // The run page draws the Save the same way as its approval page: a frame around the
    // button, outside it, on the thumbnail and on the larger screen; no ring.
    for (const [width, height] of WIDTHS) {
      await patPage.setViewportSize({ width, height });
      await patPage.goto(`${stack.api.url}/console/runs/${started.id}`);
      const step = patPage.locator('li.step[data-step="9"]');
      await step
        .locator('.thumb-button img.screen-img[src]')
        .evaluate((el: ImageElement) => el.decode());
      await expect(
        step.locator('.thumb-button .marker-framed').getAttribute('data-x'),
      ).resolves.toBe(String(save.action.x));
      await step.locator('.thumb-button').click();
      const large = step.locator('.step-large');
      await large.locator('img.screen-img[src]').evaluate((el: ImageElement) => el.decode());
      await large.evaluate((el: any) => el.scrollIntoView());
      await settle(patPage);
      const frame = large.locator('.marker-framed');
      await expect(frame.getAttribute('data-x')).resolves.toBe(String(save.action.x));
      expect(await step.locator('circle.ring').count()).toBe(0);
      const target = await onPicture(patPage, 'li.step[data-step="9"] .step-large', button.rect);
      await expect(
        outside(patPage, 'li.step[data-step="9"] .step-large .marker-framed rect.halo', target, 3),
      ).resolves.toEqual(ALL_OUTSIDE);
      await expect(large.locator('figcaption').textContent()).resolves.toMatch(
        /^The red frame goes around what the click lands on, outside it;/,
      );
      // The steps typed into a field keep the field's dashed outline there too.
      await expect(
        patPage.locator('li.step[data-step="8"] .thumb-button .field-outline').count(),
      ).resolves.toBe(1);
    }
    await patPage.setViewportSize({ width: 1280, height: 800 });
    await bob.close();
    await patPage.close();

    // The audit view of this run on a phone: no sideways scrolling, the run id field included.
    const auditor = await browser.tab();
    await browser.signIn(auditor, stack.tokens.auditor, 'aud');
    await auditor.setViewportSize({ width: 390, height: 844 });
    await auditor.goto(`${stack.api.url}/console/audit?run_id=${started.id}`);
    await auditor.locator('table.audit tbody tr[data-type="computer_use.write"]').first().waitFor();
    const overflow = await auditor.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The run id field stays inside its filter box, which stays inside the screen.
    const runId = (await auditor.locator('#run_id').boundingBox())!;
    const filters = (await auditor.locator('.audit-filters').boundingBox())!;
    expect(runId.x + runId.width).toBeLessThanOrEqual(filters.x + filters.width);
    expect(filters.x + filters.width).toBeLessThanOrEqual(390);
    const written = auditor.locator('table.audit tbody tr[data-type="computer_use.write"]');
    await expect(written.first().textContent()).resolves.toContain(
      'approved by bob, resumed by olga',
    );
    await written.first().evaluate((el: any) => el.scrollIntoView());
    await browser.shot(auditor, 'audit-phone');
    await auditor.close();
  });

  it("shows each agent's governance on the admin page: planner, rules, approvals, switches, what was loosened", async () => {
    // A second agent whose writes need no approval: its card names the script content granted.
    const nightly = {
      screen_url: stack.sim.url,
      screen_token_env: stack.sim.tokenEnv,
      screen_tls: { fingerprint_sha256: stack.sim.fingerprint },
      system: 'SAP GUI (sim)',
      planner: va02,
      require_write_approval: false,
      reason: 'nightly: the script was reviewed',
    };
    await stack.configure({ planner: va02, screen_rules: RULES, reason: REASON }, { nightly });
    const config = (
      await stack.api.request('GET', '/api/admin/computer-use', { token: stack.tokens.admin })
    ).body;
    const grant = config.script_grants.nightly;
    expect(grant).toMatchObject({ granted_by: 'wes', version: config.version });
    const reader = (await stack.api.token('acme', 'adam', ['computer_use.admin', 'audit.read']))
      .token;
    const engaged = await stack.api.request('PUT', '/api/admin/agents/sap-orders/kill-switch', {
      token: stack.tokens.admin,
      json: { engaged: true, reason: 'INC-7: check the dates first' },
    });
    expect(engaged.status).toBe(200);
    try {
      const page = await browser.tab();
      await browser.signIn(page, reader, 'adam');
      await page.goto(`${stack.api.url}/console/admin`);
      const card = page.locator('article.governance[data-agent="sap-orders"]');
      await card.locator('dl').waitFor();
      const text = (await card.textContent())!;
      const planners = await stack.api.request('GET', `/api/planners/${va02}`, {
        token: stack.tokens.admin,
      });
      expect(text).toContain(`Planner${planners.body.planner.name} (${va02})`);
      expect(text).toContain('Writesevery write held for a person (approve_at: every_write)');
      expect(text).toContain('Four-eyeson: the person who starts a run cannot approve its writes');
      expect(text).toContain('Approversanyone with agents.approve');
      expect(text).toContain(
        'typing VA02, VA03 into the command field (and its Enter) is navigation',
      );
      expect(text).toContain('on “^Change Sales Order: Initial Screen$”: Enter → read');
      expect(text).toMatch(
        /Kill switchengaged by ada at [\d-]+ [\d:]+: INC-7: check the dates first/,
      );
      expect(text).toContain('Pause (every agent)not paused');
      expect(text).not.toContain('Script granted');
      const nightlyText = (await page
        .locator('article.governance[data-agent="nightly"]')
        .textContent())!;
      expect(nightlyText).toContain('Writesact straight away: no person approves them');
      expect(nightlyText).toMatch(
        new RegExp(
          `Script grantedthe content with SHA-256 ${grant.sha256}, granted by wes at [\\d-]+ [\\d:]+ \\(config version ${config.version}\\)`,
        ),
      );
      await expect(card.locator('h3 .status').textContent()).resolves.toBe('kill switch engaged');
      // What was loosened, when and by whom: the screen rules, by wes, with the reason.
      const loosened = await card.locator('ul.weakened li').allTextContents();
      expect(loosened.length).toBeGreaterThan(0);
      expect(
        loosened.some((l) =>
          /^[\d-]+ [\d:]+ by wes: .*screen_rules.*VA02 typing is stored only by Save/.test(l),
        ),
      ).toBe(true);
      await browser.shot(page, 'admin-governance');
      await page.close();

      // An admin who may not read the audit log is told why that line is missing.
      const ada = await browser.tab();
      await browser.signIn(ada, stack.tokens.admin, 'ada');
      await ada.goto(`${stack.api.url}/console/admin`);
      const adaCard = ada.locator('article.governance[data-agent="sap-orders"]');
      await adaCard.locator('dl').waitFor();
      await expect(adaCard.textContent()).resolves.toContain('Loosenedreading it needs audit.read');
      await ada.close();
    } finally {
      await stack.api.request('PUT', '/api/admin/agents/sap-orders/kill-switch', {
        token: stack.tokens.admin,
        json: { engaged: false },
      });
    }
  });

  it('had no script errors and no CSP violations on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
