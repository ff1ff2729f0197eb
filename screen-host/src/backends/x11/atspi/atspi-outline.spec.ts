import { outlineElementOf, outlineText, rectOf, shownRects } from './atspi-elements';
import { type AtspiNode, ROOT_PATH } from './atspi-node';
import { chooseElements } from './atspi-outline';
import { activeWindow, inactiveWindow, popupCandidates } from './atspi-windows';
import { ATSPI_ROLE, ATSPI_STATE } from './atspi-roles';

const { showing, visible, sensitive, enabled, editable, focused, active, modal } = ATSPI_STATE;
const PANEL = 39;
const FILLER = 20;

function states(...bits: number[]): number[] {
  const words = [0, 0];
  for (const bit of bits) words[bit >> 5] = (words[bit >> 5] | (1 << (bit & 31))) >>> 0;
  return words;
}
const on = [showing, visible, sensitive, enabled];
const TEXT = ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Component', 'org.a11y.atspi.Text'];

let index = 0;
function node(
  path: string,
  parent: string,
  role: number,
  name = '',
  bits: number[] = on,
  more: Partial<AtspiNode> = {},
): AtspiNode {
  return {
    app: ':1.9',
    path,
    parent,
    index: index++,
    childCount: 0,
    name,
    description: '',
    role,
    states: states(...bits),
    interfaces: TEXT,
    ...more,
  };
}

/** GnuCash's register as AT-SPI shows it: the toolbar, a menu, the sheet with its cell editor. */
function register(): AtspiNode[] {
  index = 0;
  return [
    node('/w', ROOT_PATH, ATSPI_ROLE.frame, '*book.gnucash - Checking - GnuCash', [...on, active]),
    node('/menubar', '/w', ATSPI_ROLE.menuBar),
    node('/file', '/menubar', ATSPI_ROLE.menu, 'File'),
    // A menu item of a closed menu: not showing, not on the screen.
    node('/save-item', '/file', ATSPI_ROLE.menuItem, 'Save', [visible, sensitive, enabled]),
    node('/toolbar', '/w', ATSPI_ROLE.toolBar),
    node('/slot', '/toolbar', PANEL),
    node('/enter', '/slot', ATSPI_ROLE.pushButton, 'Enter', on, {
      description: 'Record the current transaction',
    }),
    node('/split', '/toolbar', ATSPI_ROLE.toggleButton, 'Split'),
    node('/sheet', '/w', PANEL, '', [...on, focused]),
    node('/editor-box', '/sheet', FILLER),
    node('/editor', '/editor-box', ATSPI_ROLE.text, '', [...on, editable, focused]),
    node('/pin', '/w', ATSPI_ROLE.passwordText, 'PIN', [...on, editable]),
    node('/status', '/w', ATSPI_ROLE.statusBar, 'Enter a description of the transaction'),
  ];
}

