/**
 * One SAP GUI Scripting element as an outline element (docs/screen-host.md): its type as a role Warden's
 * rules classify (docs/screen-host.md has the table), its label, its field state and where it is.
 * Pure; sapgui-outline.ts walks the tree and places the rectangles.
 */
import {
  isSapCommandFieldId,
  OUTLINE_STATES,
  type OutlineArea,
  type OutlineState,
} from '@warden/protocol';
import type { OutlineElement, Rect } from '../../backend';
import { sapBool, sapInt, type SapNode } from './sapgui-snapshot';

/** What each SAP GUI Scripting type is in the outline; a type not listed is left out. */
const ROLES: Readonly<Record<string, string>> = {
  GuiMainWindow: 'window',
  GuiModalWindow: 'dialog',
  GuiMessageWindow: 'dialog',
  GuiTitlebar: 'title',
  GuiMenubar: 'menubar',
  GuiMenu: 'menu',
  GuiContextMenu: 'menu',
  GuiToolbar: 'toolbar',
  GuiButton: 'button',
  GuiOkCodeField: 'textbox',
  GuiTextField: 'textbox',
  GuiCTextField: 'textbox',
  GuiPasswordField: 'textbox',
  GuiCheckBox: 'checkbox',
  GuiRadioButton: 'radiobutton',
  GuiComboBox: 'combobox',
  GuiLabel: 'label',
  GuiBox: 'group',
  GuiTabStrip: 'tablist',
  GuiTab: 'tab',
  GuiTableControl: 'table',
  GuiStatusbar: 'status',
};

const TEXT_FIELDS: ReadonlySet<string> = new Set([
  'GuiOkCodeField',
  'GuiTextField',
  'GuiCTextField',
  'GuiPasswordField',
]);
const VALUE_CONTROLS: ReadonlySet<string> = new Set([
  'GuiCheckBox',
  'GuiRadioButton',
  'GuiComboBox',
]);
const COMMANDS: ReadonlySet<string> = new Set(['GuiButton', 'GuiTab', 'GuiMenu', 'GuiContextMenu']);
export const WINDOW_TYPES: ReadonlySet<string> = new Set([
  'GuiMainWindow',
  'GuiModalWindow',
  'GuiMessageWindow',
]);

/** The longest label and tooltip the outline carries; longer, the element is served unnamed. */
export const MAX_LABEL = 500;
/** The longest value the outline carries (Warden takes no longer one); longer, none is served. */
export const MAX_VALUE = 2000;

/** Where an element sits, as its ancestors say. */
export interface Place {
  /** The id of its window, shortened (`wnd[1]`). */
  window: string;
  /** Inside a modal window. */
  modal: boolean;
  /** Inside a window's user area (`usr`): the screen's own fields. */
  userArea: boolean;
  /** Inside a toolbar (`tbar[0]`, `tbar[1]`). */
  toolbar: boolean;
  /** Its parent is the menu bar (a menu that opens), or a menu (an item). */
  menu: 'bar' | 'item' | null;
}

