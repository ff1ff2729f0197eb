/** The sim's sales order screens: VA02/VA03's initial screen and its overview with the items. */
import type { Rect } from '../backend';
import type { Builder } from './sim-builder';
import { CUSTOMERS, formatAmount } from './sim-data';
import type { SimLabels } from './sim-labels';
import { TABLE_ROW_HEIGHT, TABLE_VISIBLE_ROWS } from './sim-widgets';

export function orderInitial(b: Builder, labels: SimLabels): void {
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

export function orderOverview(b: Builder, labels: SimLabels, lang: 'en' | 'de'): void {
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
