/**
 * Where everything is on the sim's screen, computed from its state. The renderer draws exactly
 * these rectangles and the outline serves exactly these rectangles, so what `GET /elements` says
 * is where the pixels are, and a click at an element's rect lands on it.
 */
import type { OutlineElement, Rect } from '../backend';
import { font, measure } from './sim-fonts';
import type { SimLabels } from './sim-labels';
import { CUSTOMERS, formatAmount } from './sim-data';
import type { SimState } from './sim-state';

export const SCREEN_WIDTH = 1280;
export const SCREEN_HEIGHT = 800;

export const BANDS = {
  caption: { y: 0, height: 24 },
  menubar: { y: 24, height: 24 },
  systemToolbar: { y: 48, height: 36 },
  title: { y: 84, height: 34 },
  appToolbar: { y: 118, height: 32 },
  work: { y: 150, height: 622 },
  status: { y: 772, height: 28 },
} as const;

export const TEXT_FONT = font(13);
export const TITLE_FONT = font(16, true);
export const FIELD_HEIGHT = 22;
export const TABLE_ROW_HEIGHT = 24;
export const TABLE_VISIBLE_ROWS = 12;

export type IconKind =
  'enter' | 'save' | 'back' | 'exit' | 'cancel' | 'print' | 'find' | 'help' | 'check' | 'post';

export type Command =
  | 'enter'
  | 'save'
  | 'back'
  | 'exit'
  | 'cancel'
  | 'print'
  | 'find'
  | 'help'
  | 'continue'
  | 'simulate'
  | 'post'
  | 'confirm'
  | `tx:${string}`
  /** A button of the popup, by its place (0 commits). */
  | `popup:${number}`;

export interface FieldWidget {
  kind: 'field';
  id: string;
  name: string;
  rect: Rect;
  editable: boolean;
  password: boolean;
  maxLength: number;
  /** Shown right-aligned (amounts). */
  alignRight?: boolean;
  /** The command field has a history drop-down arrow. */
  dropdown?: boolean;
}

export interface ButtonWidget {
  kind: 'button';
  id: string;
  name: string;
  rect: Rect;
  command: Command;
  icon?: IconKind;
  /** Text buttons show their name; icon buttons in the system toolbar show only the icon. */
  caption?: string;
}

export interface TextWidget {
  kind: 'text';
  id: string;
  role: 'label' | 'title' | 'menuitem' | 'statusbar' | 'list' | 'listitem';
  name: string;
  rect: Rect;
  /** How the renderer draws it; the outline does not need to know. */
  style?: 'folder' | 'transaction' | 'header' | 'row' | 'caption';
  selected?: boolean;
  level?: number;
  command?: Command;
  cells?: { text: string; x: number; width: number; alignRight?: boolean }[];
}

export type Widget = FieldWidget | ButtonWidget | TextWidget;

/** Drawn but not part of the outline: frames and panels. */
export type Decoration =
  | { kind: 'group'; title: string; rect: Rect }
  | { kind: 'panel'; rect: Rect }
  | { kind: 'dialog'; title: string; rect: Rect }
  | { kind: 'scrollbar'; rect: Rect; first: number; visible: number; total: number }
  | { kind: 'light'; x: number; y: number; color: 'red' | 'green' }
  | { kind: 'logo'; rect: Rect; text: string };

/** A modal confirm dialog over the screen, drawn last and the only thing input reaches. */
export interface PopupLayout {
  rect: Rect;
  title: string;
  message: string;
  /** The message as drawn, wrapped to the dialog's width. */
  lines: { text: string; rect: Rect }[];
  buttons: ButtonWidget[];
}

export interface Layout {
  title: string;
  widgets: Widget[];
  decorations: Decoration[];
  popup?: PopupLayout;
}

export interface MenuRow {
  level: number;
  name: keyof SimLabels;
  transaction?: string;
}

