import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTLINE_STATES } from '@warden/protocol';
import { ATSPI_ROLE, ATSPI_STATE, outlineRole, outlineStates, ROLE_TABLE } from './atspi-roles';

/** AT-SPI's state set with these bits on. */
function states(...bits: number[]): number[] {
  const words = [0, 0];
  for (const bit of bits) words[bit >> 5] = (words[bit >> 5] | (1 << (bit & 31))) >>> 0;
  return words;
}

const {
  showing,
  visible,
  sensitive,
  enabled,
  editable,
  focused,
  checked,
  pressed,
  selected,
  modal,
} = ATSPI_STATE;
const onScreen = [showing, visible, sensitive, enabled];

describe('AT-SPI roles and states to the outline', () => {
  it.each([
    ['push button', 'button', ATSPI_ROLE.pushButton, []],
    ['toggle button', 'togglebutton', ATSPI_ROLE.toggleButton, []],
    ['check box', 'checkbox', ATSPI_ROLE.checkBox, []],
    ['radio button', 'radiobutton', ATSPI_ROLE.radioButton, []],
    ['combo box', 'combobox', ATSPI_ROLE.comboBox, []],
    ['menu item', 'menuitem', ATSPI_ROLE.menuItem, []],
    ['check menu item', 'checkmenuitem', ATSPI_ROLE.checkMenuItem, []],
    ['menu (opens a menu)', 'menu', ATSPI_ROLE.menu, []],
    ['page tab', 'tab', ATSPI_ROLE.pageTab, []],
    ['link', 'link', ATSPI_ROLE.link, []],
    ['table cell, editable', 'textbox', ATSPI_ROLE.tableCell, [editable]],
    ['table cell, not editable', 'cell', ATSPI_ROLE.tableCell, []],
    ['text', 'textbox', ATSPI_ROLE.text, [editable]],
    ['entry', 'textbox', ATSPI_ROLE.entry, [editable]],
    ['password text', 'passwordfield', ATSPI_ROLE.passwordText, [editable]],
    ['status bar', 'status', ATSPI_ROLE.statusBar, []],
    ['dialog', 'dialog', ATSPI_ROLE.dialog, [modal]],
    ['alert', 'dialog', ATSPI_ROLE.alert, [modal]],
    ['label', 'label', ATSPI_ROLE.label, []],
  ])('%s → %s', (_what, expected, role, bits) => {
    expect(outlineRole(role, states(...onScreen, ...bits))?.role).toBe(expected);
  });

  it('leaves out roles it does not know: a custom widget is unlabelled (fail closed)', () => {
    // panel, filler, drawing area, canvas, unknown, icon, image, redundant object
    for (const role of [39, 20, 18, 6, 67, 26, 27, 86]) {
      expect(outlineRole(role, states(...onScreen))).toBeNull();
    }
  });

  // As LibreOffice Calc 7.4 (GTK 3) showed them here: its window, its toolbars, the "Keep current
  // format" dialog.
  it.each([
    ["a sheet's cell, editable", 'textbox', ATSPI_ROLE.tableCell, [editable]],
    ['the sheet', 'table', ATSPI_ROLE.table, []],
    ["the Name Box's field (GTK's)", 'textbox', ATSPI_ROLE.text, [editable]],
    ["the Name Box's drop-down, Bold, Italic", 'togglebutton', ATSPI_ROLE.toggleButton, []],
    [
      "a toolbar's button (Save), a dialog's (Use Text CSV Format)",
      'button',
      ATSPI_ROLE.pushButton,
      [],
    ],
    ['a toolbar (Standard, Formula Tool Bar)', 'toolbar', ATSPI_ROLE.toolBar, []],
    ['a menu of the menu bar (File)', 'menu', ATSPI_ROLE.menu, []],
    ["the sheet's tab", 'tab', ATSPI_ROLE.pageTab, []],
    ['the sheet tabs', 'tablist', ATSPI_ROLE.pageTabList, []],
    ['the status bar', 'status', ATSPI_ROLE.statusBar, []],
    ['the "Keep current format" window', 'dialog', ATSPI_ROLE.alert, [modal]],
    ['its "Ask when not saving in ODF" box', 'checkbox', ATSPI_ROLE.checkBox, []],
  ])('LibreOffice Calc: %s → %s', (_what, expected, role, bits) => {
    expect(outlineRole(role, states(...onScreen, ...bits))?.role).toBe(expected);
  });

  it('leaves out what LibreOffice Calc shows that maps to no control: a click there is unlabelled', () => {
    // The formula input line (a filler with no text: LibreOffice publishes its own edit field so),
    // the spreadsheet document around the sheet, a toolbar's separator, a panel.
    for (const role of [20, 92, 50, 39]) {
      expect(outlineRole(role, states(...onScreen, editable))).toBeNull();
    }
  });

  it('a password field never has its text read; text fields and spin buttons do', () => {
    expect(outlineRole(ATSPI_ROLE.passwordText, states(editable))).toMatchObject({
      password: true,
    });
    expect(outlineRole(ATSPI_ROLE.passwordText, states(editable))?.text).toBeUndefined();
    expect(outlineRole(ATSPI_ROLE.text, states(editable))?.text).toBe(true);
    expect(outlineRole(ATSPI_ROLE.tableCell, states(editable))?.text).toBe(true);
    expect(outlineRole(ATSPI_ROLE.tableCell, states())?.text).toBeUndefined();
  });

  it('places status bars, toolbars, menus and dialogs', () => {
    expect(outlineRole(ATSPI_ROLE.statusBar, states())?.area).toBe('status');
    expect(outlineRole(ATSPI_ROLE.toolBar, states())?.area).toBe('toolbar');
    expect(outlineRole(ATSPI_ROLE.menuBar, states())?.area).toBe('menu');
    expect(outlineRole(ATSPI_ROLE.alert, states())?.area).toBe('dialog');
  });

  it('states: editable and changeable, focused, checked (a pressed toggle), selected, disabled, modal', () => {
    expect(outlineStates(ATSPI_ROLE.text, states(...onScreen, editable, focused))).toEqual([
      'editable',
      'changeable',
      'focused',
    ]);
    expect(outlineStates(ATSPI_ROLE.text, states(showing, editable))).toEqual([
      'editable',
      'disabled',
    ]);
    expect(outlineStates(ATSPI_ROLE.text, states(...onScreen, editable, 43))).toEqual([]); // read-only
    expect(outlineStates(ATSPI_ROLE.checkBox, states(...onScreen, checked))).toEqual(['checked']);
    expect(outlineStates(ATSPI_ROLE.toggleButton, states(...onScreen, pressed))).toEqual([
      'checked',
    ]);
    expect(outlineStates(ATSPI_ROLE.pushButton, states(...onScreen, pressed))).toEqual([]);
    expect(outlineStates(ATSPI_ROLE.pageTab, states(...onScreen, selected))).toEqual(['selected']);
    expect(outlineStates(ATSPI_ROLE.dialog, states(...onScreen, modal))).toEqual(['modal']);
    for (const role of ROLE_TABLE.keys()) {
      for (const s of outlineStates(role, states(...Array.from({ length: 44 }, (_, i) => i)))) {
        expect(OUTLINE_STATES).toContain(s);
      }
    }
  });

  it("every role it serves is one Warden's classification rules place, or plain text", () => {
    const rules = JSON.parse(
      readFileSync(join(__dirname, '../../../../../config/classification.json'), 'utf8'),
    ) as {
      container_roles: string[];
      text_field_roles: string[];
      control_roles: Record<'command' | 'value' | 'navigation', string[]>;
    };
    const known = new Set([
      ...rules.container_roles,
      ...rules.text_field_roles,
      ...rules.control_roles.command,
      ...rules.control_roles.value,
      ...rules.control_roles.navigation,
    ]);
    // Named by what they show, judged by their words: a cell's content, a label, the status line.
    const plain = new Set(['cell', 'label', 'passwordfield']);
    for (const entry of ROLE_TABLE.values()) {
      expect(
        known.has(entry.role) || plain.has(entry.role) ? entry.role : `unknown ${entry.role}`,
      ).toBe(entry.role);
    }
    expect(rules.control_roles.command).toEqual(expect.arrayContaining(['button', 'menuitem']));
    expect(rules.control_roles.value).toEqual(
      expect.arrayContaining(['checkbox', 'radiobutton', 'togglebutton', 'combobox']),
    );
    expect(rules.text_field_roles).toContain('textbox');
  });
});
