/**
 * The sim's functions, as SAP runs them: the command field's transactions and what Enter, Save,
 * Back and the screens' own buttons do on each screen (check, save and post, change a password).
 */
import { CUSTOMERS, formatAmount, isValidDate, netValueOf, parseAmount } from './sim-data';
import type { NewEvent } from './sim-events';
import type { SimLabels, SimLang } from './sim-labels';
import { type Command, MENU_ROWS } from './sim-layout';
import type { SimScreen, SimState, StatusMessage } from './sim-state';

/** What a function may read and do in the app it runs in. */
export interface CommandHost {
  readonly state: SimState;
  readonly labels: SimLabels;
  readonly lang: SimLang;
  /** Puts the caret in a field, its whole content selected. */
  focus(id: string): void;
  record(event: NewEvent): void;
  /** The screen changed: the layout computed before no longer holds. */
  layoutChanged(): void;
}

export type SimCommand = Command | 'execute-unavailable';

const TRANSACTIONS = new Set(['VA02', 'VA03', 'FB50', 'PWD']);
const FB50_DEFAULTS = { documentDate: '15.01.2026', postingDate: '15.01.2026', currency: 'EUR' };

function setStatus(host: CommandHost, type: StatusMessage['type'], text: string): void {
  host.state.status = { type, text };
}

/** One dialog step, as SAP calls it: the status bar is cleared first, then the function runs. */
export function runCommand(host: CommandHost, command: SimCommand): void {
  const s = host.state;
  const l = host.labels;
  s.status = null;
  s.modified = [];
  if (command === 'enter' && s.focus === 'cmd' && (s.values.cmd ?? '').trim() !== '') {
    const text = s.values.cmd;
    s.values.cmd = '';
    s.caret = 0;
    return runTransaction(host, text);
  }
  if (command.startsWith('tx:')) return runTransaction(host, command.slice(3));
  switch (command) {
    case 'back':
    case 'cancel':
      if (s.screen === 'va-overview')
        return openOrderInitial(host, s.mode, s.orderNumber ?? s.lastOrder);
      return goTo(host, 'menu');
    case 'exit':
      return goTo(host, 'menu');
    case 'help':
      return setStatus(host, 'I', l.msgNoHelp);
    case 'print':
    case 'find':
    case 'execute-unavailable':
      return setStatus(host, 'W', l.msgNotPossible);
    case 'save':
      if (s.screen === 'va-overview' && s.mode === 'change') return saveOrder(host);
      if (s.screen === 'fb50') return post(host);
      return setStatus(host, 'W', l.msgNotPossible);
    case 'enter':
      switch (s.screen) {
        case 'menu': {
          const row = s.menuSelection === null ? undefined : MENU_ROWS[s.menuSelection];
          if (row?.transaction) runTransaction(host, row.transaction);
          return;
        }
        case 'va-initial':
          return continueOrder(host);
        case 'va-overview':
          checkOrder(host);
          return;
        case 'fb50':
          return simulate(host);
        case 'pwd':
          return changePassword(host);
      }
      return;
    case 'continue':
      return continueOrder(host);
    case 'simulate':
      return simulate(host);
    case 'post':
      return post(host);
    case 'confirm':
      return changePassword(host);
  }
}

function runTransaction(host: CommandHost, input: string): void {
  const text = input.trim().toUpperCase();
  const match = /^(\/N)?([A-Z0-9]*)$/.exec(text);
  const code = match?.[2] ?? '';
  if (match && code === '') return goTo(host, 'menu');
  if (!match || !TRANSACTIONS.has(code))
    return setStatus(host, 'E', host.labels.msgNoTransaction(text.replace(/^\/N/, '')));
  host.record({ type: 'transaction', code });
  switch (code) {
    case 'VA02':
      return openOrderInitial(host, 'change', host.state.lastOrder);
    case 'VA03':
      return openOrderInitial(host, 'display', host.state.lastOrder);
    case 'FB50':
      goTo(host, 'fb50', { ...FB50_DEFAULTS });
      return host.focus('documentDate');
    case 'PWD':
      goTo(host, 'pwd');
      return host.focus('currentPassword');
  }
}

function goTo(host: CommandHost, screen: SimScreen, values: Record<string, string> = {}): void {
  const s = host.state;
  s.screen = screen;
  s.values = { cmd: s.values.cmd ?? '', ...values };
  s.modified = [];
  s.focus = 'cmd';
  s.caret = s.values.cmd.length;
  s.selectAll = false;
  s.tableTop = 0;
  if (screen !== 'va-overview') s.orderNumber = null;
  host.layoutChanged();
}

function openOrderInitial(host: CommandHost, mode: 'change' | 'display', order: string): void {
  host.state.mode = mode;
  goTo(host, 'va-initial', { order, poNumber: '', soldToSearch: '' });
  host.focus('order');
}

