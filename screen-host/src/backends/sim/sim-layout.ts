/**
 * Where everything is on the sim's screen, computed from its state. The renderer draws exactly
 * these rectangles and the outline serves exactly these rectangles, so what `GET /elements` says
 * is where the pixels are, and a click at an element's rect lands on it.
 */
import type { MessageType, OutlineState } from '@warden/protocol';
import type { OutlineElement, Rect } from '../backend';
import type { SimLabels } from './sim-labels';
import { Builder, chrome } from './sim-builder';
import { screenWidgets } from './sim-screens';
import type { SimState } from './sim-state';
import {
  BANDS,
  type ButtonWidget,
  type FieldWidget,
  intersects,
  type Layout,
  type PopupLayout,
  SCREEN_WIDTH,
  textWidth,
  TITLE_FONT,
  type Widget,
} from './sim-widgets';

/** The sim's command field (SAP GUI Scripting's `wnd[0]/tbar[0]/okcd`). */
export const COMMAND_FIELD_ID = 'cmd';

export * from './sim-widgets';
export { ITEM_COLUMNS, TABLE_RECT } from './sim-order-screens';
export { DIALOG_RECT } from './sim-screens';

export function screenTitle(state: SimState, labels: SimLabels): string {
  switch (state.screen) {
    case 'menu':
      return labels.easyAccess;
    case 'va-initial':
      return state.mode === 'change' ? labels.changeInitial : labels.displayInitial;
    case 'va-overview':
      return state.mode === 'change'
        ? labels.changeOverview(state.orderNumber ?? '')
        : labels.displayOverview(state.orderNumber ?? '');
    case 'fb50':
      return labels.fb50Title;
    case 'pwd':
      return labels.pwdTitle;
  }
}

export function layoutOf(
  state: SimState,
  labels: SimLabels,
  lang: 'en' | 'de',
  fb50Balance: number | null,
): Layout {
  const b = new Builder(state);
  const menus =
    state.screen === 'va-initial' || state.screen === 'va-overview'
      ? labels.menusOrder
      : state.screen === 'fb50'
        ? labels.menusFb50
        : labels.menusEasy;
  chrome(b, labels, menus);
  const title = screenTitle(state, labels);
  b.widgets.push({
    kind: 'text',
    id: 'title',
    role: 'title',
    name: title,
    rect: { x: 16, y: BANDS.title.y + 6, width: textWidth(title, TITLE_FONT), height: 22 },
  });
  screenWidgets(b, state, labels, lang, fb50Balance);
  b.widgets.push({
    kind: 'text',
    id: 'status',
    role: 'status',
    name: state.status?.text ?? '',
    rect: { x: 0, y: BANDS.status.y, width: SCREEN_WIDTH, height: BANDS.status.height },
  });
  const layout: Layout = { title, widgets: b.widgets, decorations: b.decorations };
  if (state.popup) layout.popup = popupLayout(state.popup);
  return layout;
}

export const POPUP_WIDTH = 480;
const POPUP_LINE_HEIGHT = 20;
const POPUP_MAX_LINES = 4;

/** Words into lines that fit the dialog (a word too long for a line is cut), at most four. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(next) <= width || !line) {
      line = next;
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > POPUP_MAX_LINES) {
    lines.length = POPUP_MAX_LINES;
    lines[POPUP_MAX_LINES - 1] += ' …';
  }
  return lines.length > 0 ? lines : [''];
}

function popupLayout(popup: { title: string; message: string; buttons: string[] }): PopupLayout {
  const inner = POPUP_WIDTH - 40;
  const texts = wrap(popup.message, inner);
  const height = 24 + 20 + texts.length * POPUP_LINE_HEIGHT + 20 + 26 + 16;
  const rect: Rect = {
    x: Math.round((SCREEN_WIDTH - POPUP_WIDTH) / 2),
    y: Math.round(BANDS.work.y + (BANDS.work.height - height) / 2),
    width: POPUP_WIDTH,
    height,
  };
  const lines = texts.map((text, i) => ({
    text,
    rect: {
      x: rect.x + 20,
      y: rect.y + 24 + 20 + i * POPUP_LINE_HEIGHT,
      width: Math.min(inner, textWidth(text)),
      height: POPUP_LINE_HEIGHT,
    },
  }));
  const widths = popup.buttons.map((name) => Math.max(80, textWidth(name) + 32));
  let x = rect.x + rect.width - 16 - widths.reduce((sum, w) => sum + w + 10, -10);
  const buttons = popup.buttons.map((name, i): ButtonWidget => {
    const button: ButtonWidget = {
      kind: 'button',
      id: `btn-popup-${i}`,
      name,
      caption: name,
      command: `popup:${i}`,
      rect: { x, y: rect.y + rect.height - 42, width: widths[i], height: 26 },
    };
    x += widths[i] + 10;
    return button;
  });
  return { rect, title: popup.title, message: popup.message, lines, buttons };
}

/** The fields of a layout in tab order (top to bottom, left to right, as SAP tabs). */
export function fieldsOf(layout: Layout): FieldWidget[] {
  return layout.widgets.filter((w): w is FieldWidget => w.kind === 'field');
}

/**
 * One widget as the outline says it, in SAP GUI Scripting's terms: a field's `changeable` (SAP's
 * `Changeable`) and where it is (the command field, or the screen's own input area), a button's
 * tooltip as its description, a menu bar entry as a menu.
 */
