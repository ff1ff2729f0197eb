import type { Rect } from '@warden/protocol';
import { type ChosenGroup, layOut, popupBackdrops, type ScreenStack } from './atspi-layers';
import { type AtspiNode, ROOT_PATH } from './atspi-node';
import { chooseElements } from './atspi-outline';
import { ATSPI_ROLE, ATSPI_STATE } from './atspi-roles';

const { showing, visible, sensitive, enabled, active, modal } = ATSPI_STATE;
const FILLER = 20;
const SEPARATOR = 50;
const on = [showing, visible, sensitive, enabled];
const r = (x: number, y: number, width: number, height: number): Rect => ({ x, y, width, height });

function states(...bits: number[]): number[] {
  const words = [0, 0];
  for (const bit of bits) words[bit >> 5] = (words[bit >> 5] | (1 << (bit & 31))) >>> 0;
  return words;
}

/** A node and where AT-SPI says it is. */
type Placed = [AtspiNode, Rect | null];
let index = 0;
function node(
  path: string,
  parent: string,
  role: number,
  name: string,
  rect: Rect | null,
  bits: number[] = on,
): Placed {
  return [
    {
      app: ':1.1',
      path,
      parent,
      index: index++,
      childCount: 0,
      name,
      description: '',
      role,
      states: states(...bits),
      interfaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Component'],
    },
    rect,
  ];
}

/**
 * GnuCash 4.13 on Xvfb with its File menu open, as AT-SPI and X report it: the menu's items are
 * children of the menu bar's File in the main window's tree, drawn in an override-redirect window
 * (249x330+0+25) stacked over the main window (800x600+0+0). Under the items: the toolbar, the
 * tab Accounts, the account Checking.
 */
function gnucash(): Placed[] {
  index = 0;
  return [
    node(
      '/w',
      ROOT_PATH,
      ATSPI_ROLE.frame,
      'book.gnucash - Accounts - GnuCash',
      r(0, 0, 800, 600),
      [...on, active],
    ),
    node('/box', '/w', FILLER, '', r(0, 0, 800, 600)),
    node('/menubar', '/box', ATSPI_ROLE.menuBar, '', r(0, 0, 800, 25)),
    node('/file', '/menubar', ATSPI_ROLE.menu, 'File', r(0, 0, 39, 25)),
    node('/new', '/file', ATSPI_ROLE.menuItem, 'New File', r(0, 25, 249, 25)),
    node('/import', '/file', ATSPI_ROLE.menu, 'Import', r(0, 75, 249, 25)),
    node('/sep', '/file', SEPARATOR, '', r(0, 100, 249, 1)),
    node('/save-item', '/file', ATSPI_ROLE.menuItem, 'Save', r(0, 101, 249, 25)),
    node('/revert', '/file', ATSPI_ROLE.menuItem, 'Revert', r(0, 151, 249, 25)),
    node('/toolbar', '/box', ATSPI_ROLE.toolBar, '', r(0, 25, 800, 63)),
    node('/save', '/toolbar', ATSPI_ROLE.pushButton, 'Save', r(4, 29, 78, 56)),
    node('/delete', '/toolbar', ATSPI_ROLE.pushButton, 'Delete', r(422, 29, 78, 56)),
    node('/tabs', '/box', ATSPI_ROLE.pageTabList, '', r(0, 88, 800, 475)),
    node('/accounts', '/tabs', ATSPI_ROLE.pageTab, 'Accounts', r(49, 92, 64, 30)),
    node('/tree', '/accounts', ATSPI_ROLE.treeTable, '', r(1, 126, 798, 398)),
    node('/checking', '/tree', ATSPI_ROLE.tableCell, 'Checking', r(57, 152, 163, 21)),
    node('/dining', '/tree', ATSPI_ROLE.tableCell, 'Dining', r(257, 175, 163, 21)),
    node('/status', '/box', ATSPI_ROLE.statusBar, '', r(10, 569, 780, 25)),
  ];
}

