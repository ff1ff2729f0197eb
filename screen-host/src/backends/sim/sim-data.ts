/** The sim's master data: customers, materials and the three sales orders that exist. */

export interface OrderItem {
  item: string;
  material: string;
  quantity: number;
  unit: string;
  description: string;
  /** Net value in cents. */
  netValue: number;
}

export interface SalesOrder {
  number: string;
  soldToParty: string;
  customerReference: string;
  reqDelivDate: string;
  currency: string;
  items: OrderItem[];
}

export const CUSTOMERS: Record<string, string> = {
  '10001': 'Müller Industrietechnik GmbH, Stuttgart',
  '10002': 'Baumann & Söhne KG, Köln',
  '10003': 'Nordwind Logistics Ltd., Hamburg',
  '10004': 'Café Élise SARL, Strasbourg',
};

const MATERIALS: [string, string, string, number][] = [
  ['M-1001', 'Hydraulic pump HP-200', 'PC', 245000],
  ['M-1002', 'Pressure valve PV-16', 'PC', 18900],
  ['M-1003', 'Steel pipe 2 m DN50', 'PC', 4250],
  ['M-1004', 'Flange gasket DN50', 'PC', 320],
  ['M-1005', 'Control unit CU-7', 'PC', 129900],
  ['M-1006', 'Cable set 5 m', 'PC', 2790],
  ['M-1007', 'Hydraulic oil HLP 46', 'L', 480],
  ['M-1008', 'Filter cartridge FC-10', 'PC', 3650],
  ['M-1009', 'Mounting bracket MB-3', 'PC', 1190],
  ['M-1010', 'Pressure sensor PS-250', 'PC', 21400],
];

function itemsFor(count: number, seed: number): OrderItem[] {
  const items: OrderItem[] = [];
  for (let i = 0; i < count; i++) {
    const [material, description, unit, price] = MATERIALS[(i * 3 + seed) % MATERIALS.length];
    const quantity = ((i * 7 + seed) % 9) + 1;
    items.push({
      item: String((i + 1) * 10).padStart(6, '0'),
      material,
      quantity,
      unit,
      description,
      netValue: quantity * price,
    });
  }
  return items;
}

export function initialOrders(): Record<string, SalesOrder> {
  return {
    '4711': {
      number: '4711',
      soldToParty: '10001',
      customerReference: 'PO-88123',
      reqDelivDate: '15.03.2026',
      currency: 'EUR',
      items: itemsFor(20, 0),
    },
    '4712': {
      number: '4712',
      soldToParty: '10002',
      customerReference: 'BS-2026-117',
      reqDelivDate: '02.04.2026',
      currency: 'EUR',
      items: itemsFor(3, 4),
    },
    '4713': {
      number: '4713',
      soldToParty: '10003',
      customerReference: 'NW/7781',
      reqDelivDate: '28.02.2026',
      currency: 'EUR',
      items: itemsFor(12, 7),
    },
  };
}

export function netValueOf(order: SalesOrder): number {
  return order.items.reduce((sum, item) => sum + item.netValue, 0);
}

/** Formats cents as SAP shows amounts: 12,450.00 in English, 12.450,00 in German. */
export function formatAmount(cents: number, lang: 'en' | 'de'): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'de' ? '.' : ',');
  const fraction = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${whole}${lang === 'de' ? ',' : '.'}${fraction}`;
}

/** Parses an amount as a person types it (1000, 1000.50, 1,000.50, 1.000,50) into cents, or null. */
export function parseAmount(text: string): number | null {
  const s = text.replace(/\s/g, '');
  let normal: string | null = null;
  if (/^\d+([.,]\d{1,2})?$/.test(s)) normal = s.replace(',', '.');
  else if (/^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(s)) normal = s.replace(/,/g, '');
  else if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(s))
    normal = s.replace(/\./g, '').replace(',', '.');
  if (normal === null) return null;
  const [whole, fraction = ''] = normal.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** A real calendar date in DD.MM.YYYY. */
export function isValidDate(text: string): boolean {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (!m) return false;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
