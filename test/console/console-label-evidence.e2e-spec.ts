import { Page } from 'playwright-core';
import { ConsoleBrowser, ImageElement, startBrowser } from '../support/browser';
import { isEnded, startSimHost, startStack, type SimHost, type Stack } from '../support/stack';

/**
 * How the label of an action was read (a step's `label_evidence`, issue 26 §3), in the console, in
 * Debian's chromium against the real API, worker, PostgreSQL, Redis and HTTPS sim screen hosts:
 * under "More about this action" on the approval page and in the run page's step, in words, for
 * a label read from the host's outline (the sim), one read by OCR (a sim started without its
 * outline, in German) and one nothing could read. The screen's text is shown as text only (how it
 * is marked is console-label-words.spec.ts). The approval page keeps its place for the decision
 * at 1280×800 and on a phone.
 */

jest.setTimeout(240_000);

// The browser's names, used only in callbacks that run inside the page: this file is compiled
// without the DOM types.
declare const document: any, innerWidth: number;

const WIDTHS: Array<[number, number]> = [
  [1280, 800],
  [390, 844],
];

/** One held write: a click on the toolbar's Save button, named from the outline, then done. */
const SAVE_CLICK = {
  steps: [
    { step: 'save', action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    { action: { action: 'done', summary: 'saved' } },
  ],
};
/** On the German sim without an outline: the status bar's text, where a message is put. */
const STATUS_TEXT = { x: 60, y: 786 };

describe('how the label was read, in the console', () => {
  let stack: Stack;
  let blind: SimHost;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    stack = await startStack();
    blind = await startSimHost({ elements: false, lang: 'de' });
    await stack.grant(blind.tokenEnv, blind.url);
    browser = await startBrowser(stack.api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await blind?.close();
  });

  /** Starts `agent`'s run and waits for its held write. */
  async function held(agent: string): Promise<any> {
    const run = await stack.start('save the order', agent);
    const stopped = await stack.waitFor(
      run.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
      90_000,
    );
    expect(stopped.status).toBe('awaiting_approval');
    return stopped;
  }

  /** Opens the approval's page and waits for its screenshot. */
  async function openApproval(page: Page, approvalId: string): Promise<void> {
    await page.goto(`${stack.api.url}/console/approvals/${approvalId}`);
    await page
      .locator('.held-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
  }

  /** The words under "More about this action", opened. */
  async function labelWords(page: Page): Promise<string | null> {
    await page.getByText('More about this action').click();
    const label = page.locator('.more .label-evidence');
    const words = await label.textContent();
    // The screen's text goes in as text: nothing in it becomes an element.
    expect(await label.locator('*').count()).toBe(0);
    return words;
  }

  /** The approval's page, and the words under "More about this action". */
  async function labelOnApproval(page: Page, approvalId: string): Promise<string | null> {
    await openApproval(page, approvalId);
    return labelWords(page);
  }

  /** The words of the run's first step on its run page, as an operator reads it. */
  async function labelOnRunPage(runId: string): Promise<string | null> {
    const olga = await browser.tab();
    await browser.signIn(olga, stack.tokens.operator, 'olga');
    await olga.goto(`${stack.api.url}/console/runs/${runId}`);
    const label = olga.locator('.step[data-step="1"] .label-evidence');
    const words = await label.textContent();
    expect(await label.locator('*').count()).toBe(0);
    await olga.close();
    return words;
  }

  const reject = (approvalId: string) =>
    stack.api.request('POST', `/api/approvals/${approvalId}/reject`, {
      token: stack.tokens.approver,
      json: {},
    });

  it("says the outline's element a click lands on, on the approval page and the run's step", async () => {
    await stack.sim.reset();
    await stack.configure({ planner: await stack.planner(SAVE_CLICK) });
    const run = await held('sap-orders');
    const evidence = run.steps[0].label_evidence;
    expect(evidence).toMatchObject({
      source: 'outline',
      of: 'click',
      element: { role: 'button', name: 'Save' },
      target: 'Save',
    });
    const described = evidence.element.description as string;
    expect(described).toMatch(/\S/);
    const words = `Read from the application's outline: button “Save”, described “${described}”; the planner's target was “Save”`;

    const bob = await browser.tab();
    await browser.signIn(bob, stack.tokens.approver, 'bob');
    for (const [width, height] of WIDTHS) {
      await bob.setViewportSize({ width, height });
      await openApproval(bob, run.pending_approval.id);
      // The decision keeps its place (docs/approver-guide.md): Approve and Reject on the first
      // screen at 1280×800, at the bottom of a phone's.
      for (const name of ['Approve', 'Reject']) {
        const box = (await bob.getByRole('button', { name }).boundingBox())!;
        expect({ name, width, onScreen: box.y >= 0 && box.y + box.height <= height }).toEqual({
          name,
          width,
          onScreen: true,
        });
      }
      await expect(labelWords(bob)).resolves.toBe(words);
      // With the details open, nothing is wider than the screen.
      const line = (await bob.locator('.more .label-evidence').boundingBox())!;
      const wide = await bob.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      expect({ width, right: line.x + line.width <= width, wide }).toEqual({
        width,
        right: true,
        wide: 0,
      });
      // Brought to the middle of the screen, the line is clear of the buttons (on a phone they
      // stay at the bottom of the screen).
      await bob
        .locator('.more .label-evidence')
        .evaluate((el: any) => el.scrollIntoView({ block: 'center' }));
      const shown = (await bob.locator('.more .label-evidence').boundingBox())!;
      const buttons = (await bob.getByRole('button', { name: 'Approve' }).boundingBox())!;
      expect({
        width,
        clear: shown.y + shown.height <= buttons.y || shown.y >= buttons.y + buttons.height,
      }).toEqual({
        width,
        clear: true,
      });
      await browser.shot(bob, width === 1280 ? 'approval-label-outline' : 'approval-label-phone');
    }
    await bob.setViewportSize({ width: 1280, height: 800 });

    // The run's step says the same.
    await expect(labelOnRunPage(run.id)).resolves.toBe(words);
    expect((await reject(run.pending_approval.id)).status).toBe(200);
    expect(browser.problems).toEqual([]);
    await bob.close();
  });

  it('says the words OCR read, with their confidences, where the host has no outline', async () => {
    await blind.reset();
    await blind.poke('Sichem');
    await stack.configure(
      {},
      {
        'sap-blind': {
          screen_url: blind.url,
          screen_token_env: blind.tokenEnv,
          screen_tls: { fingerprint_sha256: blind.fingerprint },
          system: 'SAP GUI (sim, no outline, German)',
          max_steps: 10,
          planner: await stack.planner({
            steps: [
              { action: { action: 'click', ...STATUS_TEXT } },
              { action: { action: 'done', summary: 'clicked' } },
            ],
          }),
        },
      },
    );
    const run = await held('sap-blind');
    const evidence = run.steps[0].label_evidence;
    expect(evidence).toMatchObject({ source: 'ocr', of: 'click' });
    expect(evidence.words.map((w: { text: string }) => w.text).join(' ')).toMatch(/^Sich/);
    const read = evidence.words
      .map(
        (w: { text: string; confidence: number }) =>
          `“${w.text}” (confidence ${Math.round(w.confidence)}%)`,
      )
      .join(', ');

    const bob = await browser.tab();
    await browser.signIn(bob, stack.tokens.approver, 'bob');
    await expect(labelOnApproval(bob, run.pending_approval.id)).resolves.toBe(
      `Read by OCR: ${read}`,
    );
    await browser.shot(bob, 'approval-label-ocr');
    expect((await reject(run.pending_approval.id)).status).toBe(200);
    expect(browser.problems).toEqual([]);
    await bob.close();
  });

  it("says when nothing could read a label, and that only the planner's target is left", async () => {
    // A click on the empty middle of the status bar, which the planner calls "Status bar".
    await stack.sim.reset();
    await stack.configure({
      planner: await stack.planner({
        steps: [
          { action: { action: 'click', x: 640, y: 786, target: 'Status bar' } },
          { action: { action: 'done', summary: 'clicked' } },
        ],
      }),
    });
    const run = await held('sap-orders');
    expect(run.steps[0].label_evidence).toEqual({
      source: 'none',
      of: 'click',
      why: 'OCR: no_text',
      target: 'Status bar',
    });
    const words =
      "Nothing could read a label here (OCR found no text there): the planner's target only, “Status bar”";

    const bob = await browser.tab();
    await browser.signIn(bob, stack.tokens.approver, 'bob');
    await expect(labelOnApproval(bob, run.pending_approval.id)).resolves.toBe(words);
    await expect(labelOnRunPage(run.id)).resolves.toBe(words);
    expect((await reject(run.pending_approval.id)).status).toBe(200);
    expect(browser.problems).toEqual([]);
    await bob.close();
  });
});
