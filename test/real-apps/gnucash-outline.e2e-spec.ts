import { execFileSync } from 'node:child_process';
import type { OutlineElement } from '@warden/protocol';
import { startX11Screen, type X11Screen } from '../support/x11-screen';
import { until } from '../support/until';
import { checkAction, labelAt, loadRules } from '../../src/computer-use/actions';
import { type RecordedStep, runApprovingEveryWrite } from '../support/approving';
import { ACCOUNTS, readTransactions, startGnuCash, type GnuCash } from '../support/gnucash';
import { startStack, type Stack } from '../support/stack';

/**
 * GnuCash 4.13 under Xvfb through the x11 screen host with its outline from AT-SPI (GTK's
 * accessible tree on the display's accessibility bus, which the host starts): the labels of the
 * clicks come from the outline, the script aims at elements by role and name and waits on them
 * instead of fixed waits, and the book GnuCash saved is read back.
 *
 * What the outline says: the toolbar's "Enter" is a button described "Record the current
 * transaction" (a commit key's name: a write), "Save" a button (a write), the register's cell
 * editor an unnamed text field (a click on it focuses a field: a read), the account "Checking"
 * a cell (no committing verb: a read). GnuCash draws its register's cells itself and publishes
 * only the editor: a click on a cell away from the editor has no outline element, so the script
 * moves between cells with Tab, a navigation key.
 *
 * An open menu: GTK draws it in a window of its own over the main window, and AT-SPI keeps its
 * items in the main window's tree; the host serves the items and not what they cover (the
 * toolbar's buttons, the tab Accounts), so a click on File ▸ Save is judged on the item Save.
 */

jest.setTimeout(300_000);

const element = (role: string, name: string) => ({ role, name });
const type = (text: string) => ({ action: { action: 'type', text } });
const tab = { action: { action: 'key', key: 'Tab' } };

const SCRIPT = {
  patience: 60,
  steps: [
    {
      step: 'open the account Checking',
      when: { element: element('tab', 'Accounts') },
      action: { action: 'double_click', element: element('cell', 'Checking') },
    },
    // The register's editor starts in the Date cell; Num, then Description.
    { when: { element: element('button', 'Enter') }, ...tab },
    tab,
    {
      // The editor is an unnamed text field (a script names elements by a name): its place, as
      // GnuCash lays out its register at 800x600.
      step: 'the empty Description cell, where the editor is',
      action: { action: 'click', x: 266, y: 167 },
    },
    type('Coffee'),
    tab, // Transfer
    type('Dining'),
    tab,
    tab, // Withdrawal
    type('3.50'),
    {
      step: "the toolbar's Enter: records the transaction",
      action: { action: 'click', element: element('button', 'Enter') },
    },
    {
      step: "the toolbar's Save",
      when: { text: '^\\*book\\.gnucash' },
      action: { action: 'click', element: element('button', 'Save') },
    },
    {
      when: { text: '^book\\.gnucash - Checking - GnuCash$' },
      action: { action: 'done', summary: 'Coffee, 3.50 from Checking to Dining, saved' },
    },
  ],
};

/**
 * A second transaction, saved from the File menu. The click on File ▸ Save is aimed where the
 * item lies over the tab Accounts (GTK lays the menu out from 0,25, 25 px an item: Save is
 * 0,101 249x25; the tab is 49,92 64x34), and names no target: the outline alone judges it.
 */
const SAVE_FROM_MENU = {
  patience: 60,
  steps: [
    // The register's editor is in the blank transaction's Date cell; Num, then Description.
    { when: { element: element('button', 'Enter') }, ...tab },
    tab,
    type('Tea'),
    tab, // Transfer
    type('Dining'),
    tab,
    tab, // Withdrawal
    type('1.00'),
    { step: 'record the transaction', action: { action: 'key', key: 'Enter' } },
    {
      step: 'open the File menu',
      when: { text: '^\\*book\\.gnucash' },
      action: { action: 'click', element: element('menu', 'File') },
    },
    {
      step: 'File ▸ Save, over the tab Accounts',
      when: { element: element('menuitem', 'Save') },
      action: { action: 'click', x: 60, y: 113 },
    },
    {
      when: { text: '^book\\.gnucash - Checking - GnuCash$' },
      action: { action: 'done', summary: 'Tea, 1.00 from Checking to Dining, saved from the menu' },
    },
  ],
};