describe('the active window and its elements', () => {
  it('takes the active top-level window; none when no window is active', () => {
    const nodes = register();
    expect(activeWindow(nodes)?.path).toBe('/w');
    nodes[0] = { ...nodes[0], states: states(...on) };
    expect(activeWindow(nodes)).toBeNull();
  });

  it('a modal dialog over the main window is the screen', () => {
    const nodes = [
      ...register(),
      node('/d', ROOT_PATH, ATSPI_ROLE.dialog, 'Save changes?', [...on, active, modal]),
      node('/d-yes', '/d', ATSPI_ROLE.pushButton, 'Yes'),
    ];
    const window = activeWindow(nodes)!;
    expect(window.path).toBe('/d');
    const chosen = chooseElements(nodes, window);
    expect(chosen.map((c) => [c.role, c.node.name, c.area])).toEqual([
      ['title', 'Save changes?', undefined],
      ['dialog', 'Save changes?', 'dialog'],
      ['button', 'Yes', 'dialog'],
    ]);
    const dialog = outlineElementOf(chosen[1], { x: 100, y: 100, width: 300, height: 120 }, null);
    expect(dialog).toMatchObject({ role: 'dialog', states: ['modal'], area: 'dialog' });
  });

  it("a modal dialog of the active window's application is the screen, even when it is not marked active", () => {
    // LibreOffice's "Keep current format" under Xvfb without a window manager: GTK marks the
    // document window active, and the dialog over it only modal.
    const nodes = [
      ...register(),
      node('/keep', ROOT_PATH, ATSPI_ROLE.alert, 'Question', [...on, modal]),
      node('/keep-csv', '/keep', ATSPI_ROLE.pushButton, 'Use Text CSV Format'),
    ];
    expect(activeWindow(nodes)?.path).toBe('/keep');
    // Another application's modal dialog does not take this one's input.
    const other = nodes.map((n) => (n.path.startsWith('/keep') ? { ...n, app: ':1.7' } : n));
    expect(activeWindow(other)?.path).toBe('/w');
    // Two modal dialogs, neither active: nothing tells which takes the input.
    const two = [...nodes, node('/second', ROOT_PATH, ATSPI_ROLE.dialog, 'Second', [...on, modal])];
    expect(activeWindow(two)).toBeNull();
    two[two.length - 1] = { ...two[two.length - 1], states: states(...on, modal, active) };
    expect(activeWindow(two)?.path).toBe('/second');
  });

  it('a Qt dialog, which no toolkit state marks modal, is the screen, and served modal', () => {
    // FeatherPad's "Save changes?" under Xvfb: a dialog, showing, neither active nor modal.
    const nodes = [
      ...register(),
      node('/d', ROOT_PATH, ATSPI_ROLE.dialog, '', on),
      node('/discard', '/d', ATSPI_ROLE.pushButton, 'Discard changes'),
    ];
    // A toolkit that marks modal dialogs (GTK): a dialog without the state is not modal.
    expect(activeWindow(nodes)?.path).toBe('/w');
    const qt = new Set([':1.9']);
    const window = activeWindow(nodes, qt)!;
    expect(window.path).toBe('/d');
    const chosen = chooseElements(nodes, window, undefined, { modalUnstated: true });
    const dialog = outlineElementOf(chosen[1], { x: 175, y: 156, width: 330, height: 108 }, null);
    expect(dialog).toMatchObject({ role: 'dialog', states: ['modal'], area: 'dialog' });
  });

  it('with no window active, the one application showing a window: that window, and the title says so', () => {
    // Qt without a window manager once its Save dialog closed: nothing is active.
    const nodes = register().map((n) => (n.path === '/w' ? { ...n, states: states(...on) } : n));
    expect(activeWindow(nodes)).toBeNull();
    const window = inactiveWindow(nodes)!;
    expect(window.path).toBe('/w');
    const [title] = chooseElements(nodes, window, undefined, { unmarked: 'none active' });
    expect(outlineElementOf(title, { x: 0, y: 0, width: 700, height: 0 }, null)).toEqual({
      id: ':1.9/w#title',
      role: 'title',
      name: '*book.gnucash - Checking - GnuCash',
      rect: { x: 0, y: 0, width: 700, height: 0 },
      description: 'none active',
    });
    // Its dialog (Qt: taken as modal) over it is the screen.
    const withDialog = [...nodes, node('/d', ROOT_PATH, ATSPI_ROLE.dialog, 'Save as...', on)];
    expect(inactiveWindow(withDialog, new Set([':1.9']))?.path).toBe('/d');
    // Nothing tells which window takes the input: two windows, no modal one; two applications.
    expect(inactiveWindow(withDialog)).toBeNull();
    const twoApps = [
      ...nodes,
      { ...node('/o', ROOT_PATH, ATSPI_ROLE.frame, 'Other', on), app: ':1.7' },
    ];
    expect(inactiveWindow(twoApps)).toBeNull();
    // A popup window does not count; an active window anywhere leaves it to activeWindow.
    const popup = [...nodes, node('/p', ROOT_PATH, ATSPI_ROLE.window, '', on)];
    expect(inactiveWindow(popup)?.path).toBe('/w');
    expect(inactiveWindow(register())).toBeNull();
  });

  it("Qt's menu bar: an item that opens a menu is a menu (navigation), an item that acts a command", () => {
    const nodes = [
      ...register(),
      node('/qt-bar', '/w', ATSPI_ROLE.menuBar),
      node('/qt-file', '/qt-bar', ATSPI_ROLE.menuItem, 'Edit', on, { childCount: 1 }),
      node('/qt-popup', '/qt-file', ATSPI_ROLE.popupMenu),
      node('/qt-undo', '/qt-popup', ATSPI_ROLE.menuItem, 'Undo'),
      node('/qt-recent', '/qt-popup', ATSPI_ROLE.menuItem, 'Recently Modified', on, {
        childCount: 1,
      }),
    ];
    const chosen = chooseElements(nodes, activeWindow(nodes)!);
    const at = (name: string) => chosen.find((c) => c.node.name === name);
    expect(at('Edit')).toMatchObject({ role: 'menu', area: 'menu', popup: false });
    expect(at('Undo')).toMatchObject({ role: 'menuitem', area: 'menu', popup: true });
    expect(at('Recently Modified')).toMatchObject({ role: 'menu', popup: true });
    // The popup menu itself is the open menu: a container, not served.
    expect(chosen.some((c) => c.node.path === '/qt-popup')).toBe(false);
  });

  it('serves what shows, mapped, parents first; leaves out what it does not know', () => {
    const nodes = register();
    const chosen = chooseElements(nodes, activeWindow(nodes)!);
    expect(chosen.map((c) => `${c.role} ${c.node.name}`.trim())).toEqual([
      'title *book.gnucash - Checking - GnuCash',
      'menubar',
      'menu File',
      'toolbar',
      'button Enter',
      'togglebutton Split',
      'textbox',
      'passwordfield PIN',
      'status Enter a description of the transaction',
    ]);
    const byName = (name: string) => chosen.find((c) => c.node.name === name)!;
    expect(byName('Enter').area).toBe('toolbar');
    expect(byName('File').area).toBe('menu');
    expect(chosen.find((c) => c.role === 'textbox')).toMatchObject({ area: 'input', text: true });
    expect(byName('PIN')).toMatchObject({ password: true, text: false });
  });

  it('elements: a description, a value for a text field, never for a password field', () => {
    const nodes = register();
    const chosen = chooseElements(nodes, activeWindow(nodes)!);
    const rect = { x: 390, y: 29, width: 87, height: 56 };
    const enter = chosen.find((c) => c.node.name === 'Enter')!;
    expect(outlineElementOf(enter, rect, null)).toEqual({
      id: ':1.9/enter',
      role: 'button',
      name: 'Enter',
      description: 'Record the current transaction',
      rect,
      area: 'toolbar',
    });
    const editor = chosen.find((c) => c.role === 'textbox')!;
    expect(outlineElementOf(editor, rect, 'Coffee')).toMatchObject({
      role: 'textbox',
      value: 'Coffee',
      states: ['editable', 'changeable', 'focused'],
      area: 'input',
    });
    const pin = chosen.find((c) => c.node.name === 'PIN')!;
    const served = outlineElementOf(pin, rect, '1234');
    expect(served).toMatchObject({ role: 'passwordfield', password: true });
    expect(served).not.toHaveProperty('value');
    const title = outlineElementOf(chosen[0], { ...rect, height: 0 }, 'ignored');
    expect(title).toEqual({
      id: ':1.9/w#title',
      role: 'title',
      name: '*book.gnucash - Checking - GnuCash',
      rect: { ...rect, height: 0 },
    });
  });

  it("a tree's cell made of cells is left out; its parts are served", () => {
    index = 0;
    const nodes = [
      node('/w', ROOT_PATH, ATSPI_ROLE.frame, 'Accounts', [...on, active]),
      node('/tree', '/w', ATSPI_ROLE.treeTable),
      node('/row', '/tree', ATSPI_ROLE.tableCell, ''),
      node('/expander', '/row', ATSPI_ROLE.tableCell, ''),
      node('/name', '/row', ATSPI_ROLE.tableCell, 'Checking'),
      node('/total', '/tree', ATSPI_ROLE.tableCell, '€0.00'),
    ];
    expect(chooseElements(nodes, nodes[0]).map((c) => c.node.path)).toEqual([
      '/w',
      '/tree',
      '/expander',
      '/name',
      '/total',
    ]);
  });

  it('bounds depth and element count', () => {
    index = 0;
    const deep: AtspiNode[] = [node('/w', ROOT_PATH, ATSPI_ROLE.frame, 'W', [...on, active])];
    for (let i = 1; i <= 60; i++) {
      deep.push(node(`/b${i}`, i === 1 ? '/w' : `/b${i - 1}`, ATSPI_ROLE.pushButton, `B${i}`));
    }
    const bounds = { maxDepth: 10, maxElements: 2000, maxText: 50 };
    expect(chooseElements(deep, deep[0], bounds)).toHaveLength(1 + 10);
    expect(
      chooseElements(deep, deep[0], { ...bounds, maxDepth: 100, maxElements: 5 }),
    ).toHaveLength(5);
  });

  it('survives a cycle in the parents', () => {
    index = 0;
    const nodes = [
      node('/w', ROOT_PATH, ATSPI_ROLE.frame, 'W', [...on, active]),
      node('/a', '/b', ATSPI_ROLE.pushButton, 'A'),
      node('/b', '/a', ATSPI_ROLE.pushButton, 'B'),
    ];
    expect(chooseElements(nodes, nodes[0])).toHaveLength(1);
  });
});

