import { DbusCallError } from './atspi-calls';
import { OUTLINE_BOUNDS, ROOT_PATH } from './atspi-node';
import { MAX_TABLE_CELLS } from './atspi-reading';
import { ATSPI_ROLE, ATSPI_STATE } from './atspi-roles';
import { toolkitCalls, type ToolkitCalls } from './atspi-toolkits';
import { WindowReader } from './atspi-window-reader';

const GTK = toolkitCalls('gtk', '3.24.38')!;
const QT = toolkitCalls('Qt', '5.15.8')!;

const { showing, visible, sensitive, enabled, active, managesDescendants, editable } = ATSPI_STATE;
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const COMPONENT = 'org.a11y.atspi.Component';
const COLLECTION = 'org.a11y.atspi.Collection';
const TABLE = 'org.a11y.atspi.Table';
const APP = ':1.2';
/** What LibreOffice Calc says its sheet holds: 1,048,576 rows of 16,384 columns, cut to int32. */
const SHEET_CHILDREN = 2147483647;
const COLUMNS = 16_384;

function states(...bits: number[]): number[] {
  const words = [0, 0];
  for (const bit of bits) words[bit >> 5] = (words[bit >> 5] | (1 << (bit & 31))) >>> 0;
  return words;
}
const on = [showing, visible, sensitive, enabled];

interface FakeElement {
  role: number;
  name?: string;
  states: number[];
  interfaces: string[];
  children: string[];
  /** Its child count, when it is not its children's (the sheet). */
  count?: number;
}

/**
 * An application as Calc shows itself on the bus: a window with a toolbar, a closed menu, and a
 * sheet that manages its descendants, whose cells are made when asked for by place. Every call
 * is recorded; a question whose answer grows with the sheet fails the test.
 */
function calc(toolkit: ToolkitCalls = GTK) {
  const elements = new Map<string, FakeElement>();
  const add = (path: string, e: Omit<FakeElement, 'children'>, parent?: string) => {
    elements.set(path, { ...e, children: [] });
    if (parent) elements.get(parent)!.children.push(path);
  };
  const withCollection = [ACCESSIBLE, COMPONENT, COLLECTION];
  elements.set(ROOT_PATH, { role: 75, states: states(), interfaces: [ACCESSIBLE], children: [] });
  add(
    '/w',
    {
      role: ATSPI_ROLE.frame,
      name: 'sheet.csv',
      states: states(...on, active),
      interfaces: withCollection,
    },
    ROOT_PATH,
  );
  add(
    '/toolbar',
    { role: ATSPI_ROLE.toolBar, states: states(...on), interfaces: withCollection },
    '/w',
  );
  add(
    '/save',
    {
      role: ATSPI_ROLE.pushButton,
      name: 'Save',
      states: states(...on),
      interfaces: withCollection,
    },
    '/toolbar',
  );
  add(
    '/menu',
    { role: ATSPI_ROLE.menu, name: 'File', states: states(...on), interfaces: withCollection },
    '/w',
  );
  add(
    '/menu-save',
    {
      role: ATSPI_ROLE.menuItem,
      name: 'Save',
      states: states(visible, sensitive),
      interfaces: withCollection,
    },
    '/menu',
  );
  add(
    '/sheet',
    {
      role: ATSPI_ROLE.table,
      name: 'Sheet 1',
      states: states(...on, managesDescendants),
      interfaces: [...withCollection, TABLE],
      count: SHEET_CHILDREN,
    },
    '/w',
  );
  const calls: string[] = [];
  const cellAt = (row: number, column: number) => {
    const path = `/cell/${row}/${column}`;
    const name = `${String.fromCharCode(65 + column)}${row + 1}`;
    elements.set(path, {
      role: ATSPI_ROLE.tableCell,
      name,
      states: states(...on, editable),
      interfaces: [ACCESSIBLE, COMPONENT],
      children: [],
    });
    return [APP, path];
  };
  const variant = (value: unknown) => [[{ type: 'x', child: [] }], [value]];
  const answer = (path: string, iface: string, member: string, body: unknown[] = []): unknown => {
    calls.push(`${path} ${member}${body.length ? ` ${JSON.stringify(body.slice(-1))}` : ''}`);
    const e = elements.get(path);
    if (!e) throw new DbusCallError('org.freedesktop.DBus.Error.UnknownObject', path);
    const count = e.count ?? e.children.length;
    if (member === 'GetChildren' || (member === 'GetMatches' && body[3] === true)) {
      // What would hold the application up: it walks every cell.
      if (count > 1000) throw new Error(`${member} on ${path}, which holds ${count} children`);
    }
    switch (`${iface} ${member}`) {
      case `${ACCESSIBLE} GetChildren`:
        return e.children.map((c) => [APP, c]);
      case `${COLLECTION} GetMatches`:
        if (body[3] !== false) throw new Error('GetMatches descending');
        return e.children
          .filter((c) => (elements.get(c)!.states[0] >>> showing) & 1)
          .map((c) => [APP, c]);
      case 'org.freedesktop.DBus.Properties Get': {
        const value = { Name: e.name ?? '', Description: '', ChildCount: count }[body[1] as string];
        if (value === undefined) throw new DbusCallError('org.freedesktop.DBus.Error.Failed', '');
        return variant(value);
      }
      case 'org.freedesktop.DBus.Properties GetAll':
        // What a Qt 5 application does when asked: it dies.
        if (toolkit.properties === 'each') throw new Error('GetAll asked of a Qt application');
        return [
          ['Name', variant(e.name ?? '')],
          ['Description', variant('')],
          ['ChildCount', variant(count)],
        ];
      case `${ACCESSIBLE} GetRole`:
        return e.role;
      case `${ACCESSIBLE} GetState`:
        return e.states;
      case `${ACCESSIBLE} GetInterfaces`:
        return e.interfaces;
      case `${ACCESSIBLE} GetIndexInParent`: {
        const [, , row, column] = path.split('/').map(Number);
        return row * COLUMNS + column;
      }
      case `${COMPONENT} GetExtents`:
        return path === '/sheet' ? [98, 213, 1051, 478] : [0, 0, 10, 10];
      case `${COMPONENT} GetAccessibleAtPoint`: {
        const [x, y] = body as number[];
        return cellAt(Math.floor((y - 213) / 17), Math.floor((x - 98) / 70));
      }
      case `${TABLE} GetRowAtIndex`:
        return Math.floor((body[0] as number) / COLUMNS);
      case `${TABLE} GetColumnAtIndex`:
        return (body[0] as number) % COLUMNS;
      case `${TABLE} GetAccessibleAt`:
        return cellAt(body[0] as number, body[1] as number);
      default:
        throw new DbusCallError('org.freedesktop.DBus.Error.UnknownMethod', `${iface} ${member}`);
    }
  };
  const reader = new WindowReader(
    async (_deadline, _app, path, iface, member, _sig, body) => answer(path, iface, member, body),
    new Map([[APP, toolkit]]),
  );
  return { reader, calls };
}

