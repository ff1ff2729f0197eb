import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { OutlineElement } from '@warden/protocol';
import { startX11Screen, type X11Screen } from '../support/x11-screen';
import { until } from '../support/until';
import { checkAction, labelAt, loadRules } from '../../src/computer-use/actions';
import { type RecordedStep, runApprovingEveryWrite } from '../support/approving';
import { placedRight, readSheet, startCalc, type Calc } from '../support/libreoffice';
import { startStack, type Stack } from '../support/stack';

/**
 * LibreOffice Calc 7.4 (Debian, its GTK 3 UI) under Xvfb through the x11 screen host with its
 * outline from AT-SPI: a second real application, of another toolkit (LibreOffice's own widgets,
 * published through GTK's accessibility bridge), started once for the suite. The script aims at
 * elements by role and name and waits on them with `when`: a click into the cell A2, the typing,
 * Tab between cells, Ctrl+S, and the button of LibreOffice's "Keep current format" dialog that
 * saves the CSV file. The file is read back by a headless LibreOffice of its own.
 *
 * What the outline says: a cell of the sheet is an editable cell (a text field: a click on it
 * focuses it, a read); the dialog is modal, and its "Use Text CSV Format" a push button (a write).
 * Calc's sheet says it holds 2,147,483,647 cells: the host reads only those it shows.
 *
 * Popups: the font size list is a modal window of its own whose cells are the sizes (options: a
 * click chooses a value, an edit); the File menu is drawn in a window of its own over the sheet,
 * and its items are served, not the cells they cover (Save lies over the cell B7, a text field).
 */

jest.setTimeout(300_000);

const cell = (name: string) => ({ role: 'textbox', name });
const KEEP_CSV = { role: 'button', name: 'Use Text CSV Format' };
const OPTION_12 = { role: 'option', name: '12 pt' };
const MENU_SAVE = { role: 'menuitem', name: 'Save' };
const type = (text: string) => ({ action: { action: 'type', text } });
const tab = { action: { action: 'key', key: 'Tab' } };

const SCRIPT = {
  patience: 60,
  steps: [
    {
      step: 'the cell A2',
      when: { element: cell('A2') },
      action: { action: 'click', element: cell('A2') },
    },
    type('Coffee'),
    tab, // B2: Tab takes what was typed into A2
    type('3.50'),
    tab,
    { step: 'save', action: { action: 'key', key: 'Ctrl+S' } },
    {
      step: 'keep the CSV format',
      when: { element: KEEP_CSV },
      action: { action: 'click', element: KEEP_CSV },
    },
    {
      when: { text: '^sheet\\.csv - LibreOffice Calc$' },
      action: { action: 'done', summary: 'Coffee, 3.50 in row 2, saved as CSV' },
    },
  ],
};

/**
 * A third row, its amount cell set in 12 pt from the font size list, saved from the File menu
 * (LibreOffice asks whether to keep the CSV format once a session: the first run answered).
 * The drop-down button of the size field has no name: the script clicks where the outline shows
 * it (`sizeList`). The click on File ▸ Save names no target: the outline alone judges it.
 */
function saveFromMenu(sizeList: { x: number; y: number }) {
  return {
    patience: 60,
    steps: [
      {
        step: 'the cell A3',
        when: { element: cell('A3') },
        action: { action: 'click', element: cell('A3') },
      },
      type('Tea'),
      tab, // B3
      { step: 'open the font size list', action: { action: 'click', ...sizeList } },
      {
        step: 'the size 12 pt',
        when: { element: OPTION_12 },
        action: { action: 'click', element: OPTION_12 },
      },
      {
        step: 'open the File menu',
        when: { element: cell('B3') },
        action: { action: 'click', element: { role: 'menu', name: 'File' } },
      },
      {
        step: 'File ▸ Save',
        when: { element: MENU_SAVE },
        action: { action: 'click', element: MENU_SAVE, target: 'an item of the File menu' },
      },
      // LibreOffice asks to keep the format once a session: the first run answered it.
      {
        when: { text: '^sheet\\.csv - LibreOffice Calc$' },
        action: { action: 'done', summary: 'Tea in row 3, saved as CSV from the File menu' },
      },
    ],
  };
}