describe('GnuCash through the x11 screen host, with its outline from AT-SPI', () => {
  let stack: Stack;
  let screen: X11Screen;
  let gnucash: GnuCash;
  const tokenEnv = 'WARDEN_TEST_GNUCASH_OUTLINE_HOST_TOKEN';

  beforeAll(async () => {
    stack = await startStack();
    // The host first: GnuCash finds the accessibility bus the host announces when it starts.
    screen = await startX11Screen(() => undefined);
    process.env[tokenEnv] = screen.token;
    await stack.grant(tokenEnv, screen.url);
    gnucash = await startGnuCash(screen.display, screen.dir);
  });

  const agent = async (planner: unknown) => ({
    gnucash: {
      screen_url: screen.url,
      screen_token_env: tokenEnv,
      screen_tls: { fingerprint_sha256: screen.fingerprint },
      system: 'GnuCash 4.13 (Debian)',
      max_steps: 40,
      max_seconds: 280,
      planner: await stack.planner(planner),
    },
  });

  afterAll(async () => {
    await gnucash?.close();
    await screen?.close();
    await stack?.close();
    delete process.env[tokenEnv];
  });

  it('holds the typing, the Enter that records and the Save, and no read', async () => {
    await stack.configure({}, await agent(SCRIPT));
    const { run, held } = await runApprovingEveryWrite(stack, 'gnucash');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });

    // Held: exactly the real writes, in order, each for the outline's reason.
    expect(held.map((h) => h.why)).toEqual([
      'typing into a field is a write',
      'typing into a field is a write',
      'typing into a field is a write',
      expect.stringMatching(
        /^click on “Enter” \(from the screen outline, which names the commit key Enter: a control does what its key does\)$/,
      ),
      expect.stringMatching(/^click on “Save” \(from the screen outline\)$/),
    ]);
    expect(held.slice(0, 3).map((h) => (h.action as { text: string }).text)).toEqual([
      'Coffee',
      'Dining',
      '3.50',
    ]);

    // Sent without a person: the reads, each for the outline's reason.
    const steps = run.steps as RecordedStep[];
    const reads = steps.filter((s) => s.classification === 'read' && s.action.action !== 'done');
    expect(reads.map((s) => s.why)).toEqual([
      expect.stringMatching(
        /^double-click on “Checking” \(from the screen outline\): no committing verb$/,
      ),
      'key Tab navigates',
      'key Tab navigates',
      expect.stringMatching(
        /on an unnamed text field of the screen outline: focusing a field is a read$/,
      ),
      'key Tab navigates',
      'key Tab navigates',
      'key Tab navigates',
    ]);
    for (const s of reads) expect(s.outcome).toBe('sent');

    // Each click keeps how its label was read: here the outline's element.
    const enter = steps.find((s) => /^click on “Enter”/.test(s.why)) as any;
    expect(enter.label_evidence).toEqual({
      source: 'outline',
      of: 'click',
      element: {
        id: expect.any(String),
        role: 'button',
        name: 'Enter',
        description: 'Record the current transaction',
        // Where the button is, for the console to frame it.
        rect: {
          x: expect.any(Number),
          y: expect.any(Number),
          width: expect.any(Number),
          height: expect.any(Number),
        },
      },
      // The scripted planner names the element it aims at as its target.
      target: 'Enter',
    });
    expect(enter.label_evidence.element.rect.width).toBeGreaterThan(0);
    expect(enter.label_evidence.element.rect.height).toBeGreaterThan(0);
    const checking = steps.find((s) => /^double-click on “Checking”/.test(s.why)) as any;
    expect(checking.label_evidence).toMatchObject({
      source: 'outline',
      element: { role: 'cell', name: 'Checking' },
    });

    // Every write sent has its receipt: what GnuCash's status bar (or a dialog) said once the
    // screen settled, or why nothing was read; GnuCash refused none of them.
    const writes = (run.steps as any[]).filter((s) => s.classification === 'write');
    expect(writes.length).toBeGreaterThan(0);
    for (const w of writes) {
      expect(w.outcome).toBe('sent_after_approval');
      expect(w.receipt).toBeDefined();
      expect(Object.keys(w.receipt).sort()).toEqual(
        'message' in w.receipt ? ['before', 'fresh', 'message'] : ['before', 'none'],
      );
    }

    // The host performed exactly the actions Warden sent.
    const performed = screen.actions().filter((a) => a.outcome === 'performed');
    const sent = steps.filter((s) => ['sent', 'sent_after_approval'].includes(s.outcome));
    expect(performed).toHaveLength(sent.filter((s) => s.action.action !== 'done').length);

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

  it('an open menu: a click anywhere on an item is judged on the item, never on what lies under it', async () => {
    const xdotool = (...args: string[]) =>
      execFileSync('xdotool', args, { env: { ...process.env, DISPLAY: screen.display } });
    const outline = (await screen.elements())!;
    const file = outline.find((e) => e.role === 'menu' && e.name === 'File')!;
    xdotool(...['mousemove', String(file.rect.x + 10), String(file.rect.y + 10), 'click', '1']);
    const open = await until(
      'the File menu open',
      async () => {
        const got = await screen.elements();
        return got?.some((e) => e.role === 'menuitem' && e.name === 'Save As...') ? got : null;
      },
      30_000,
      100,
    );
    try {
      const items = open.filter((e) => e.role === 'menuitem');
      expect(items.length).toBeGreaterThan(8);
      const rules = loadRules();
      const wrong: string[] = [];
      for (const item of items) {
        const { x, y, width, height } = item.rect;
        for (let px = x + 1; px < x + width; px += 16) {
          for (const py of [y + 1, y + Math.floor(height / 2), y + height - 2]) {
            const under: OutlineElement | null = labelAt(open, px, py);
            const verdict = checkAction(
              { action: 'click', x: px, y: py },
              { width: 1280, height: 800, outline: open },
              rules,
            );
            // Close names only navigation (docs/rules.md's navigation words); every other item is a command.
            const expected = item.name === 'Close' ? 'read' : 'write';
            if (under !== item || verdict.classification !== expected) {
              wrong.push(`${item.name} at (${px}, ${py}): ${verdict.why}`);
            }
          }
        }
      }
      expect(wrong).toEqual([]);
    } finally {
      xdotool('key', 'Escape');
    }
    await until(
      'the File menu closed',
      async () =>
        (await screen.elements())?.some((e) => e.role === 'menuitem') === false ? true : null,
      30_000,
      100,
    );
  });

  it('saves from the File menu: the click on the item is held, and saves once', async () => {
    await stack.configure({}, await agent(SAVE_FROM_MENU));
    const { run, held } = await runApprovingEveryWrite(stack, 'gnucash');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(held.map((h) => h.why)).toEqual([
      'typing into a field is a write',
      'typing into a field is a write',
      'typing into a field is a write',
      'key Enter commits',
      'click on “Save” (from the screen outline)',
    ]);
    const steps = run.steps as RecordedStep[];
    // Judged on the item, not on the tab under it.
    const save = steps.find((s) => s.action.action === 'click' && s.action.x === 60)!;
    expect(save.label_evidence).toMatchObject({
      source: 'outline',
      element: { role: 'menuitem', name: 'Save' },
    });
    expect(save.outcome).toBe('sent_after_approval');
    const menu = steps.find((s) => s.action.action === 'click' && s.action.target === 'File')!;
    expect(menu).toMatchObject({ classification: 'read', outcome: 'sent' });
    // Sent once: the host performed one click there.
    const clicks = screen.actions().filter((a) => {
      const action = a.action as { action?: string; x?: number; y?: number };
      return a.outcome === 'performed' && action.action === 'click' && action.x === 60;
    });
    expect(clicks).toHaveLength(1);
    // GnuCash's own record: both transactions, saved.
    expect(await readTransactions(gnucash.book)).toEqual([
      {
        description: 'Coffee',
        splits: [
          { account: ACCOUNTS.checking, value: '-350/100' },
          { account: ACCOUNTS.dining, value: '350/100' },
        ],
      },
      {
        description: 'Tea',
        splits: [
          { account: ACCOUNTS.checking, value: '-100/100' },
          { account: ACCOUNTS.dining, value: '100/100' },
        ],
      },
    ]);
  });
});
