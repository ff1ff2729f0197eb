import { startX11Screen, type X11Screen } from '../support/x11-screen';
import { runApprovingEveryWrite } from '../support/approving';
import { ACCOUNTS, readTransactions, startGnuCash, type GnuCash } from '../support/gnucash';
import { startStack, type Stack } from '../support/stack';

/**
 * A real application nobody here wrote: GnuCash 4.13 under Xvfb, driven through Warden's x11
 * screen host as a user would, every write approved by a second person, and the result checked
 * with GnuCash's own means, the book it saved read back. The x11 host is started without its
 * outline (--no-elements), so every click's label is read from the pixels (OCR); the same run with
 * the outline from AT-SPI is gnucash-outline.e2e-spec.ts.
 *
 * Found by driving it (issue 24): GnuCash's toolbar button "Enter" ("Record the current
 * transaction") was a read ("no committing verb") and recorded the transaction with nobody asked.
 * A label naming a commit key is a committing verb: a button does what its key does.
 */

jest.setTimeout(300_000);

const click = (x: number, y: number) => ({ action: { action: 'click', x, y } });
const type = (text: string) => ({ action: { action: 'type', text } });
const wait = (seconds: number) => ({ action: { action: 'wait', seconds } });

/** GnuCash's main window as it opens at 1280x800 with no window manager: 800x600 at the corner. */
const SCRIPT = {
  steps: [
    wait(2),
    { action: { action: 'double_click', x: 69, y: 162 } }, // the account Checking: its register
    wait(2),
    click(265, 167), // the new transaction's Description cell
    type('Coffee'),
    click(485, 167), // its Transfer cell
    type('Dining'),
    click(760, 167), // its Withdrawal cell
    type('3.50'),
    click(432, 69), // the toolbar's Enter: records the transaction
    wait(1),
    click(46, 69), // the toolbar's Save: writes the book to its file
    wait(1),
    { action: { action: 'done', summary: 'Coffee, 3.50 from Checking to Dining, saved' } },
  ],
};

describe('GnuCash through the x11 screen host', () => {
  let stack: Stack;
  let screen: X11Screen;
  let gnucash: GnuCash;
  const tokenEnv = 'WARDEN_TEST_GNUCASH_HOST_TOKEN';

  beforeAll(async () => {
    stack = await startStack({ maskSampling: 'deployed' });
    screen = await startX11Screen(() => undefined, { elements: false });
    process.env[tokenEnv] = screen.token;
    await stack.grant(tokenEnv, screen.url);
    gnucash = await startGnuCash(screen.display, screen.dir);
  });

  afterAll(async () => {
    await gnucash?.close();
    await screen?.close();
    await stack?.close();
    delete process.env[tokenEnv];
  });

  it('holds the toolbar Enter, which records a transaction, and the saved book holds it once', async () => {
    await stack.configure(
      {},
      {
        gnucash: {
          screen_url: screen.url,
          screen_token_env: tokenEnv,
          screen_tls: { fingerprint_sha256: screen.fingerprint },
          system: 'GnuCash 4.13 (Debian)',
          max_steps: 40,
          max_seconds: 280,
          planner: await stack.planner(SCRIPT),
        },
      },
    );
    const { run, held } = await runApprovingEveryWrite(stack, 'gnucash');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });

    // The Enter button was held for a person, with the reason in words.
    const enter = held.find((h) => (h.action as { x?: number }).x === 432);
    expect(enter?.why).toMatch(
      /^click on “[^”]*Enter[^”]*” \(read from the screen by OCR.*which names the commit key Enter\)$/,
    );
    // The step keeps how its label was read: OCR's words there, with their confidences.
    const enterStep = run.steps.find((s: any) => s.action?.x === 432);
    expect(enterStep.label_evidence).toMatchObject({
      source: 'ocr',
      of: 'click',
      words: expect.arrayContaining([
        { text: expect.stringContaining('Enter'), confidence: expect.any(Number) },
      ]) as unknown,
    });
    // Every typing was held too, and the Save.
    const typed = held.filter((h) => (h.action as { action: string }).action === 'type');
    expect(typed.map((h) => (h.action as { text: string }).text)).toEqual([
      'Coffee',
      'Dining',
      '3.50',
    ]);
    expect(held.some((h) => (h.action as { x?: number }).x === 46)).toBe(true);
    // No action was sent without the step that records it.
    const performed = screen.actions().filter((a) => a.outcome === 'performed');
    const sent = run.steps.filter((s: any) => ['sent', 'sent_after_approval'].includes(s.outcome));
    expect(performed).toHaveLength(
      sent.filter((s: any) => !['wait', 'done'].includes(s.action.action)).length,
    );

    // GnuCash's own record, read with its engine: the saved book holds exactly that transaction.
    expect(await readTransactions(gnucash.book)).toEqual([
      {
        description: 'Coffee',
        splits: [
          { account: ACCOUNTS.checking, value: '-350/100' },
          { account: ACCOUNTS.dining, value: '350/100' },
        ],
      },
    ]);
  });
});