/** SAP GUI Scripting's id without the connection and session (`wnd[0]/usr/ctxtVBAK-VBELN`). */
export function shortId(id: string): string {
  return id.replace(/^\/app\/con\[\d+\]\/ses\[\d+\]\//, '');
}

/** Whitespace runs as one space, trimmed: SAP pads tooltips (`Save   (Ctrl+S)`) and fields. */
function tidy(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** The element's own text as a label, unless SAP draws it in a symbol font (icon glyphs). */
function ownText(p: SapNode['properties']): string {
  return sapBool(p.IsSymbolFont) === true ? '' : tidy(p.Text);
}

/** SAP's rectangle of an element, in its own coordinates; null where it has none (-1, 0 wide). */
export function sapRect(p: SapNode['properties']): Rect | null {
  const x = sapInt(p.ScreenLeft);
  const y = sapInt(p.ScreenTop);
  const width = sapInt(p.Width);
  const height = sapInt(p.Height);
  if (x === null || y === null || width === null || height === null) return null;
  if (width <= 0 || height <= 0 || x < -100_000 || y < -100_000) return null;
  return { x, y, width, height };
}

/**
 * A field's label: the GuiLabel beside it that SAP names after the field (`lblVBAK-VBELN` for
 * `ctxtVBAK-VBELN`, also `lbl*…`), else the nearest GuiLabel on its row to its left, else its
 * tooltip or its data element's description (DefaultTooltip).
 */
function fieldLabel(node: SapNode, siblings: readonly SapNode[]): string {
  const p = node.properties;
  const labels = siblings.filter((s) => s.properties.Type === 'GuiLabel' && ownText(s.properties));
  const labelFor = (s: SapNode) => (s.properties.Name ?? '').replace(/^\*/, '');
  const named = labels.find((s) => labelFor(s) === p.Name);
  if (named) return ownText(named.properties);
  // A label named after another field is that field's (Net Value's, not the currency's beside it).
  const others = new Set(
    siblings
      .filter((s) => s !== node && s.properties.Type !== 'GuiLabel')
      .map((s) => s.properties.Name),
  );
  const at = sapRect(p);
  if (at) {
    let best: { right: number; text: string } | null = null;
    for (const s of labels) {
      if (others.has(labelFor(s))) continue;
      const r = sapRect(s.properties);
      if (!r || Math.abs(r.y - at.y) > 4 || r.x + r.width > at.x + 4) continue;
      if (!best || r.x + r.width > best.right) {
        best = { right: r.x + r.width, text: ownText(s.properties) };
      }
    }
    if (best) return best.text;
  }
  return tidy(p.Tooltip) || tidy(p.DefaultTooltip);
}

function sortStates(states: Set<OutlineState>): OutlineState[] {
  return OUTLINE_STATES.filter((s) => states.has(s));
}

/**
 * The outline element for one SAP GUI Scripting element, without its rectangle (the caller
 * places it), or null for a type the outline leaves out. `focus`: the short id of the focused
 * element; `siblings`: the elements beside it, where its label may be.
 */
export function elementOf(
  node: SapNode,
  place: Place,
  siblings: readonly SapNode[],
  focus: string | null,
): Omit<OutlineElement, 'rect'> | null {
  const p = node.properties;
  const type = p.Type ?? '';
  let role = ROLES[type];
  if (role === undefined || !p.Id) return null;
  const id = shortId(p.Id);
  const states = new Set<OutlineState>();
  const changeable = sapBool(p.Changeable);
  let name: string;
  let description = '';
  let area: OutlineArea | undefined;
  let value: string | undefined;
  let password: true | undefined;

  if (TEXT_FIELDS.has(type)) {
    const command = type === 'GuiOkCodeField' || isSapCommandFieldId(id);
    name = command ? tidy(p.Tooltip) || tidy(p.DefaultTooltip) : fieldLabel(node, siblings);
    description = tidy(p.Tooltip) || tidy(p.DefaultTooltip);
    area = command ? 'command_field' : place.userArea ? 'input' : undefined;
    if (changeable === true) states.add('editable').add('changeable');
    if (type === 'GuiPasswordField') password = true;
    else value = (p.Text ?? '').trim();
  } else if (VALUE_CONTROLS.has(type)) {
    name = ownText(p) || fieldLabel(node, siblings);
    description = tidy(p.Tooltip) || tidy(p.DefaultTooltip);
    area = place.userArea ? 'input' : undefined;
    const selected = sapBool(p.Selected);
    if (type === 'GuiComboBox') {
      value = (p.Value || p.Text || '').trim();
      if (changeable === true) states.add('changeable');
    } else {
      if (selected === true) states.add('checked');
      // Checked or not unknown: never marked changeable, so a click on it is never staged.
      if (changeable === true && selected !== null) states.add('changeable');
    }
    if (changeable === false) states.add('disabled');
  } else if (COMMANDS.has(type)) {
    // An icon button has no name: its tooltip is its description, which Warden reads as its label.
    // A name is text drawn in the element (Warden's injection rail looks for it there), and an
    // icon draws none.
    description = tidy(p.Tooltip) || tidy(p.DefaultTooltip) || tidy(p.AccTooltip);
    name = ownText(p);
    if (changeable === false) states.add('disabled');
    if (type === 'GuiButton') {
      area = place.modal ? 'dialog' : place.toolbar ? 'toolbar' : undefined;
    } else if (type === 'GuiTab') {
      // Only the selected tab's page is in the tree: its children are that page.
      if (node.children.length > 0) states.add('selected');
    } else {
      role = type === 'GuiMenu' && place.menu !== 'bar' ? 'menuitem' : 'menu';
      area = 'menu';
    }
  } else {
    name = ownText(p);
    if (type === 'GuiModalWindow' || type === 'GuiMessageWindow') {
      states.add('modal');
      area = 'dialog';
    } else if (type === 'GuiToolbar') area = 'toolbar';
    else if (type === 'GuiMenubar') area = 'menu';
    else if (type === 'GuiStatusbar') area = 'status';
  }
  if (sapBool(p.Modified) === true && (TEXT_FIELDS.has(type) || VALUE_CONTROLS.has(type))) {
    states.add('modified');
  }
  if (focus !== null && id === focus) states.add('focused');

  const element: Omit<OutlineElement, 'rect'> = { id, role, name };
  // A label or tooltip too long to be one is left out whole, both: a cut one could lose its verb.
  if (name.length > MAX_LABEL || description.length > MAX_LABEL) {
    element.name = '';
  } else if (description !== '' && description !== name) {
    element.description = description;
  }
  if (value !== undefined && value.length <= MAX_VALUE) element.value = value;
  if (password) element.password = true;
  const sorted = sortStates(states);
  if (sorted.length > 0) element.states = sorted;
  if (area) element.area = area;
  return element;
}