export const MENU_ROWS: MenuRow[] = [
  { level: 0, name: 'favorites' },
  { level: 0, name: 'sapMenu' },
  { level: 1, name: 'logistics' },
  { level: 2, name: 'salesDistribution' },
  { level: 3, name: 'sales' },
  { level: 4, name: 'orderFolder' },
  { level: 5, name: 'txVA02', transaction: 'VA02' },
  { level: 5, name: 'txVA03', transaction: 'VA03' },
  { level: 1, name: 'accounting' },
  { level: 2, name: 'generalLedger' },
  { level: 3, name: 'txFB50', transaction: 'FB50' },
  { level: 1, name: 'systemFolder' },
  { level: 2, name: 'txPWD', transaction: 'PWD' },
];

const SYSTEM_BUTTONS: {
  id: string;
  icon: IconKind;
  command: Command;
  label: keyof SimLabels;
  x: number;
}[] = [
  { id: 'btn-enter', icon: 'enter', command: 'enter', label: 'enter', x: 8 },
  { id: 'btn-save', icon: 'save', command: 'save', label: 'save', x: 252 },
  { id: 'btn-back', icon: 'back', command: 'back', label: 'back', x: 296 },
  { id: 'btn-exit', icon: 'exit', command: 'exit', label: 'exit', x: 328 },
  { id: 'btn-cancel', icon: 'cancel', command: 'cancel', label: 'cancel', x: 360 },
  { id: 'btn-print', icon: 'print', command: 'print', label: 'print', x: 404 },
  { id: 'btn-find', icon: 'find', command: 'find', label: 'find', x: 436 },
  { id: 'btn-help', icon: 'help', command: 'help', label: 'help', x: 480 },
];

export const ICON_BUTTON_SIZE = 28;

function textWidth(text: string, cssFont = TEXT_FONT): number {
  return Math.ceil(measure(text, cssFont));
}

class Builder {
  readonly widgets: Widget[] = [];
  readonly decorations: Decoration[] = [];
  private appX = 8;

  constructor(readonly state: SimState) {}

  label(id: string, text: string, x: number, y: number): void {
    this.widgets.push({
      kind: 'text',
      id,
      role: 'label',
      name: text,
      rect: { x, y, width: textWidth(text), height: FIELD_HEIGHT },
    });
  }

  field(
    id: string,
    name: string,
    x: number,
    y: number,
    width: number,
    options: {
      editable?: boolean;
      password?: boolean;
      maxLength?: number;
      alignRight?: boolean;
    } = {},
  ): void {
    this.widgets.push({
      kind: 'field',
      id,
      name,
      rect: { x, y, width, height: FIELD_HEIGHT },
      editable: options.editable ?? true,
      password: options.password ?? false,
      maxLength: options.maxLength ?? 20,
      alignRight: options.alignRight,
    });
  }

  /** A label and its field on one line, the way SAP lays out a form. */
  labelled(
    id: string,
    name: string,
    x: number,
    y: number,
    fieldX: number,
    width: number,
    options = {},
  ): void {
    this.label(`lbl-${id}`, name, x, y);
    this.field(id, name, fieldX, y, width, options);
  }

  appButton(id: string, name: string, command: Command, icon?: IconKind): void {
    const width = textWidth(name) + (icon ? 44 : 24);
    this.widgets.push({
      kind: 'button',
      id,
      name,
      caption: name,
      icon,
      command,
      rect: { x: this.appX, y: BANDS.appToolbar.y + 4, width, height: 24 },
    });
    this.appX += width + 6;
  }
}

