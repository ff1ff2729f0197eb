import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSapCommandFieldId } from '@warden/protocol';
import type { OutlineElement } from '../../backend';
import { overlaps } from './sapgui-geometry';
import { MAX_OUTLINE_ELEMENTS, sapGuiOutline, type SapGuiOutline } from './sapgui-outline';
import { readSnapshot, type SapGuiSnapshot } from './sapgui-snapshot';

const FIXTURES = join(__dirname, '../../../../test/fixtures/sapgui');
const SCREEN = { width: 1920, height: 1080 };

function raw(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.snapshot.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

function snapshot(name: string, change?: (s: Record<string, unknown>) => void): SapGuiSnapshot {
  const r = raw(name);
  change?.(r);
  const read = readSnapshot(r);
  if ('refused' in read) throw new Error(`${name}: ${read.detail}`);
  return read;
}

function outline(name: string, change?: (s: Record<string, unknown>) => void): SapGuiOutline {
  const out = sapGuiOutline(snapshot(name, change), SCREEN);
  if ('refused' in out) throw new Error(`${name}: ${out.detail}`);
  return out;
}

function byId(elements: OutlineElement[], tail: string): OutlineElement {
  const found = elements.filter((e) => e.id.endsWith(tail));
  expect(found).toHaveLength(1);
  return found[0];
}

/** The first tree's window node, to change a fixture in a test. */
function windowNode(r: Record<string, unknown>, n = 0): { properties: Record<string, string> } {
  return (r.trees as Array<{ children: Array<{ properties: Record<string, string> }> }>)[n]
    .children[0];
}

describe('the SAP GUI Scripting outline of the fixtures (written from SAP’s documented object model)', () => {
  it.each([
    'va02-initial',
    'va02-overview',
    'save-popup',
    'status-error',
    'table-control',
    'logon',
  ])('%s maps to its expected outline', (name) => {
    const expected = JSON.parse(readFileSync(join(FIXTURES, `${name}.outline.json`), 'utf8')) as {
      screen: typeof SCREEN;
      session: unknown;
      elements: unknown;
    };
    const out = sapGuiOutline(snapshot(name), expected.screen);
    expect(out).toEqual({
      elements: expected.elements,
      session: expected.session,
      source: raw(name).source,
    });
  });

  it('VA02 initial: the command field is okcd, the order field is the screen’s own input, the menus that are not open are left out', () => {
    const { elements, session } = outline('va02-initial');
    const okcd = byId(elements, 'wnd[0]/tbar[0]/okcd');
    expect(okcd).toMatchObject({ role: 'textbox', area: 'command_field', value: '' });
    expect(isSapCommandFieldId(okcd.id)).toBe(true);
    expect(byId(elements, '/ctxtVBAK-VBELN')).toEqual({
      id: 'wnd[0]/usr/ctxtVBAK-VBELN',
      role: 'textbox',
      name: 'Order',
      rect: { x: 284, y: 214, width: 100, height: 22 },
      description: 'Sales Document',
      value: '4711',
      states: ['editable', 'changeable', 'focused'],
      area: 'input',
    });
    // An icon button: no name (it draws none), its tooltip its description.
    expect(byId(elements, 'tbar[0]/btn[11]')).toMatchObject({
      role: 'button',
      name: '',
      description: 'Save (Ctrl+S)',
      states: ['disabled'],
      area: 'toolbar',
    });
    // SAP gives a closed menu's entries no rectangle (-1): nothing to click, nothing served.
    expect(elements.filter((e) => e.id.includes('/mbar/'))).toEqual([]);
    // The status bar's panes (system, client) are not served; the bar is, empty.
    expect(elements.filter((e) => e.id.includes('/sbar/'))).toEqual([]);
    expect(byId(elements, 'wnd[0]/sbar')).toMatchObject({
      role: 'status',
      name: '',
      area: 'status',
    });
    expect(elements.filter((e) => e.role === 'title').map((e) => e.name)).toEqual([
      'Change Sales Order: Initial Screen',
    ]);
    expect(session).toEqual({
      system: 'PRD',
      client: '100',
      user: 'WARDEN01',
      language: 'EN',
      transaction: 'VA02',
      program: 'SAPMV45A',
      screen: '102',
      readOnly: true,
      recordingDisabled: false,
    });
  });

  it('VA02 overview: Modified is the state modified, a label belongs to the field named after it, a table cell is named by its column', () => {
    const { elements } = outline('va02-overview');
    expect(byId(elements, '/ctxtRV45A-KETDAT')).toMatchObject({
      name: 'Req. Deliv.Date',
      value: '30.04.2026',
      states: ['editable', 'changeable', 'modified', 'focused'],
      area: 'input',
    });
    expect(byId(elements, '/txtVBKD-BSTKD').states).toEqual(['editable', 'changeable']);
    // The date format field beside it is not labelled by the date's label.
    expect(byId(elements, '/ctxtRV45A-KPRGBZ').name).toBe('Date type');
    expect(byId(elements, '/ctxtVBAK-WAERK').name).toBe('SD Document Currency');
    // Output fields: in the input area, never changeable, so never staged.
    expect(byId(elements, '/txtVBAK-NETWR')).toMatchObject({ value: '12.345,00', area: 'input' });
    expect(byId(elements, '/txtVBAK-NETWR').states).toBeUndefined();
    expect(byId(elements, '/ctxtRV45A-MABNR[1,1]')).toMatchObject({
      name: 'Material',
      value: 'M-02',
      area: 'input',
    });
    expect(byId(elements, 'tabpT\\01').states).toEqual(['selected']);
    expect(byId(elements, 'tabpT\\02').states).toBeUndefined();
    expect(byId(elements, '/chkVBAK-AUTLF')).toMatchObject({
      role: 'checkbox',
      name: 'Complete dlv.',
      states: ['changeable'],
      area: 'input',
    });
  });

  it('a popup: a modal dialog whose title is the only one, with nothing of the screen it covers', () => {
    const { elements } = outline('save-popup');
    const dialog = byId(elements, 'wnd[1]');
    expect(dialog).toMatchObject({
      role: 'dialog',
      name: 'Save changes?',
      states: ['modal'],
      area: 'dialog',
    });
    expect(elements.filter((e) => e.role === 'title')).toEqual([
      {
        id: 'wnd[1]/titl',
        role: 'title',
        name: 'Save changes?',
        rect: { x: 660, y: 380, width: 0, height: 0 },
      },
    ]);
    const behind = elements.filter((e) => e.id.startsWith('wnd[0]'));
    expect(behind.length).toBeGreaterThan(0);
    expect(behind.filter((e) => overlaps(e.rect, dialog.rect))).toEqual([]);
    expect(byId(elements, 'btnSPOP-OPTION1')).toMatchObject({
      role: 'button',
      name: 'Yes',
      area: 'dialog',
      states: ['focused'],
    });
    expect(byId(elements, 'txtSPOP-TEXTLINE1').value).toBe(
      'Do you want to save the changes first?',
    );
    // The dialog's elements come after the screen's: of two equal rectangles the later one wins.
    expect(elements.indexOf(dialog)).toBeGreaterThan(elements.indexOf(behind[behind.length - 1]));
  });

  it('a status bar E message: role status, its text as the name, its MessageType', () => {
    const { elements } = outline('status-error');
    expect(byId(elements, 'wnd[0]/sbar')).toEqual({
      id: 'wnd[0]/sbar',
      role: 'status',
      name: 'SD document 4799 is not in the database or has been archived',
      rect: { x: 100, y: 990, width: 1600, height: 30 },
      area: 'status',
      message_type: 'E',
    });
  });

  it('the status bar’s type is read on its own; one SAP does not document is not served', () => {
    const out = outline('status-error', (r) => {
      (r.status as Record<string, unknown>).MessageType = 'X';
    });
    expect(byId(out.elements, 'wnd[0]/sbar').message_type).toBeUndefined();
    expect(byId(out.elements, 'wnd[0]/sbar').name).toMatch(/^SD document 4799/);
  });

  it('a table control: a row scrolled half out of the table is cut to what shows, one wholly out is left out', () => {
    const { elements } = outline('table-control');
    const table = byId(elements, 'tblSAPMV45ATCTRL_U_ERF_AUFTRAG');
    expect(byId(elements, '/txtVBAP-POSNR[0,2]').rect).toEqual({
      x: 140,
      y: 500,
      width: 60,
      height: 13,
    });
    expect(elements.filter((e) => e.id.endsWith(',3]'))).toEqual([]);
    for (const cell of elements.filter((e) => e.id.includes(`${table.id}/`))) {
      expect(overlaps(cell.rect, table.rect)).toBe(true);
      expect(cell.rect.y + cell.rect.height).toBeLessThanOrEqual(table.rect.y + table.rect.height);
      // VA03 displays: nothing in it is changeable.
      expect(cell.states ?? []).not.toContain('changeable');
    }
  });

  it('a password field: password true and never a value, whatever SAP gave', () => {
    const r = raw('logon');
    expect(JSON.stringify(r)).toContain('Initial-Pass-1');
    const { elements } = outline('logon');
    const password = byId(elements, '/pwdRSYST-BCODE');
    expect(password).toMatchObject({
      role: 'textbox',
      name: 'Password',
      password: true,
      area: 'input',
    });
    expect(password).not.toHaveProperty('value');
    expect(JSON.stringify(elements)).not.toContain('Initial-Pass-1');
  });
});

describe('where SAP GUI’s elements are placed', () => {
  it('SAP’s window within a frame’s slack of Windows’ (the table-control fixture: 7 px of border) is taken as it is', () => {
    const { elements } = outline('table-control');
    expect(byId(elements, 'wnd[0]').rect).toEqual({ x: 100, y: 40, width: 1600, height: 980 });
  });

  it('a DPI-virtualised SAP GUI (logical pixels, a 150 % display) is scaled to the physical pixels of the screenshots', () => {
    const out = sapGuiOutline(
      snapshot('va02-initial', (r) => {
        (r.windows as Array<Record<string, unknown>>)[0].window_rect = {
          left: 150,
          top: 60,
          right: 2550,
          bottom: 1530,
        };
      }),
      { width: 2880, height: 1620 },
    );
    if ('refused' in out) throw new Error(out.detail);
    expect(byId(out.elements, '/ctxtVBAK-VBELN').rect).toEqual({
      x: 426,
      y: 321,
      width: 150,
      height: 33,
    });
    expect(byId(out.elements, 'wnd[0]').rect).toEqual({ x: 150, y: 60, width: 2400, height: 1470 });
  });

  it('refuses to place a window whose rectangles agree by no one scale', () => {
    const out = sapGuiOutline(
      snapshot('va02-initial', (r) => {
        (r.windows as Array<Record<string, unknown>>)[0].window_rect = {
          left: 100,
          top: 40,
          right: 1800,
          bottom: 1020,
        };
      }),
      SCREEN,
    );
    expect(out).toMatchObject({ refused: 'geometry_mismatch' });
  });

  it('refuses a window Windows could not place', () => {
    const out = sapGuiOutline(
      snapshot('save-popup', (r) => {
        (r.windows as Array<Record<string, unknown>>)[1].window_rect = null;
      }),
      SCREEN,
    );
    expect(out).toMatchObject({ refused: 'geometry_unknown' });
  });

  it('refuses when SAP GUI is not the window in front', () => {
    const out = sapGuiOutline(
      snapshot('va02-initial', (r) => (r.foreground = false)),
      SCREEN,
    );
    expect(out).toMatchObject({ refused: 'not_in_front' });
  });

  it('refuses when the active window is off the screen served', () => {
    const out = sapGuiOutline(snapshot('va02-initial'), { width: 90, height: 30 });
    expect(out).toMatchObject({ refused: 'not_in_front' });
  });

  it('cuts what shows to the screen served', () => {
    const { elements } = sapGuiOutline(snapshot('va02-initial'), {
      width: 300,
      height: 1080,
    }) as SapGuiOutline;
    expect(byId(elements, '/ctxtVBAK-VBELN').rect).toEqual({
      x: 284,
      y: 214,
      width: 16,
      height: 22,
    });
    expect(elements.every((e) => e.rect.x + e.rect.width <= 300)).toBe(true);
  });
});

describe('what the outline leaves out, and when it refuses', () => {
  it('serves an element with a label or tooltip too long to be one unnamed, both left out', () => {
    const out = outline('va02-initial', (r) => {
      const save = findNode(r, 'tbar[0]/btn[11]');
      save.Tooltip = `Back ${'x'.repeat(600)} Save`;
    });
    const save = byId(out.elements, 'tbar[0]/btn[11]');
    expect(save.name).toBe('');
    expect(save).not.toHaveProperty('description');
  });

  it('serves no value longer than Warden takes', () => {
    const out = outline('va02-initial', (r) => {
      findNode(r, 'usr/txtVBKD-BSTKD').Text = 'x'.repeat(2001);
    });
    expect(byId(out.elements, '/txtVBKD-BSTKD')).not.toHaveProperty('value');
  });

  it('never marks changeable a checkbox whose state SAP did not give', () => {
    const out = outline('va02-overview', (r) => {
      findNode(r, 'chkVBAK-AUTLF').Selected = '';
    });
    expect(byId(out.elements, '/chkVBAK-AUTLF').states).toBeUndefined();
  });

  it('refuses a session of more elements than an outline takes', () => {
    const s = snapshot('va02-initial', (r) => {
      const usr = findTreeNode(r, 'wnd[0]/usr');
      const label = usr.children[0];
      usr.children = Array.from({ length: MAX_OUTLINE_ELEMENTS }, (_, n) => ({
        properties: { ...label.properties, Id: `${label.properties.Id}${n}` },
        children: [],
      }));
    });
    expect(sapGuiOutline(s, SCREEN)).toMatchObject({ refused: 'too_large' });
  });

  it('refuses a tree that is not the window it was read for', () => {
    const s = snapshot('va02-initial', (r) => {
      windowNode(r).properties.Id = '/app/con[0]/ses[0]/wnd[1]';
    });
    expect(sapGuiOutline(s, SCREEN)).toMatchObject({ refused: 'unreadable' });
  });
});

describe('readSnapshot', () => {
  it('passes the helper’s own refusal on, and an unknown one as an error', () => {
    expect(
      readSnapshot({
        refused: 'disabled_by_server',
        detail: 'every connection says DisabledByServer',
      }),
    ).toEqual({
      refused: 'disabled_by_server',
      detail: 'every connection says DisabledByServer',
    });
    expect(readSnapshot({ refused: 'whatever', detail: 'x' })).toEqual({
      refused: 'error',
      detail: 'x',
    });
  });

  it.each([
    ['not an object', 42],
    ['no source', { ...raw('va02-initial'), source: 'guess' }],
    ['no windows', { ...raw('va02-initial'), windows: [] }],
    ['a tree short', { ...raw('va02-initial'), trees: [] }],
    ['children that are no list', { ...raw('va02-initial'), trees: [{ children: 'x' }] }],
    ['foreground not a boolean', { ...raw('va02-initial'), foreground: 'yes' }],
    [
      'a window rectangle of fractions',
      {
        ...raw('va02-initial'),
        windows: [{ id: 'wnd[0]', window_rect: { left: 0.5, top: 0, right: 9, bottom: 9 } }],
      },
    ],
  ])('refuses %s as unreadable', (_what, value) => {
    expect(readSnapshot(value)).toMatchObject({ refused: 'unreadable' });
  });

  it('refuses a tree deeper or larger than it takes', () => {
    let deep: Record<string, unknown> = { properties: {}, children: [] };
    for (let n = 0; n < 60; n++) deep = { properties: {}, children: [deep] };
    expect(readSnapshot({ ...raw('va02-initial'), trees: [{ children: [deep] }] })).toMatchObject({
      refused: 'too_large',
    });
    const wide = {
      children: Array.from({ length: 10_001 }, () => ({ properties: {}, children: [] })),
    };
    expect(readSnapshot({ ...raw('va02-initial'), trees: [wide] })).toMatchObject({
      refused: 'too_large',
    });
  });

  it('takes COM booleans and numbers as GetObjectTree’s strings, and leaves out a value too long to be one', () => {
    const s = readSnapshot({
      ...raw('va02-initial'),
      trees: [
        {
          children: [
            {
              properties: { Id: 'a', Changeable: true, Width: 12, Text: 'x'.repeat(4001) },
              children: [],
            },
          ],
        },
      ],
    });
    if ('refused' in s) throw new Error(s.detail);
    expect(s.trees[0].children[0].properties).toEqual({ Id: 'a', Changeable: 'true', Width: '12' });
    expect(s.session.ScriptingModeReadOnly).toBe('true');
  });
});

type TreeNode = { properties: Record<string, string>; children: TreeNode[] };

function findTreeNode(r: Record<string, unknown>, tail: string): TreeNode {
  const hits: TreeNode[] = [];
  const walk = (n: TreeNode) => {
    if (n.properties?.Id?.endsWith(tail)) hits.push(n);
    n.children.forEach(walk);
  };
  (r.trees as Array<{ children: TreeNode[] }>).forEach((t) => t.children.forEach(walk));
  expect(hits).toHaveLength(1);
  return hits[0];
}

function findNode(r: Record<string, unknown>, tail: string): Record<string, string> {
  return findTreeNode(r, tail).properties;
}