const SCREEN = r(0, 0, 1280, 800);
const stackOf = (...rects: Rect[]): ScreenStack => ({
  screen: SCREEN,
  windows: rects.map((rect, i) => ({ id: 0x400001 + i, rect })),
});
const MAIN = r(0, 0, 800, 600);
const FILE_MENU = r(0, 25, 249, 330);

/** The elements served, by name (or role), with the rectangle each is served at. */
function served(placed: Placed[], stack: ScreenStack, layer: number): Record<string, Rect | null> {
  const nodes = placed.map(([n]) => n);
  const rectOf = new Map(placed.map(([n, rect]) => [n.path, rect]));
  const chosen = chooseElements(nodes, nodes[0]);
  const group: ChosenGroup = {
    chosen,
    rects: chosen.map((c) => rectOf.get(c.node.path) ?? null),
    layer,
    window: rectOf.get(nodes[0].path) ?? null,
  };
  const shown = layOut(group, stack);
  return Object.fromEntries(
    chosen.slice(1).map((c, i) => [`${c.role} ${c.node.name}`.trim(), shown[i + 1]]),
  );
}

describe('what shows on top: a menu open over the window', () => {
  it("serves the menu's items, and of the window only what no menu covers", () => {
    const out = served(gnucash(), stackOf(r(-100, -100, 10, 10), MAIN, FILE_MENU), 1);
    expect(out).toEqual({
      menubar: r(0, 0, 800, 25),
      'menu File': r(0, 0, 39, 25),
      'menuitem New File': r(0, 25, 249, 25),
      'menu Import': r(0, 75, 249, 25),
      'menuitem Save': r(0, 101, 249, 25),
      'menuitem Revert': r(0, 151, 249, 25),
      // Covered on its left side: what shows of it.
      toolbar: r(249, 25, 551, 63),
      // Under the menu: left out, so a click on the item Save is not judged on these.
      'button Save': null,
      'button Delete': r(422, 29, 78, 56),
      // The menu covers a corner: what shows is no rectangle.
      tablist: null,
      'tab Accounts': null,
      table: null,
      'cell Checking': null,
      'cell Dining': r(257, 175, 163, 21),
      status: r(10, 569, 780, 25),
    });
  });

  it('without the menu window, everything is served where it is, and the items nowhere', () => {
    // The items read as showing, but no window over the main one holds them (the menu closed
    // between the two reads): not served.
    const out = served(gnucash(), stackOf(MAIN), 0);
    expect(out['menuitem Save']).toBeNull();
    expect(out['button Save']).toEqual(r(4, 29, 78, 56));
    expect(out['cell Checking']).toEqual(r(57, 152, 163, 21));
  });

  it('a tooltip over the menu hides what it covers of the items', () => {
    const tooltip = r(100, 95, 200, 40); // over the right half of Save and beyond the menu
    const out = served(gnucash(), stackOf(MAIN, FILE_MENU, tooltip), 0);
    expect(out['menuitem Save']).toEqual(r(0, 101, 100, 25));
    expect(out['menuitem Revert']).toEqual(r(0, 151, 249, 25));
    expect(out['menuitem New File']).toEqual(r(0, 25, 249, 25));
  });

  it('a window the screen is not found in: every window counts as over it', () => {
    const out = served(gnucash(), stackOf(r(0, 0, 640, 480), FILE_MENU), -1);
    expect(out['button Delete']).toBeNull();
    expect(out['cell Checking']).toBeNull();
    // The lowest window holding the item is the 640x480 one, and the menu is over that.
    expect(out['menuitem Save']).toBeNull();
    // What no window covers is still served.
    expect(out.status).toEqual(r(10, 569, 780, 25));
  });

  it("elements are cut to their window and to the screen (GnuCash's register list runs past its window)", () => {
    const placed = gnucash();
    placed.push(node('/list', '/box', ATSPI_ROLE.table, 'Accounts', r(365, 180, 554, 61)));
    placed.push(node('/off', '/box', ATSPI_ROLE.pushButton, 'Off', r(-2147483648, 0, 80, 21)));
    const out = served(placed, stackOf(MAIN), 0);
    expect(out['table Accounts']).toEqual(r(365, 180, 435, 61));
    expect(out['button Off']).toBeNull();
  });
});