function chrome(b: Builder, labels: SimLabels, menus: string[]): void {
  let x = 8;
  menus.forEach((name, i) => {
    const width = textWidth(name) + 16;
    b.widgets.push({
      kind: 'text',
      id: `menu-${i}`,
      role: 'menuitem',
      name,
      rect: { x, y: BANDS.menubar.y, width, height: BANDS.menubar.height },
    });
    x += width + 2;
  });
  for (const button of SYSTEM_BUTTONS) {
    b.widgets.push({
      kind: 'button',
      id: button.id,
      name: labels[button.label] as string,
      icon: button.icon,
      command: button.command,
      rect: {
        x: button.x,
        y: BANDS.systemToolbar.y + 4,
        width: ICON_BUTTON_SIZE,
        height: ICON_BUTTON_SIZE,
      },
    });
  }
  b.widgets.push({
    kind: 'field',
    id: 'cmd',
    name: labels.commandField,
    rect: { x: 42, y: BANDS.systemToolbar.y + 7, width: 196, height: FIELD_HEIGHT },
    editable: true,
    password: false,
    maxLength: 40,
    dropdown: true,
  });
}

function menuScreen(b: Builder, labels: SimLabels): void {
  const list: Rect = { x: 16, y: 160, width: 560, height: 600 };
  b.widgets.push({ kind: 'text', id: 'menu-tree', role: 'list', name: labels.sapMenu, rect: list });
  MENU_ROWS.forEach((row, i) => {
    const name = labels[row.name] as string;
    const x = list.x + 10 + row.level * 20;
    b.widgets.push({
      kind: 'text',
      id: `node-${i}`,
      role: 'listitem',
      name,
      style: row.transaction ? 'transaction' : 'folder',
      level: row.level,
      selected: b.state.menuSelection === i,
      command: row.transaction ? `tx:${row.transaction}` : undefined,
      rect: { x, y: list.y + 8 + i * 24, width: textWidth(name) + 28, height: 22 },
    });
  });
  b.decorations.push({
    kind: 'logo',
    rect: { x: 600, y: 160, width: 664, height: 600 },
    text: labels.easyAccess,
  });
}

function orderInitial(b: Builder, labels: SimLabels): void {
  const change = b.state.mode === 'change';
  b.appButton(
    'btn-continue',
    change ? labels.changeButton : labels.displayButton,
    'continue',
    'check',
  );
  b.labelled('order', labels.order, 24, 172, 200, 110, { maxLength: 10 });
  b.decorations.push({
    kind: 'group',
    title: labels.searchCriteria,
    rect: { x: 16, y: 214, width: 600, height: 104 },
  });
  b.labelled('poNumber', labels.purchaseOrderNo, 32, 244, 200, 220, { maxLength: 20 });
  b.labelled('soldToSearch', labels.soldToParty, 32, 278, 200, 110, { maxLength: 10 });
}

export const ITEM_COLUMNS = [
  { x: 24, width: 70 },
  { x: 100, width: 110 },
  { x: 216, width: 130, alignRight: true },
  { x: 352, width: 40 },
  { x: 398, width: 380 },
  { x: 784, width: 150, alignRight: true },
];
export const TABLE_RECT: Rect = {
  x: 16,
  y: 340,
  width: 980,
  height: 30 + TABLE_ROW_HEIGHT * (TABLE_VISIBLE_ROWS + 1),
};