describe('popups', () => {
  it("a menu bar's open menu: its items are drawn in a popup, and a submenu's too", () => {
    const nodes = [
      ...register(),
      node('/new', '/file', ATSPI_ROLE.menuItem, 'New File'),
      node('/import', '/file', ATSPI_ROLE.menu, 'Import'),
      node('/qif', '/import', ATSPI_ROLE.menuItem, 'Import QIF...'),
    ];
    const chosen = chooseElements(nodes, activeWindow(nodes)!);
    const popup = Object.fromEntries(chosen.map((c) => [c.node.name || c.role, c.popup]));
    expect(popup).toMatchObject({
      File: false,
      'New File': true,
      Import: true,
      'Import QIF...': true,
      Enter: false,
    });
    expect(chosen.find((c) => c.node.name === 'Import')).toMatchObject({ role: 'menu' });
  });

  it("a combo box's open menu is a container, left out; its items are in a popup", () => {
    const nodes = [
      ...register(),
      node('/combo', '/w', ATSPI_ROLE.comboBox, '$, Grand Total:'),
      node('/combo-menu', '/combo', ATSPI_ROLE.menu, ''),
      node('/total', '/combo-menu', ATSPI_ROLE.menuItem, '€:'),
    ];
    const chosen = chooseElements(nodes, activeWindow(nodes)!);
    expect(chosen.some((c) => c.node.path === '/combo-menu')).toBe(false);
    expect(chosen.find((c) => c.node.path === '/total')).toMatchObject({
      role: 'menuitem',
      popup: true,
      area: 'menu',
    });
  });

  it("a popup window's own menu is a container, and its items are in the window itself", () => {
    // GTK's combo box list as a top-level window of its own, active while it shows.
    index = 0;
    const nodes = [
      node('/w', ROOT_PATH, ATSPI_ROLE.frame, 'book.gnucash - Accounts - GnuCash'),
      node('/popup', ROOT_PATH, ATSPI_ROLE.window, '', [...on, active]),
      node('/menu', '/popup', ATSPI_ROLE.menu, ''),
      node('/dollar', '/menu', ATSPI_ROLE.menuItem, '$:'),
    ];
    const window = activeWindow(nodes)!;
    expect(window.path).toBe('/popup');
    const chosen = chooseElements(nodes, window);
    expect(chosen.map((c) => [c.role, c.node.path, c.popup])).toEqual([
      ['title', '/popup', false],
      ['menuitem', '/dollar', false],
    ]);
  });

  it("in a popup window, a list's cells are options: a click chooses a value", () => {
    // LibreOffice Calc's font size list, a modal top-level window of role window.
    index = 0;
    const nodes = [
      node('/calc', ROOT_PATH, ATSPI_ROLE.frame, 'sheet.csv - LibreOffice Calc', [...on, active]),
      node('/sheet-cell', '/calc', ATSPI_ROLE.tableCell, 'A1'),
      node('/sizes', ROOT_PATH, ATSPI_ROLE.window, '', [...on, active, modal]),
      node('/table', '/sizes', ATSPI_ROLE.table, ''),
      node('/12', '/table', ATSPI_ROLE.tableCell, '12 pt'),
    ];
    const window = activeWindow(nodes)!;
    expect(window.path).toBe('/sizes');
    expect(chooseElements(nodes, window).map((c) => `${c.role} ${c.node.name}`)).toEqual([
      'title ',
      'table ',
      'option 12 pt',
    ]);
    // A popup over the screen is served without a title of its own.
    const over = chooseElements(nodes, window, undefined, { title: false });
    expect(over.map((c) => c.role)).toEqual(['table', 'option']);
    expect(over[0].within).toBeNull();
    // In the document window, a cell stays a cell.
    expect(chooseElements(nodes, nodes[0]).map((c) => c.role)).toEqual(['title', 'cell']);
  });

  it("the candidates for popups: the other showing top-level windows of the screen's application", () => {
    index = 0;
    const nodes = [
      node('/w', ROOT_PATH, ATSPI_ROLE.frame, 'Main', [...on, active]),
      node('/completion', ROOT_PATH, ATSPI_ROLE.window, ''),
      node('/hidden', ROOT_PATH, ATSPI_ROLE.window, '', [visible]),
      node('/child', '/w', ATSPI_ROLE.window, ''),
      { ...node('/other-app', ROOT_PATH, ATSPI_ROLE.window, ''), app: ':1.7' },
    ];
    expect(popupCandidates(nodes, nodes[0]).map((n) => n.path)).toEqual(['/completion']);
  });
});

