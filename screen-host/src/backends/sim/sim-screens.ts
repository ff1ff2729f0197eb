/**
 * The sim's screens, each built widget by widget where SAP GUI puts them: the window chrome, SAP
 * Easy Access, VA02/VA03 (initial screen and overview), FB50 and the password dialog.
 */
import type { Rect } from '../backend';
import { CUSTOMERS, formatAmount } from './sim-data';
import type { SimLabels } from './sim-labels';
import type { SimState } from './sim-state';
import {
  BANDS,
  type Command,
  type Decoration,
  FIELD_HEIGHT,
  ICON_BUTTON_SIZE,
  type IconKind,
  MENU_ROWS,
  SYSTEM_BUTTONS,
  TABLE_ROW_HEIGHT,
  TABLE_VISIBLE_ROWS,
  textWidth,
  type Widget,
} from './sim-widgets';

export class Builder {
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
      area: 'toolbar',
      rect: { x: this.appX, y: BANDS.appToolbar.y + 4, width, height: 24 },
    });
    this.appX += width + 6;
  }
}

export function chrome(b: Builder, labels: SimLabels, menus: string[]): void {
  let x = 8;
  menus.forEach((name, i) => {
    const width = textWidth(name) + 16;
    b.widgets.push({
      kind: 'text',
      id: `menu-${i}`,
      role: 'menu',
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
      tooltip: labels.tooltips[button.command],
      area: 'toolbar',
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

/** Adds the widgets of the state's screen. */
export function screenWidgets(
  b: Builder,
  state: SimState,
  labels: SimLabels,
  lang: 'en' | 'de',
  fb50Balance: number | null,
): void {
  switch (state.screen) {
    case 'menu':
      return menuScreen(b, labels);
    case 'va-initial':
      return orderInitial(b, labels);
    case 'va-overview':
      return orderOverview(b, labels, lang);
    case 'fb50':
      return fb50(b, labels, fb50Balance);
    case 'pwd':
      return pwd(b, labels);
  }
}