describe('what counts for more than clicks', () => {
  it('a focused field and a password field under a popup stay, with no height: typing goes there', () => {
    const placed = gnucash();
    const { focused } = ATSPI_STATE;
    placed.push(
      node('/pin', '/box', ATSPI_ROLE.passwordText, 'PIN', r(20, 200, 150, 20), [...on, focused]),
    );
    placed.push(
      node('/memo', '/box', ATSPI_ROLE.entry, 'Memo', r(20, 230, 150, 20), [...on, focused]),
    );
    const out = served(placed, stackOf(MAIN, FILE_MENU), 0);
    expect(out['passwordfield PIN']).toEqual(r(20, 200, 150, 0));
    expect(out['textbox Memo']).toEqual(r(20, 230, 150, 0));
    // Not focused, not a password field: left out.
    expect(out['cell Checking']).toBeNull();
  });

  it('a modal dialog a tooltip covers in a corner keeps its element, with no height', () => {
    index = 0;
    const dialog: Placed[] = [
      node('/d', ROOT_PATH, ATSPI_ROLE.dialog, 'Save changes?', r(100, 100, 300, 120), [
        ...on,
        active,
        modal,
      ]),
      node('/yes', '/d', ATSPI_ROLE.pushButton, 'Yes', r(300, 180, 80, 30)),
    ];
    const out = served(dialog, stackOf(r(100, 100, 300, 120), r(380, 90, 60, 20)), 0);
    expect(out['dialog Save changes?']).toEqual(r(100, 100, 300, 0));
    expect(out['button Yes']).toEqual(r(300, 180, 80, 30));
  });
});

describe('the windows over the screen, as popup elements', () => {
  it('one for each window over it, where it shows, lowest first; none for one off the screen', () => {
    const tooltip = r(100, 95, 200, 40);
    const backdrops = popupBackdrops(stackOf(MAIN, r(-100, -100, 10, 10), FILE_MENU, tooltip), 0);
    expect(backdrops.every((b) => b.role === 'popup' && b.name === '')).toBe(true);
    const rects = backdrops.map((b) => b.rect);
    // The menu, without what the tooltip covers of it; then the tooltip.
    expect(rects.slice(-1)).toEqual([tooltip]);
    const menu = rects.slice(0, -1);
    expect(menu.reduce((s, p) => s + p.width * p.height, 0)).toBe(249 * 330 - 149 * 40);
    expect(new Set(backdrops.map((b) => b.id)).size).toBe(backdrops.length);
    expect(backdrops[0].id).toBe('x11:0x400003#popup');
  });

  it('none when nothing is over the screen', () => {
    expect(popupBackdrops(stackOf(r(0, 0, 10, 10), MAIN), 1)).toEqual([]);
  });
});

describe('a popup window of its own (LibreOffice Calc’s font size list)', () => {
  it("its list's cells are options, served where the window is", () => {
    index = 0;
    const list: Placed[] = [
      node('/popup', ROOT_PATH, ATSPI_ROLE.window, '', r(276, 150, 101, 577), [
        ...on,
        active,
        modal,
      ]),
      node('/table', '/popup', ATSPI_ROLE.table, '', r(277, 151, 84, 575)),
      node('/6', '/table', ATSPI_ROLE.tableCell, '6 pt', r(279, 152, 80, 21)),
      node('/12', '/table', ATSPI_ROLE.tableCell, '12 pt', r(279, 313, 80, 21)),
      // A row scrolled out of the list: AT-SPI says it shows, at the least integer.
      node('/96', '/table', ATSPI_ROLE.tableCell, '96 pt', r(-2147483648, -2147483648, 80, 21)),
    ];
    const out = served(list, stackOf(r(57, 50, 1165, 700), r(276, 150, 101, 577)), 1);
    expect(out).toEqual({
      table: r(277, 151, 84, 575),
      'option 6 pt': r(279, 152, 80, 21),
      'option 12 pt': r(279, 313, 80, 21),
      'option 96 pt': null,
    });
  });
});