describe('outline text', () => {
  it('takes out bidirectional isolates and control characters, and cuts long text', () => {
    expect(outlineText('\u2066€0.00\u2069', 500)).toBe('€0.00');
    expect(outlineText('a\u202eb\u0007c', 500)).toBe('abc');
    expect(outlineText('  two\n  lines ', 500)).toBe('two lines');
    expect(outlineText('x'.repeat(600), 500)).toBe(`${'x'.repeat(499)}…`);
  });

  it('rectangles: four integers with a size, else none', () => {
    expect(rectOf([1, 2, 3, 4])).toEqual({ x: 1, y: 2, width: 3, height: 4 });
    expect(rectOf([1, 2, 0, 4])).toBeNull();
    expect(rectOf([-2147483648, -2147483648, -1, -1])).toBeNull();
    expect(rectOf([1, 2, 3])).toBeNull();
    expect(rectOf('1,2,3,4')).toBeNull();
  });
});

describe('where each element shows', () => {
  /** LibreOffice Calc's window: its menu bar, and the menu bar of its own it keeps collapsed. */
  function calc(): AtspiNode[] {
    index = 0;
    return [
      node('/w', ROOT_PATH, ATSPI_ROLE.frame, 'sheet.csv - LibreOffice Calc', [...on, active]),
      node('/menubar', '/w', ATSPI_ROLE.menuBar),
      node('/file', '/menubar', ATSPI_ROLE.menu, 'File'),
      node('/pane', '/w', PANEL),
      node('/vcl-menubar', '/pane', ATSPI_ROLE.menuBar),
      node('/vcl-file', '/vcl-menubar', ATSPI_ROLE.menu, 'File'),
      node('/toolbar', '/pane', ATSPI_ROLE.toolBar, 'Standard'),
      node('/save', '/toolbar', ATSPI_ROLE.pushButton, 'Save'),
    ];
  }

  it("a collapsed menu bar's menus are not on the screen, whatever rectangles they report", () => {
    const nodes = calc();
    const chosen = chooseElements(nodes, nodes[0]);
    expect(chosen.map((c) => [c.node.path, c.within])).toEqual([
      ['/w', null],
      ['/menubar', 0],
      ['/file', 1],
      ['/vcl-menubar', 0],
      ['/vcl-file', 3],
      ['/toolbar', 0],
      ['/save', 5],
    ]);
    const shown = shownRects(chosen, [
      [57, 50, 1165, 700],
      [57, 50, 1141, 25],
      [57, 50, 39, 25],
      // Height 0, and its menu reports a place over the toolbar's Save.
      [57, 75, 1165, 0],
      [57, 75, 35, 19],
      [57, 75, 1165, 39],
      [149, 77, 44, 35],
    ]);
    expect(shown).toEqual([
      { x: 57, y: 50, width: 1165, height: 700 },
      { x: 57, y: 50, width: 1141, height: 25 },
      { x: 57, y: 50, width: 39, height: 25 },
      null,
      null,
      { x: 57, y: 75, width: 1165, height: 39 },
      { x: 149, y: 77, width: 44, height: 35 },
    ]);
  });

  it('keeps a rectangle that lies outside the element it is in (a GTK notebook page is in its tab); one with none is left out', () => {
    const nodes = calc();
    const chosen = chooseElements(nodes, nodes[0]);
    const shown = shownRects(chosen, [
      [0, 0, 800, 600],
      null, // no answer: not served, and what lies in it is still served
      [700, 10, 200, 20],
      [0, 0, 800, 30],
      [900, 0, 50, 20],
      [0, 40, 80, 40],
      [10, 90, 40, 40],
    ]);
    expect(shown).toEqual([
      { x: 0, y: 0, width: 800, height: 600 },
      null,
      { x: 700, y: 10, width: 200, height: 20 },
      { x: 0, y: 0, width: 800, height: 30 },
      { x: 900, y: 0, width: 50, height: 20 },
      { x: 0, y: 40, width: 80, height: 40 },
      { x: 10, y: 90, width: 40, height: 40 },
    ]);
  });
});
