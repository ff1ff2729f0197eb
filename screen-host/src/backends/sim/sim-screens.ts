/**
 * The sim's screens, each built widget by widget where SAP GUI puts them (sim-builder.ts): SAP
 * Easy Access, VA02/VA03 (sim-order-screens.ts), FB50 and the password dialog.
 */
import type { Rect } from '../backend';
import type { Builder } from './sim-builder';
import type { SimLabels } from './sim-labels';
import type { SimState } from './sim-state';
import { orderInitial, orderOverview } from './sim-order-screens';
import { MENU_ROWS, textWidth } from './sim-widgets';

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