describe("reading a window's elements", () => {
  it("reads a large sheet by the cells it shows, and never asks for all of a sheet's children", async () => {
    const { reader, calls } = calc();
    const deadline = Date.now() + 5000;
    const [window] = await reader.topLevels(deadline, APP);
    expect(window).toMatchObject({ path: '/w', parent: ROOT_PATH, childCount: 3 });
    const nodes = await reader.showingIn(deadline, window, OUTLINE_BOUNDS);
    const names = nodes.map((n) => n.name);
    expect(names.slice(0, 3)).toEqual(['', 'File', 'Sheet 1']);
    expect(names).toContain('Save');
    // The closed menu's item does not show: not there, and nothing was asked below it.
    expect(nodes.some((n) => n.path === '/menu-save')).toBe(false);
    // The sheet's cells: the visible range (28 rows of 15 columns), bounded, from the top left.
    const cells = nodes.filter((n) => n.parent === '/sheet');
    expect(cells).toHaveLength(MAX_TABLE_CELLS);
    expect(cells.slice(0, 2).map((c) => c.name)).toEqual(['A1', 'B1']);
    expect(cells[15].name).toBe('A2');
    // Nothing asked of the sheet that would walk its cells.
    expect(calls.filter((c) => c.startsWith('/sheet GetChildren'))).toEqual([]);
    expect(calls.filter((c) => c.startsWith('/sheet GetMatches'))).toEqual([]);
    // Every GetMatches asked for one element's own children.
    expect(calls.filter((c) => c.includes('GetMatches')).every((c) => c.endsWith('[false]'))).toBe(
      true,
    );
  });

  it('asks a Qt application one property at a time, never GetAll, nor Collection', async () => {
    const { reader, calls } = calc(QT);
    const deadline = Date.now() + 5000;
    const [window] = await reader.topLevels(deadline, APP);
    expect(window).toMatchObject({ name: 'sheet.csv', childCount: 3 });
    const nodes = await reader.showingIn(deadline, window, OUTLINE_BOUNDS);
    expect(nodes.map((n) => n.name)).toContain('Save');
    expect(calls.filter((c) => c.includes('GetAll'))).toEqual([]);
    expect(calls.filter((c) => c.includes('GetMatches'))).toEqual([]);
    expect(calls.filter((c) => c.startsWith('/save Get '))).toEqual([
      '/save Get ["Name"]',
      '/save Get ["Description"]',
      '/save Get ["ChildCount"]',
    ]);
  });

  it('reads nothing of an application whose toolkit is not known', async () => {
    const { calls } = calc();
    const reader = new WindowReader(async () => {
      throw new Error('asked');
    }, new Map());
    const deadline = Date.now() + 5000;
    expect(await reader.topLevels(deadline, APP)).toEqual([]);
    expect(calls).toEqual([]);
  });
});