function outlineOf(
  w: Widget,
  focus: string | null,
  popupOpen: boolean,
  fields?: FieldFacts,
): OutlineElement {
  const role = w.kind === 'field' ? 'textbox' : w.kind === 'button' ? 'button' : w.role;
  const element: OutlineElement = { id: sapId(w.id), role, name: w.name, rect: { ...w.rect } };
  if (w.kind === 'text' && w.role === 'status') {
    element.area = 'status';
    const type = fields?.message?.();
    if (type) element.message_type = type;
    return element;
  }
  if (w.kind === 'button') {
    if (w.tooltip) element.description = w.tooltip;
    if (w.area) element.area = w.area;
  }
  if (w.kind === 'text' && w.role === 'menu') element.area = 'menu';
  if (w.kind !== 'field') return element;
  const states: OutlineState[] = [];
  if (w.editable) states.push('editable', 'changeable');
  if (w.id === focus && !popupOpen) states.push('focused');
  if (w.id === focus && !popupOpen && fields?.selected?.(w.id)) states.push('selected');
  if (fields?.modified(w.id)) states.push('modified');
  if (states.length > 0) element.states = states;
  element.area = w.id === COMMAND_FIELD_ID ? 'command_field' : 'input';
  if (w.password) element.password = true;
  else if (fields) element.value = fields.value(w.id);
  return element;
}

/** What the outline says of the fields beside the layout: their content, SAP's Modified flag. */
export interface FieldFacts {
  value(id: string): string;
  modified(id: string): boolean;
  /** Whether the field's whole content is selected (typing replaces it). */
  selected?(id: string): boolean;
  /** The status bar's message type, when it shows a message. */
  message?(): MessageType | null;
}

/**
 * SAP GUI Scripting's ids for the sim's elements, as a script would find them in a real session
 * (`wnd[0]/tbar[0]/okcd` is the command field); elements SAP would name otherwise keep the sim's.
 */
const SAP_IDS: Record<string, string> = {
  cmd: 'wnd[0]/tbar[0]/okcd',
  'btn-enter': 'wnd[0]/tbar[0]/btn[0]',
  'btn-save': 'wnd[0]/tbar[0]/btn[11]',
  'btn-back': 'wnd[0]/tbar[0]/btn[3]',
  'btn-exit': 'wnd[0]/tbar[0]/btn[15]',
  'btn-cancel': 'wnd[0]/tbar[0]/btn[12]',
  'btn-print': 'wnd[0]/tbar[0]/btn[86]',
  'btn-find': 'wnd[0]/tbar[0]/btn[71]',
  'btn-help': 'wnd[0]/tbar[0]/btn[1]',
  title: 'wnd[0]/titl',
  status: 'wnd[0]/sbar',
  order: 'wnd[0]/usr/ctxtVBAK-VBELN',
  poNumber: 'wnd[0]/usr/txtVBKD-BSTKD',
  soldToSearch: 'wnd[0]/usr/ctxtVBAK-KUNNR',
  orderNo: 'wnd[0]/usr/txtVBAK-VBELN',
  netValue: 'wnd[0]/usr/txtVBAK-NETWR',
  soldToParty: 'wnd[0]/usr/ctxtKUAGV-KUNNR',
  customerReference: 'wnd[0]/usr/txtVBKD-BSTKD',
  reqDelivDate: 'wnd[0]/usr/ctxtRV45A-KETDAT',
};

function sapId(id: string): string {
  return SAP_IDS[id] ?? id;
}

/**
 * The outline of a layout. With a popup open: what of the screen it does not cover, without the
 * screen's title (the dialog is the active window: its title is the one that counts, so that a
 * screen rule for the screen behind does not apply to the dialog's buttons), then the dialog, its
 * title, its message and its buttons. A field carries its content as `value` (`fields`), a
 * password field never, and SAP's Modified flag as the state `modified`.
 */
export function toOutline(
  layout: Layout,
  focus: string | null,
  fields?: FieldFacts,
): OutlineElement[] {
  const popup = layout.popup;
  const behind = popup
    ? layout.widgets.filter(
        (w) => !(w.kind === 'text' && w.role === 'title') && !intersects(w.rect, popup.rect),
      )
    : layout.widgets;
  const elements = behind.map((w) => outlineOf(w, focus, !!popup, fields));
  if (popup) {
    const r = popup.rect;
    elements.push(
      {
        id: 'popup',
        role: 'dialog',
        name: popup.title,
        rect: { ...r },
        states: ['modal'],
        area: 'dialog',
      },
      {
        id: 'popup-title',
        role: 'title',
        name: popup.title,
        rect: { x: r.x, y: r.y, width: r.width, height: 24 },
      },
      {
        id: 'popup-message',
        role: 'label',
        name: popup.message,
        rect: {
          x: r.x + 20,
          y: popup.lines[0].rect.y,
          width: r.width - 40,
          height: popup.lines.length * POPUP_LINE_HEIGHT,
        },
      },
      ...popup.buttons.map((b): OutlineElement => ({
        id: b.id,
        role: 'button',
        name: b.name,
        rect: { ...b.rect },
        area: 'dialog',
      })),
    );
  }
  return elements;
}