function orderOverview(b: Builder, labels: SimLabels, lang: 'en' | 'de'): void {
  const s = b.state;
  const order = s.orders[s.orderNumber ?? ''];
  const editable = s.mode === 'change';
  b.labelled('orderNo', labels.standardOrder, 24, 168, 200, 100, {
    editable: false,
    maxLength: 10,
  });
  b.labelled('netValue', labels.netValue, 340, 168, 460, 150, {
    editable: false,
    alignRight: true,
    maxLength: 20,
  });
  b.label('lbl-currency', order?.currency ?? 'EUR', 618, 168);
  b.labelled('soldToParty', labels.soldToParty, 24, 200, 200, 100, { editable, maxLength: 10 });
  const customer = CUSTOMERS[s.values.soldToParty ?? ''] ?? '';
  if (customer) b.label('lbl-soldToName', customer, 310, 200);
  b.labelled('customerReference', labels.customerReference, 24, 232, 200, 240, {
    editable,
    maxLength: 35,
  });
  b.decorations.push({
    kind: 'group',
    title: labels.salesGroup,
    rect: { x: 16, y: 266, width: 600, height: 62 },
  });
  b.labelled('reqDelivDate', labels.reqDelivDate, 32, 294, 200, 110, { editable, maxLength: 10 });

  const table = TABLE_RECT;
  b.decorations.push({ kind: 'group', title: labels.allItems, rect: table });
  b.widgets.push({ kind: 'text', id: 'items', role: 'list', name: labels.allItems, rect: table });
  const headerY = table.y + 24;
  labels.columns.forEach((name, i) => {
    const col = ITEM_COLUMNS[i];
    b.widgets.push({
      kind: 'text',
      id: `col-${i}`,
      role: 'label',
      name,
      style: 'header',
      rect: { x: col.x, y: headerY, width: col.width, height: TABLE_ROW_HEIGHT },
    });
  });
  const items = order?.items ?? [];
  const visible = items.slice(s.tableTop, s.tableTop + TABLE_VISIBLE_ROWS);
  visible.forEach((item, i) => {
    const cells = [
      item.item,
      item.material,
      String(item.quantity),
      item.unit,
      item.description,
      formatAmount(item.netValue, lang),
    ].map((text, c) => ({
      text,
      x: ITEM_COLUMNS[c].x,
      width: ITEM_COLUMNS[c].width,
      alignRight: ITEM_COLUMNS[c].alignRight,
    }));
    b.widgets.push({
      kind: 'text',
      id: `item-${item.item}`,
      role: 'listitem',
      name: cells.map((c) => c.text).join(' '),
      style: 'row',
      cells,
      rect: {
        x: table.x + 4,
        y: headerY + TABLE_ROW_HEIGHT * (i + 1),
        width: 940,
        height: TABLE_ROW_HEIGHT,
      },
    });
  });
  b.decorations.push({
    kind: 'scrollbar',
    rect: {
      x: table.x + table.width - 22,
      y: headerY,
      width: 16,
      height: TABLE_ROW_HEIGHT * (TABLE_VISIBLE_ROWS + 1) - 6,
    },
    first: s.tableTop,
    visible: TABLE_VISIBLE_ROWS,
    total: items.length,
  });
}

function fb50(b: Builder, labels: SimLabels, balance: number | null): void {
  b.appButton('btn-simulate', labels.simulate, 'simulate', 'check');
  b.appButton('btn-post', labels.post, 'post', 'post');
  b.decorations.push({
    kind: 'group',
    title: labels.basicData,
    rect: { x: 16, y: 160, width: 760, height: 170 },
  });
  b.labelled('documentDate', labels.documentDate, 32, 188, 200, 110, { maxLength: 10 });
  b.labelled('postingDate', labels.postingDate, 32, 220, 200, 110, { maxLength: 10 });
  b.labelled('reference', labels.reference, 32, 252, 200, 180, { maxLength: 16 });
  b.labelled('headerText', labels.headerText, 32, 284, 200, 300, { maxLength: 25 });
  b.labelled('currency', labels.currency, 420, 188, 560, 60, { editable: false, maxLength: 5 });
  b.decorations.push({
    kind: 'group',
    title: labels.balance,
    rect: { x: 792, y: 160, width: 472, height: 170 },
  });
  b.labelled('balance', labels.balance, 808, 188, 900, 150, {
    editable: false,
    alignRight: true,
    maxLength: 20,
  });
  b.decorations.push({ kind: 'light', x: 1072, y: 199, color: balance === 0 ? 'green' : 'red' });

  b.decorations.push({
    kind: 'group',
    title: labels.items,
    rect: { x: 16, y: 344, width: 1248, height: 130 },
  });
  b.label('col-gl', labels.glAccount, 40, 370);
  b.label('col-dc', 'D/C', 200, 370);
  b.label('col-amount', labels.amount, 300, 370);
  for (const [n, side] of [
    [1, labels.debit],
    [2, labels.credit],
  ] as const) {
    const y = 370 + n * 30;
    b.field(`glAccount${n}`, `${labels.glAccount} ${n}`, 40, y, 120, { maxLength: 10 });
    b.label(`lbl-side${n}`, side, 200, y);
    b.field(`amount${n}`, `${labels.amount} ${n}`, 300, y, 180, {
      maxLength: 16,
      alignRight: true,
    });
  }
}

