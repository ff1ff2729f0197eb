/**
 * What an AT-SPI element is, in the outline's words: the one table from AT-SPI's roles and states
 * (the numbers of `AtspiRole` and `AtspiStateType` in at-spi2-core's atspi-constants.h, the same
 * on GTK, Qt and LibreOffice) to the roles and states Warden's rules know. A role that is not in
 * the table is left out of the outline: a custom widget nothing here knows is unlabelled, and a
 * click on it is judged as one nobody could read (fail closed).
 */
import type { OutlineArea, OutlineState } from '@warden/protocol';

/** The AT-SPI roles this table reads, by their number in `AtspiRole`. */
export const ATSPI_ROLE = {
  alert: 2,
  checkBox: 7,
  checkMenuItem: 8,
  comboBox: 11,
  dialog: 16,
  fileChooser: 19,
  filler: 20,
  frame: 23,
  label: 29,
  list: 31,
  listItem: 32,
  menu: 33,
  menuBar: 34,
  menuItem: 35,
  pageTab: 37,
  pageTabList: 38,
  passwordText: 40,
  popupMenu: 41,
  pushButton: 43,
  radioButton: 44,
  radioMenuItem: 45,
  scrollBar: 48,
  slider: 51,
  spinButton: 52,
  statusBar: 54,
  table: 55,
  tableCell: 56,
  text: 61,
  toggleButton: 62,
  toolBar: 63,
  tree: 65,
  treeTable: 66,
  window: 69,
  entry: 79,
  link: 88,
  treeItem: 91,
  listBox: 98,
  pushButtonMenu: 129,
} as const;

/** The AT-SPI states this table reads, by their bit in `AtspiStateType`. */
export const ATSPI_STATE = {
  active: 1,
  checked: 4,
  editable: 7,
  enabled: 8,
  focused: 12,
  modal: 16,
  pressed: 20,
  selected: 23,
  sensitive: 24,
  showing: 25,
  visible: 30,
  managesDescendants: 31,
  readOnly: 43,
} as const;

/** What the outline calls an element of a role, and what the role says about it. */
interface RoleEntry {
  role: string;
  /** Its text is the element's value (`Text.GetText`). */
  text?: boolean;
  /** Never a value: a password field. */
  password?: boolean;
  /** Where it places what it contains. */
  area?: OutlineArea;
}

/**
 * AT-SPI role → outline role. Roles Warden's rules judge by kind (docs/rules.md): command
 * controls `button`, `menuitem`, `link`; value controls `checkbox`, `radiobutton`,
 * `togglebutton`, `combobox`, `checkmenuitem`, `radiomenuitem`, `spinbutton`, `slider`,
 * `option`; navigation `tab`, `menu`, `scrollbar`; text fields `textbox`, `passwordfield`;
 * `status`; containers (`dialog`, `toolbar`, `menubar`, `tablist`, `list`, `table`) whose
 * name is a region's, not a control's. A table cell is a text field when editable (see
 * `outlineRole`), else a `cell` named by its content.
 */