function continueOrder(host: CommandHost): void {
  const number = (host.state.values.order ?? '').trim();
  if (number === '') return setStatus(host, 'E', host.labels.msgRequired);
  const order = host.state.orders[number];
  if (!order) return setStatus(host, 'E', host.labels.msgNotFound(number));
  host.state.lastOrder = number;
  goTo(host, 'va-overview', {
    orderNo: number,
    soldToParty: order.soldToParty,
    customerReference: order.customerReference,
    reqDelivDate: order.reqDelivDate,
  });
  host.state.orderNumber = number;
  host.layoutChanged();
  host.focus(host.state.mode === 'change' ? 'soldToParty' : 'orderNo');
}

/** Checks the overview's input; true when it may be saved. */
function checkOrder(host: CommandHost): boolean {
  const v = host.state.values;
  if (!CUSTOMERS[v.soldToParty ?? '']) {
    setStatus(host, 'E', host.labels.msgBadCustomer(v.soldToParty ?? ''));
    return false;
  }
  if (!isValidDate(v.reqDelivDate ?? '')) {
    setStatus(host, 'E', host.labels.msgBadDate(v.reqDelivDate ?? ''));
    return false;
  }
  return true;
}

function saveOrder(host: CommandHost): void {
  if (!checkOrder(host)) return;
  const s = host.state;
  const order = s.orders[s.orderNumber ?? ''];
  const v = s.values;
  const next = {
    soldToParty: v.soldToParty,
    customerReference: v.customerReference ?? '',
    reqDelivDate: v.reqDelivDate,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => order[k] !== next[k]);
  if (changed.length === 0) return setStatus(host, 'I', host.labels.msgNoChange);
  Object.assign(order, next);
  host.record({
    type: 'saved',
    order: order.number,
    fields: {
      ...next,
      netValue: formatAmount(netValueOf(order), 'en'),
      currency: order.currency,
    },
    changed,
  });
  openOrderInitial(host, 'change', order.number);
  setStatus(host, 'S', host.labels.msgSaved(order.number));
}

/** Validates FB50's items; the amounts in cents, or null after setting an error. */
function fb50Amounts(host: CommandHost): { debit: number; credit: number } | null {
  const v = host.state.values;
  for (const n of [1, 2]) {
    const text = (v[`amount${n}`] ?? '').trim();
    if ((v[`glAccount${n}`] ?? '').trim() === '' || text === '') {
      setStatus(host, 'E', host.labels.msgNeedAccounts);
      return null;
    }
    if (parseAmount(text) === null) {
      setStatus(host, 'E', host.labels.msgBadAmount(text));
      return null;
    }
  }
  return { debit: parseAmount(v.amount1)!, credit: parseAmount(v.amount2)! };
}

function simulate(host: CommandHost): void {
  const amounts = fb50Amounts(host);
  if (!amounts) return;
  if (amounts.debit !== amounts.credit) {
    return setStatus(
      host,
      'W',
      host.labels.msgUnbalanced(formatAmount(amounts.debit - amounts.credit, host.lang)),
    );
  }
  setStatus(host, 'S', host.labels.msgBalanced);
}

function post(host: CommandHost): void {
  const amounts = fb50Amounts(host);
  if (!amounts) return;
  if (amounts.debit !== amounts.credit || amounts.debit === 0) {
    return setStatus(
      host,
      'E',
      host.labels.msgUnbalanced(formatAmount(amounts.debit - amounts.credit, host.lang)),
    );
  }
  if (
    !isValidDate(host.state.values.documentDate ?? '') ||
    !isValidDate(host.state.values.postingDate ?? '')
  ) {
    return setStatus(host, 'E', host.labels.msgBadDate(host.state.values.postingDate ?? ''));
  }
  host.state.documentCounter += 1;
  const document = String(1900000000 + host.state.documentCounter);
  const v = host.state.values;
  host.record({
    type: 'posted',
    document,
    fields: {
      documentDate: v.documentDate,
      postingDate: v.postingDate,
      reference: v.reference ?? '',
      headerText: v.headerText ?? '',
      currency: 'EUR',
      debitAccount: v.glAccount1,
      debitAmount: formatAmount(amounts.debit, 'en'),
      creditAccount: v.glAccount2,
      creditAmount: formatAmount(amounts.credit, 'en'),
    },
  });
  goTo(host, 'fb50', { ...FB50_DEFAULTS });
  host.focus('documentDate');
  setStatus(host, 'S', host.labels.msgPosted(document));
}

function changePassword(host: CommandHost): void {
  const v = host.state.values;
  const l = host.labels;
  if ((v.currentPassword ?? '') !== host.state.password) return setStatus(host, 'E', l.msgPwdWrong);
  const next = v.newPassword ?? '';
  if ([...next].length < 8) return setStatus(host, 'E', l.msgPwdShort);
  if (next !== (v.repeatPassword ?? '')) return setStatus(host, 'E', l.msgPwdMismatch);
  if (next === host.state.password) return setStatus(host, 'E', l.msgPwdSame);
  host.state.password = next;
  host.record({ type: 'password_changed' });
  goTo(host, 'menu');
  setStatus(host, 'S', l.msgPwdChanged);
}