export const DIALOG_RECT: Rect = { x: 390, y: 250, width: 500, height: 250 };

function pwd(b: Builder, labels: SimLabels): void {
  const d = DIALOG_RECT;
  b.decorations.push({ kind: 'dialog', title: labels.pwdTitle, rect: d });
  b.label('lbl-pwdHint', labels.pwdHint, d.x + 20, d.y + 40);
  b.labelled('currentPassword', labels.currentPassword, d.x + 20, d.y + 80, d.x + 210, 250, {
    password: true,
    maxLength: 40,
  });
  b.labelled('newPassword', labels.newPassword, d.x + 20, d.y + 114, d.x + 210, 250, {
    password: true,
    maxLength: 40,
  });
  b.labelled('repeatPassword', labels.repeatPassword, d.x + 20, d.y + 148, d.x + 210, 250, {
    password: true,
    maxLength: 40,
  });
  const confirmWidth = textWidth(labels.confirm) + 44;
  const cancelWidth = textWidth(labels.cancel) + 44;
  b.widgets.push({
    kind: 'button',
    id: 'btn-confirm',
    name: labels.confirm,
    caption: labels.confirm,
    icon: 'check',
    command: 'confirm',
    rect: {
      x: d.x + d.width - confirmWidth - cancelWidth - 26,
      y: d.y + d.height - 40,
      width: confirmWidth,
      height: 26,
    },
  });
  b.widgets.push({
    kind: 'button',
    id: 'btn-dialog-cancel',
    name: labels.cancel,
    caption: labels.cancel,
    icon: 'cancel',
    command: 'cancel',
    rect: {
      x: d.x + d.width - cancelWidth - 16,
      y: d.y + d.height - 40,
      width: cancelWidth,
      height: 26,
    },
  });
}

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
  switch (state.screen) {
    case 'menu':
      menuScreen(b, labels);
      break;
    case 'va-initial':
      orderInitial(b, labels);
      break;
    case 'va-overview':
      orderOverview(b, labels, lang);
      break;
    case 'fb50':
      fb50(b, labels, fb50Balance);
      break;
    case 'pwd':
      pwd(b, labels);
      break;
  }
  b.widgets.push({
    kind: 'text',
    id: 'status',
    role: 'statusbar',
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
 * The outline of a layout. With a popup open: what of the screen it does not cover, without the
 * screen's title (the dialog is the active window: its title is the one that counts, so that a
 * screen rule for the screen behind does not apply to the dialog's buttons), then the dialog, its
 * title, its message and its buttons.
 */
export function toOutline(layout: Layout, focus: string | null): OutlineElement[] {
  const popup = layout.popup;
  const behind = popup
    ? layout.widgets.filter(
        (w) => !(w.kind === 'text' && w.role === 'title') && !intersects(w.rect, popup.rect),
      )
    : layout.widgets;
  const elements = behind.map((w) => {
    const role = w.kind === 'field' ? 'textbox' : w.kind === 'button' ? 'button' : w.role;
    const element: OutlineElement = { id: w.id, role, name: w.name, rect: { ...w.rect } };
    if (w.kind === 'field' && w.password) element.password = true;
    if (w.kind === 'field' && w.id === focus && !popup) element.focused = true;
    return element;
  });
  if (popup) {
    const r = popup.rect;
    elements.push(
      { id: 'popup', role: 'dialog', name: popup.title, rect: { ...r } },
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
      ...popup.buttons.map((b) => ({
        id: b.id,
        role: 'button',
        name: b.name,
        rect: { ...b.rect },
      })),
    );
  }
  return elements;
}

function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function contains(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
}