export const ROLE_TABLE: ReadonlyMap<number, RoleEntry> = new Map<number, RoleEntry>([
  [ATSPI_ROLE.pushButton, { role: 'button' }],
  [ATSPI_ROLE.pushButtonMenu, { role: 'button' }],
  [ATSPI_ROLE.toggleButton, { role: 'togglebutton' }],
  [ATSPI_ROLE.checkBox, { role: 'checkbox' }],
  [ATSPI_ROLE.radioButton, { role: 'radiobutton' }],
  [ATSPI_ROLE.comboBox, { role: 'combobox' }],
  [ATSPI_ROLE.menuItem, { role: 'menuitem' }],
  [ATSPI_ROLE.checkMenuItem, { role: 'checkmenuitem' }],
  [ATSPI_ROLE.radioMenuItem, { role: 'radiomenuitem' }],
  [ATSPI_ROLE.menu, { role: 'menu', area: 'menu' }],
  [ATSPI_ROLE.menuBar, { role: 'menubar', area: 'menu' }],
  [ATSPI_ROLE.popupMenu, { role: 'menu', area: 'menu' }],
  [ATSPI_ROLE.pageTab, { role: 'tab' }],
  [ATSPI_ROLE.pageTabList, { role: 'tablist' }],
  [ATSPI_ROLE.link, { role: 'link' }],
  [ATSPI_ROLE.spinButton, { role: 'spinbutton', text: true }],
  [ATSPI_ROLE.slider, { role: 'slider' }],
  [ATSPI_ROLE.scrollBar, { role: 'scrollbar' }],
  [ATSPI_ROLE.listItem, { role: 'option' }],
  [ATSPI_ROLE.list, { role: 'list' }],
  [ATSPI_ROLE.listBox, { role: 'list' }],
  [ATSPI_ROLE.table, { role: 'table' }],
  [ATSPI_ROLE.treeTable, { role: 'table' }],
  [ATSPI_ROLE.tree, { role: 'table' }],
  [ATSPI_ROLE.tableCell, { role: 'cell' }],
  [ATSPI_ROLE.treeItem, { role: 'cell' }],
  [ATSPI_ROLE.text, { role: 'textbox', text: true }],
  [ATSPI_ROLE.entry, { role: 'textbox', text: true }],
  [ATSPI_ROLE.passwordText, { role: 'passwordfield', password: true }],
  [ATSPI_ROLE.label, { role: 'label' }],
  [ATSPI_ROLE.statusBar, { role: 'status', area: 'status' }],
  [ATSPI_ROLE.toolBar, { role: 'toolbar', area: 'toolbar' }],
  [ATSPI_ROLE.dialog, { role: 'dialog', area: 'dialog' }],
  [ATSPI_ROLE.alert, { role: 'dialog', area: 'dialog' }],
  [ATSPI_ROLE.fileChooser, { role: 'dialog', area: 'dialog' }],
]);

/**
 * The roles of a top-level window, whose name is the screen's title. A filler is one only as a
 * child of the application: Qt 6 calls a top-level window that is a plain widget so (qt6ct's).
 */
export const WINDOW_ROLES: ReadonlySet<number> = new Set<number>([
  ATSPI_ROLE.frame,
  ATSPI_ROLE.filler,
  ATSPI_ROLE.window,
  ATSPI_ROLE.dialog,
  ATSPI_ROLE.alert,
  ATSPI_ROLE.fileChooser,
]);

/** AT-SPI's state set: 64 bits as two uint32 words, bit n of the set in word n >> 5. */
export type AtspiStates = readonly number[];

export function hasState(states: AtspiStates, bit: number): boolean {
  const word = states[bit >> 5] ?? 0;
  return ((word >>> (bit & 31)) & 1) === 1;
}

/** What the outline says an element of this role and these states is; null: left out. */
export function outlineRole(role: number, states: AtspiStates): RoleEntry | null {
  const entry = ROLE_TABLE.get(role);
  if (!entry) return null;
  // An editable cell (a spreadsheet's, a register's) is a field: a click on it focuses it.
  if (entry.role === 'cell' && isEditable(states)) return { role: 'textbox', text: true };
  return entry;
}

function isEditable(states: AtspiStates): boolean {
  return hasState(states, ATSPI_STATE.editable) && !hasState(states, ATSPI_STATE.readOnly);
}

/**
 * The outline's states of an element: `editable` (and `changeable`: the application takes what is
 * typed) for an editable, enabled text; `focused`; `checked` (a pressed toggle button too);
 * `selected`; `disabled` (neither sensitive nor enabled); `modal`.
 */
export function outlineStates(role: number, states: AtspiStates): OutlineState[] {
  const out: OutlineState[] = [];
  const enabled = hasState(states, ATSPI_STATE.sensitive) || hasState(states, ATSPI_STATE.enabled);
  if (isEditable(states) && role !== ATSPI_ROLE.label) {
    out.push('editable');
    if (enabled) out.push('changeable');
  }
  if (hasState(states, ATSPI_STATE.focused)) out.push('focused');
  if (
    hasState(states, ATSPI_STATE.checked) ||
    (role === ATSPI_ROLE.toggleButton && hasState(states, ATSPI_STATE.pressed))
  ) {
    out.push('checked');
  }
  if (hasState(states, ATSPI_STATE.selected)) out.push('selected');
  if (!enabled) out.push('disabled');
  if (hasState(states, ATSPI_STATE.modal)) out.push('modal');
  return out;
}