/** The unnamed drop-down button beside the font size field (`10 pt`), where the outline shows it. */
function sizeListButton(outline: readonly OutlineElement[]): { x: number; y: number } {
  const field = outline.find((e) => e.role === 'textbox' && /^\d+(\.\d+)? pt$/.test(e.value ?? ''));
  const button = outline.find(
    (e) =>
      e.role === 'togglebutton' &&
      field !== undefined &&
      e.rect.x === field.rect.x + field.rect.width &&
      e.rect.y === field.rect.y,
  );
  if (!button) throw new Error('no drop-down button beside the font size field');
  return {
    x: button.rect.x + Math.floor(button.rect.width / 2),
    y: button.rect.y + Math.floor(button.rect.height / 2),
  };
}

describe('LibreOffice Calc through the x11 screen host, with its outline from AT-SPI', () => {
  let stack: Stack;
  let screen: X11Screen;
  let calc: Calc;
  const tokenEnv = 'WARDEN_TEST_CALC_HOST_TOKEN';

  beforeAll(async () => {
    // The deployment's settle (two screenshots 50 ms apart) is left as it is: the agent sets its own
    // (settle_ms, below).
    stack = await startStack({ maskSampling: 'deployed' });
    // The host first: Calc finds the accessibility bus the host announces when it starts.
    screen = await startX11Screen(() => undefined);
    process.env[tokenEnv] = screen.token;
    await stack.grant(tokenEnv, screen.url);
    calc = await startCalc(screen.display, screen.dir, [['Item', 'Amount']], () =>
      screen.elements(),
    );
  });

  const agent = async (planner: unknown) => ({
    calc: {
      screen_url: screen.url,
      screen_token_env: tokenEnv,
      screen_tls: { fingerprint_sha256: screen.fingerprint },
      system: 'LibreOffice Calc 7.4 (Debian)',
      // LibreOffice repaints about 150 ms after a key, and its toolbars and status bar again about
      // 430 ms after (measured here): two screenshots 50 ms apart find the screen unchanged before
      // it has changed, and a write held on it goes stale. Settle on screenshots 300 ms apart.
      settle_ms: 300,
      max_steps: 30,
      max_seconds: 280,
      planner: await stack.planner(planner),
    },
  });

  afterAll(async () => {
    await calc?.close();
    await screen?.close();
    await stack?.close();
    delete process.env[tokenEnv];
  });

  it("serves Calc's window: the cells it shows, bounded, with their values, and its controls where they are", async () => {
    const outline = await until(
      'an outline with the cell A1',
      async () => {
        const got = await screen.elements();
        return got?.some((e) => e.name === 'A1') ? got : null;
      },
      90_000,
      100,
    );
    expect(outline[0]).toMatchObject({ role: 'title', name: 'sheet.csv - LibreOffice Calc' });
    const named = (role: string, name: string) =>
      outline.filter((e) => e.role === role && e.name === name);
    // The sheet, and of its 2,147,483,647 cells those it shows, from the top left, at most 200.
    expect(named('table', 'Sheet sheet')).toHaveLength(1);
    const cells = outline.filter((e) => /^[A-Z]+[0-9]+$/.test(e.name));
    expect(cells.length).toBeGreaterThan(100);
    expect(cells.length).toBeLessThanOrEqual(200);
    expect(named('textbox', 'A1')[0]).toMatchObject({
      value: 'Item',
      states: expect.arrayContaining(['editable', 'changeable']) as unknown,
      area: 'input',
    });
    expect(named('textbox', 'B1')[0]).toMatchObject({ value: 'Amount' });
    expect(named('textbox', 'A2')[0]).toMatchObject({ value: '' });
    // The toolbar's buttons, the menus (once: the menu bar LibreOffice keeps collapsed behind
    // GTK's is not served), the sheet's tab.
    expect(named('button', 'Save')[0]).toMatchObject({ area: 'toolbar' });
    expect(named('togglebutton', 'Bold')).toHaveLength(1);
    expect(named('menu', 'File')).toHaveLength(1);
    expect(named('tab', 'sheet')).toHaveLength(1);
    // LibreOffice's own widgets and GTK's agree on where they are: GTK's Name Box field lies in
    // LibreOffice's formula bar (Calc places its own 25 px too high until the pointer has moved
    // over it; startCalc moves it).
    expect(placedRight(outline)).toBe(true);
    // A click anywhere on the toolbar's Save is judged on Save: a write.
    const save = named('button', 'Save')[0].rect;
    const screenContext = { width: 1280, height: 800, outline };
    for (const y of [save.y + 2, save.y + save.height / 2, save.y + save.height - 2]) {
      const at = { x: Math.round(save.x + save.width / 2), y: Math.round(y) };
      expect(labelAt(outline, at.x, at.y)).toMatchObject({ role: 'button', name: 'Save' });
      const verdict = checkAction({ action: 'click', ...at }, screenContext, loadRules());
      expect(verdict.classification).toBe('write');
    }
  });

  it('holds the typing, the save and the Keep-format button, and no read; the file holds what was typed', async () => {
    await stack.configure({}, await agent(SCRIPT));
    const performedBefore = screen.actions().filter((a) => a.outcome === 'performed').length;
    const { run, held } = await runApprovingEveryWrite(stack, 'calc');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });

    // Held, each approved by another person and sent once: exactly the real writes, in order.
    expect(held.map((h) => h.action)).toEqual([
      { action: 'type', text: 'Coffee' },
      { action: 'type', text: '3.50' },
      { action: 'key', key: 'Ctrl+S' },
      expect.objectContaining({ action: 'click', target: 'Use Text CSV Format' }),
    ]);
    expect(held.map((h) => h.why)).toEqual([
      'typing into a field is a write',
      'typing into a field is a write',
      'key Ctrl+S commits',
      'click on “Use Text CSV Format” (a button in the screen outline): a command control is a write unless its labels name only navigation (Back, Cancel …)',
    ]);

    // Sent without a person: the reads, each for the outline's reason.
    const steps = run.steps as RecordedStep[];
    const reads = steps.filter((s) => s.classification === 'read' && s.action.action !== 'done');
    expect(reads.filter((s) => s.outcome === 'sent').map((s) => s.why)).toEqual([
      expect.stringMatching(/“A2”.*focusing a field is a read$/),
      'key Tab navigates',
      'key Tab navigates',
    ]);
    // A read judged on a frame that changed before the host acted (the caret blinks in the cell
    // being edited) was refused by the frame rule and planned again: never sent.
    for (const s of reads.filter((r) => r.outcome !== 'sent')) {
      expect(s.outcome).toBe('screen_changed');
    }

    // The dialog's button, as the outline showed it: in the modal dialog, which was the screen.
    const keep = steps.find((s) => s.action.target === 'Use Text CSV Format')!;
    expect(keep.label_evidence).toMatchObject({
      source: 'outline',
      of: 'click',
      element: { role: 'button', name: 'Use Text CSV Format' },
    });

    // The host performed exactly the actions Warden sent, each once: one Ctrl+S, one click on
    // the dialog.
    const performed = screen
      .actions()
      .filter((a) => a.outcome === 'performed')
      .slice(performedBefore);
    const sent = steps.filter((s) => ['sent', 'sent_after_approval'].includes(s.outcome));
    expect(performed).toHaveLength(sent.filter((s) => s.action.action !== 'done').length);
    const saves = sent.filter(
      (s) => s.action.key === 'Ctrl+S' || s.action.target === KEEP_CSV.name,
    );
    expect(saves.map((s) => s.outcome)).toEqual(['sent_after_approval', 'sent_after_approval']);

    // LibreOffice's own reading of the file it saved: what was typed, in row 2.
    expect(await readSheet(calc.file)).toEqual([
      ['Item', 'Amount'],
      ['Coffee', '3.5'],
    ]);
  });

  it('the font size list: every point of a size is an option, a click chooses a value (an edit)', async () => {
    const xdotool = (...args: string[]) =>
      execFileSync('xdotool', args, { env: { ...process.env, DISPLAY: screen.display } });
    const button = sizeListButton((await screen.elements())!);
    xdotool('mousemove', String(button.x), String(button.y), 'click', '1');
    const open = await until(
      'the font size list',
      async () => {
        const got = await screen.elements();
        return got?.some((e) => e.name === '12 pt') ? got : null;
      },
      30_000,
      100,
    );
    try {
      // The list is a window of its own, modal while it shows: the screen.
      const sizes = open.filter((e) => / pt$/.test(e.name) && e.rect.y >= 0);
      expect(sizes.length).toBeGreaterThan(10);
      const rules = loadRules();
      const wrong: string[] = [];
      for (const size of sizes) {
        const { x, y, width, height } = size.rect;
        for (const [px, py] of [
          [x + 1, y + 1],
          [x + Math.floor(width / 2), y + Math.floor(height / 2)],
          [x + width - 2, y + height - 2],
        ]) {
          const verdict = checkAction(
            { action: 'click', x: px, y: py },
            { width: 1280, height: 800, outline: open },
            rules,
          );
          if (
            labelAt(open, px, py) !== size ||
            verdict.classification !== 'write' ||
            !verdict.edit
          ) {
            wrong.push(`${size.name} at (${px}, ${py}): ${verdict.why}`);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(sizes[0]).toMatchObject({ role: 'option' });
    } finally {
      xdotool('key', 'Escape');
    }
    await until(
      'the list closed',
      async () => ((await screen.elements())?.some((e) => e.name === 'A1') ? true : null),
      30_000,
      100,
    );
  });

  it('holds the size chosen from the list and File ▸ Save; the file is saved once, with the new row', async () => {
    const sizeList = sizeListButton((await screen.elements())!);
    await stack.configure({}, await agent(saveFromMenu(sizeList)));
    const performedBefore = screen.actions().filter((a) => a.outcome === 'performed').length;
    const { run, held } = await runApprovingEveryWrite(stack, 'calc');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(held.map((h) => h.why)).toEqual([
      'typing into a field is a write',
      'click on an unnamed togglebutton in the screen outline: it changes a value, an edit',
      'click on “12 pt” (a option in the screen outline): it changes a value, an edit',
      'click on “Save” (from the screen outline)',
    ]);
    const steps = run.steps as RecordedStep[];
    const sent = steps.filter((s) => s.outcome === 'sent').map((s) => s.why);
    expect(sent).toEqual([
      expect.stringMatching(/“A3”.*focusing a field is a read$/),
      'key Tab navigates',
      'click on “File” (a menu in the screen outline): opening or moving to it is a read',
    ]);
    // File ▸ Save, judged on the item (not on the cell B7 under it), performed once.
    const save = steps.find((s) => s.action.target === 'an item of the File menu')!;
    expect(save).toMatchObject({ outcome: 'sent_after_approval' });
    expect(save.label_evidence).toMatchObject({ element: { role: 'menuitem', name: 'Save' } });
    const performed = screen
      .actions()
      .filter((a) => a.outcome === 'performed')
      .slice(performedBefore)
      .map((a) => a.action as { action: string; x?: number; y?: number });
    const at = (s: { action: { x: number; y: number } }) =>
      performed.filter((a) => a.action === 'click' && a.x === s.action.x && a.y === s.action.y);
    expect(at(save)).toHaveLength(1);
    // LibreOffice's own reading of the file, once it has written it: the new row (a CSV file
    // keeps no font sizes).
    await until(
      'the file saved',
      () => readFileSync(calc.file, 'utf8').includes('Tea'),
      30_000,
      100,
    );
    expect(await readSheet(calc.file)).toEqual([
      ['Item', 'Amount'],
      ['Coffee', '3.5'],
      ['Tea', ''],
    ]);
  });
});
