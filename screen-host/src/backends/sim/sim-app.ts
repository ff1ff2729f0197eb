/**
 * The sim's behaviour: an SAP-GUI-like application driven only by the actions a screen host
 * receives. No clock and no randomness: the same actions from a reset give the same state.
 */
import { createHash } from 'node:crypto';
import type { ParsedKey } from '@warden/protocol';
import type { CheckedAction } from '../../actions';
import { plainAction } from '../../actions';
import type { OutlineElement } from '../backend';
import { CUSTOMERS, formatAmount, isValidDate, netValueOf, parseAmount } from './sim-data';
import { labelsFor, SimLabels, SimLang } from './sim-labels';
import {
  Command,
  contains,
  fieldsOf,
  FieldWidget,
  Layout,
  layoutOf,
  MENU_ROWS,
  TABLE_RECT,
  TABLE_VISIBLE_ROWS,
  toOutline,
  Widget,
} from './sim-layout';
import { initialState, SimPopup, SimScreen, SimState, StatusMessage } from './sim-state';

export type SimEvent =
  | { seq: number; type: 'action'; action: Record<string, unknown> }
  | { seq: number; type: 'transaction'; code: string }
  | { seq: number; type: 'saved'; order: string; fields: Record<string, string>; changed: string[] }
  | { seq: number; type: 'posted'; document: string; fields: Record<string, string> }
  | { seq: number; type: 'password_changed' }
  | { seq: number; type: 'poke'; message: string }
  | { seq: number; type: 'popup'; title: string; buttons: string[] }
  /** `button` is the one clicked or chosen with Enter; null when Escape closed the dialog. */
  | { seq: number; type: 'popup_closed'; button: string | null };

type NewEvent = SimEvent extends infer E
  ? E extends { seq: number }
    ? Omit<E, 'seq'>
    : never
  : never;

const TRANSACTIONS = new Set(['VA02', 'VA03', 'FB50', 'PWD']);
const FB50_DEFAULTS = { documentDate: '15.01.2026', postingDate: '15.01.2026', currency: 'EUR' };

export class SimApp {
  state: SimState = initialState();
  readonly labels: SimLabels;
  private events: SimEvent[] = [];
  private seq = 0;
  private cachedLayout: Layout | null = null;

  constructor(readonly lang: SimLang = 'en') {
    this.labels = labelsFor(lang);
  }

  reset(): void {
    this.state = initialState();
    this.events = [];
    this.seq = 0;
    this.changed();
  }

  eventLog(): SimEvent[] {
    return this.events.map((e) => ({ ...e }));
  }

  layout(): Layout {
    if (!this.cachedLayout) {
      this.cachedLayout = layoutOf(this.state, this.labels, this.lang, this.fb50Balance());
    }
    return this.cachedLayout;
  }

  /** Identifies what the screen shows: equal keys, equal pixels. */
  stateKey(): string {
    return createHash('sha256').update(JSON.stringify(this.state)).digest('hex');
  }

  outline(): OutlineElement[] {
    return toOutline(this.layout(), this.state.focus, (id) => this.fieldValue(id));
  }

  /** The text a read-only or editable field shows (computed fields included). */
  fieldValue(id: string): string {
    if (this.state.screen === 'va-overview' && id === 'netValue') {
      const order = this.state.orders[this.state.orderNumber ?? ''];
      return order ? formatAmount(netValueOf(order), this.lang) : '';
    }
    if (this.state.screen === 'fb50' && id === 'balance') {
      const balance = this.fb50Balance();
      return balance === null ? '' : formatAmount(balance, this.lang);
    }
    return this.state.values[id] ?? '';
  }

  focusedField(): FieldWidget | null {
    return fieldsOf(this.layout()).find((f) => f.id === this.state.focus) ?? null;
  }

  typingTarget(): 'password' | 'plain' {
    return this.focusedField()?.password ? 'password' : 'plain';
  }

  poke(message: string): void {
    this.state.status = { type: 'I', text: message };
    this.record({ type: 'poke', message });
    this.changed();
  }

  /**
   * Opens a modal confirm dialog over the current screen, as a system does on its own (a question
   * that pops up while a model is thinking). Its first button commits what the screen holds (Save
   * on an order, Post on FB50, Confirm on the password change); any other button, or Escape,
   * closes it. Refused while a dialog is open.
   */
  openPopup(popup: SimPopup): void {
    if (this.state.popup) throw new Error('a popup is already open');
    this.state.popup = { title: popup.title, message: popup.message, buttons: [...popup.buttons] };
    this.record({ type: 'popup', title: popup.title, buttons: [...popup.buttons] });
    this.changed();
  }

  perform(action: CheckedAction): void {
    const logged = plainAction(action) as Record<string, unknown>;
    if (action.action === 'type' && this.typingTarget() === 'password') {
      logged.text = '[redacted]';
    }
    this.record({ type: 'action', action: logged });
    if (this.state.popup) {
      this.performOnPopup(action);
      this.changed();
      return;
    }
    switch (action.action) {
      case 'click':
        this.click(action.x, action.y, false);
        break;
      case 'double_click':
        this.click(action.x, action.y, true);
        break;
      case 'type':
        this.type(action.text);
        break;
      case 'key':
        this.key(action.parsed);
        break;
      case 'scroll':
        this.scroll(action.x, action.y, action.direction, action.amount);
        break;
    }
    this.changed();
  }

  // --- input ---------------------------------------------------------------------------------

  /** A modal dialog takes every input: its buttons, Enter (the first) and Escape; nothing else. */
  private performOnPopup(action: CheckedAction): void {
    const popup = this.layout().popup!;
    if (action.action === 'click' || action.action === 'double_click') {
      const button = popup.buttons.findIndex((b) => contains(b.rect, action.x, action.y));
      if (button >= 0) this.answerPopup(button);
      return;
    }
    if (action.action !== 'key' || action.parsed.modifiers.length > 0) return;
    if (action.parsed.base === 'Enter') this.answerPopup(0);
    else if (action.parsed.base === 'Escape') this.answerPopup(null);
  }

  private answerPopup(button: number | null): void {
    const popup = this.state.popup!;
    this.state.popup = null;
    this.cachedLayout = null;
    this.record({ type: 'popup_closed', button: button === null ? null : popup.buttons[button] });
    if (button === 0) this.command(this.state.screen === 'pwd' ? 'confirm' : 'save');
  }

  private click(x: number, y: number, double: boolean): void {
    const hit = this.hitTest(x, y);
    if (!hit) return;
    if (hit.kind === 'field') {
      this.focus(hit.id);
      return;
    }
    if (hit.kind === 'button') {
      this.command(hit.command);
      return;
    }
    if (hit.role === 'listitem' && this.state.screen === 'menu') {
      this.state.menuSelection = Number(hit.id.replace('node-', ''));
      if (double && hit.command) this.command(hit.command);
    }
  }

  private hitTest(x: number, y: number): Widget | null {
    const widgets = this.layout().widgets;
    // Later widgets are drawn on top; the list frame is behind its rows.
    for (let i = widgets.length - 1; i >= 0; i--) {
      const w = widgets[i];
      if (w.kind === 'text' && (w.role === 'list' || w.role === 'statusbar' || w.role === 'title'))
        continue;
      if (contains(w.rect, x, y)) return w;
    }
    return null;
  }

  private focus(id: string): void {
    this.state.focus = id;
    this.state.selectAll = true;
    this.state.caret = this.fieldValue(id).length;
  }

  private type(text: string): void {
    for (const ch of text) {
      if (ch === '\n') this.key({ modifiers: [], base: 'Enter' });
      else if (ch === '\t') this.key({ modifiers: [], base: 'Tab' });
      else this.insert(ch);
    }
  }

  private insert(ch: string): void {
    const field = this.focusedField();
    if (!field || !field.editable) return;
    const s = this.state;
    let value = s.values[field.id] ?? '';
    if (s.selectAll) {
      value = '';
      s.caret = 0;
      s.selectAll = false;
    }
    const chars = [...value];
    if (s.overwrite && s.caret < chars.length) {
      chars[s.caret] = ch;
    } else {
      if (chars.length >= field.maxLength) return;
      chars.splice(s.caret, 0, ch);
    }
    s.caret += 1;
    s.values[field.id] = chars.join('');
  }

  private key(key: ParsedKey): void {
    const mods = new Set(key.modifiers);
    const plain = mods.size === 0;
    const s = this.state;
    const field = this.focusedField();
    if (mods.has('Ctrl') && !mods.has('Alt') && !mods.has('Shift') && key.base === 'S')
      return this.command('save');
    if (key.base === 'F3' && mods.size === 1 && mods.has('Shift')) return this.command('exit');
    if (key.base === 'Tab' && (plain || (mods.size === 1 && mods.has('Shift'))))
      return this.tab(mods.has('Shift'));
    if (!plain && !(mods.size === 1 && mods.has('Shift'))) return;
    const shift = mods.has('Shift');
    switch (key.base) {
      case 'Enter':
        return this.command('enter');
      case 'F3':
        return this.command('back');
      case 'F12':
      case 'Escape':
        return this.command('cancel');
      case 'F8':
        return this.command(
          this.state.screen === 'va-initial' ? 'continue' : 'execute-unavailable',
        );
      case 'F1':
        return this.command('help');
      case 'F11':
        return this.command('save');
      case 'PageDown':
      case 'PageUp':
        return this.scrollTable(key.base === 'PageDown' ? TABLE_VISIBLE_ROWS : -TABLE_VISIBLE_ROWS);
      case 'ArrowUp':
      case 'ArrowDown':
        if (s.screen === 'menu') return this.moveMenuSelection(key.base === 'ArrowDown' ? 1 : -1);
        return this.tab(key.base === 'ArrowUp');
      case 'Insert':
        s.overwrite = !s.overwrite;
        return;
      case 'Space':
        return this.insert(' ');
    }
    if (!field || !field.editable) return;
    const value = [...(s.values[field.id] ?? '')];
    switch (key.base) {
      case 'Backspace':
      case 'Delete':
        if (s.selectAll) {
          s.values[field.id] = '';
          s.caret = 0;
          s.selectAll = false;
          return;
        }
        if (key.base === 'Backspace' && s.caret > 0) {
          value.splice(s.caret - 1, 1);
          s.caret -= 1;
        } else if (key.base === 'Delete' && s.caret < value.length) {
          value.splice(s.caret, 1);
        }
        s.values[field.id] = value.join('');
        return;
      case 'Home':
        s.selectAll = false;
        s.caret = 0;
        return;
      case 'End':
        s.selectAll = false;
        s.caret = value.length;
        return;
      case 'ArrowLeft':
        s.selectAll = false;
        s.caret = Math.max(0, s.caret - 1);
        return;
      case 'ArrowRight':
        s.selectAll = false;
        s.caret = Math.min(value.length, s.caret + 1);
        return;
    }
    if (/^[A-Z]$/.test(key.base)) return this.insert(shift ? key.base : key.base.toLowerCase());
    if (/^[0-9]$/.test(key.base) && !shift) return this.insert(key.base);
  }

  private tab(backwards: boolean): void {
    const fields = fieldsOf(this.layout()).filter((f) => f.id !== 'cmd');
    const editable = fields.filter((f) => f.editable);
    const order = editable.length > 0 ? editable : fields;
    if (order.length === 0) return;
    const at = order.findIndex((f) => f.id === this.state.focus);
    const next =
      at < 0
        ? backwards
          ? order.length - 1
          : 0
        : (at + (backwards ? -1 : 1) + order.length) % order.length;
    this.focus(order[next].id);
  }

  private moveMenuSelection(delta: number): void {
    const current = this.state.menuSelection ?? -1;
    this.state.menuSelection = Math.min(MENU_ROWS.length - 1, Math.max(0, current + delta));
  }

  private scroll(x: number, y: number, direction: string, amount: number): void {
    if (direction !== 'up' && direction !== 'down') return;
    if (this.state.screen !== 'va-overview' || !contains(TABLE_RECT, x, y)) return;
    this.scrollTable(direction === 'down' ? amount : -amount);
  }

  private scrollTable(delta: number): void {
    if (this.state.screen !== 'va-overview') return;
    const total = this.state.orders[this.state.orderNumber ?? '']?.items.length ?? 0;
    const maxTop = Math.max(0, total - TABLE_VISIBLE_ROWS);
    this.state.tableTop = Math.min(maxTop, Math.max(0, this.state.tableTop + delta));
  }

  // --- functions -----------------------------------------------------------------------------

  private setStatus(type: StatusMessage['type'], text: string): void {
    this.state.status = { type, text };
  }

  /** One dialog step, as SAP calls it: the status bar is cleared first, then the function runs. */
  private command(command: Command | 'execute-unavailable'): void {
    const s = this.state;
    const l = this.labels;
    s.status = null;
    if (command === 'enter' && s.focus === 'cmd' && (s.values.cmd ?? '').trim() !== '') {
      const text = s.values.cmd;
      s.values.cmd = '';
      s.caret = 0;
      return this.runTransaction(text);
    }
    if (command.startsWith('tx:')) return this.runTransaction(command.slice(3));
    switch (command) {
      case 'back':
      case 'cancel':
        if (s.screen === 'va-overview')
          return this.openOrderInitial(s.mode, s.orderNumber ?? s.lastOrder);
        return this.goTo('menu');
      case 'exit':
        return this.goTo('menu');
      case 'help':
        return this.setStatus('I', l.msgNoHelp);
      case 'print':
      case 'find':
      case 'execute-unavailable':
        return this.setStatus('W', l.msgNotPossible);
      case 'save':
        if (s.screen === 'va-overview' && s.mode === 'change') return this.saveOrder();
        if (s.screen === 'fb50') return this.post();
        return this.setStatus('W', l.msgNotPossible);
      case 'enter':
        switch (s.screen) {
          case 'menu': {
            const row = s.menuSelection === null ? undefined : MENU_ROWS[s.menuSelection];
            if (row?.transaction) this.runTransaction(row.transaction);
            return;
          }
          case 'va-initial':
            return this.continueOrder();
          case 'va-overview':
            this.checkOrder();
            return;
          case 'fb50':
            return this.simulate();
          case 'pwd':
            return this.changePassword();
        }
        return;
      case 'continue':
        return this.continueOrder();
      case 'simulate':
        return this.simulate();
      case 'post':
        return this.post();
      case 'confirm':
        return this.changePassword();
    }
  }

  private runTransaction(input: string): void {
    const text = input.trim().toUpperCase();
    const match = /^(\/N)?([A-Z0-9]*)$/.exec(text);
    const code = match?.[2] ?? '';
    if (match && code === '') return this.goTo('menu');
    if (!match || !TRANSACTIONS.has(code))
      return this.setStatus('E', this.labels.msgNoTransaction(text.replace(/^\/N/, '')));
    this.record({ type: 'transaction', code });
    switch (code) {
      case 'VA02':
        return this.openOrderInitial('change', this.state.lastOrder);
      case 'VA03':
        return this.openOrderInitial('display', this.state.lastOrder);
      case 'FB50':
        this.goTo('fb50', { ...FB50_DEFAULTS });
        return this.focus('documentDate');
      case 'PWD':
        this.goTo('pwd');
        return this.focus('currentPassword');
    }
  }

  private goTo(screen: SimScreen, values: Record<string, string> = {}): void {
    const s = this.state;
    s.screen = screen;
    s.values = { cmd: s.values.cmd ?? '', ...values };
    s.focus = 'cmd';
    s.caret = s.values.cmd.length;
    s.selectAll = false;
    s.tableTop = 0;
    if (screen !== 'va-overview') s.orderNumber = null;
    this.cachedLayout = null;
  }

  private openOrderInitial(mode: 'change' | 'display', order: string): void {
    this.state.mode = mode;
    this.goTo('va-initial', { order, poNumber: '', soldToSearch: '' });
    this.focus('order');
  }

  private continueOrder(): void {
    const number = (this.state.values.order ?? '').trim();
    if (number === '') return this.setStatus('E', this.labels.msgRequired);
    const order = this.state.orders[number];
    if (!order) return this.setStatus('E', this.labels.msgNotFound(number));
    this.state.lastOrder = number;
    this.goTo('va-overview', {
      orderNo: number,
      soldToParty: order.soldToParty,
      customerReference: order.customerReference,
      reqDelivDate: order.reqDelivDate,
    });
    this.state.orderNumber = number;
    this.cachedLayout = null;
    this.focus(this.state.mode === 'change' ? 'soldToParty' : 'orderNo');
  }

  /** Checks the overview's input; true when it may be saved. */
  private checkOrder(): boolean {
    const v = this.state.values;
    if (!CUSTOMERS[v.soldToParty ?? '']) {
      this.setStatus('E', this.labels.msgBadCustomer(v.soldToParty ?? ''));
      return false;
    }
    if (!isValidDate(v.reqDelivDate ?? '')) {
      this.setStatus('E', this.labels.msgBadDate(v.reqDelivDate ?? ''));
      return false;
    }
    return true;
  }

  private saveOrder(): void {
    if (!this.checkOrder()) return;
    const s = this.state;
    const order = s.orders[s.orderNumber ?? ''];
    const v = s.values;
    const next = {
      soldToParty: v.soldToParty,
      customerReference: v.customerReference ?? '',
      reqDelivDate: v.reqDelivDate,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter(
      (k) => order[k] !== next[k],
    );
    if (changed.length === 0) return this.setStatus('I', this.labels.msgNoChange);
    Object.assign(order, next);
    this.record({
      type: 'saved',
      order: order.number,
      fields: {
        ...next,
        netValue: formatAmount(netValueOf(order), 'en'),
        currency: order.currency,
      },
      changed,
    });
    this.openOrderInitial('change', order.number);
    this.setStatus('S', this.labels.msgSaved(order.number));
  }

  fb50Balance(): number | null {
    if (this.state.screen !== 'fb50') return null;
    const debit = parseAmount(this.state.values.amount1 ?? '') ?? 0;
    const credit = parseAmount(this.state.values.amount2 ?? '') ?? 0;
    return debit - credit;
  }

  /** Validates FB50's items; the amounts in cents, or null after setting an error. */
  private fb50Amounts(): { debit: number; credit: number } | null {
    const v = this.state.values;
    for (const n of [1, 2]) {
      const text = (v[`amount${n}`] ?? '').trim();
      if ((v[`glAccount${n}`] ?? '').trim() === '' || text === '') {
        this.setStatus('E', this.labels.msgNeedAccounts);
        return null;
      }
      if (parseAmount(text) === null) {
        this.setStatus('E', this.labels.msgBadAmount(text));
        return null;
      }
    }
    return { debit: parseAmount(v.amount1)!, credit: parseAmount(v.amount2)! };
  }

  private simulate(): void {
    const amounts = this.fb50Amounts();
    if (!amounts) return;
    if (amounts.debit !== amounts.credit) {
      return this.setStatus(
        'W',
        this.labels.msgUnbalanced(formatAmount(amounts.debit - amounts.credit, this.lang)),
      );
    }
    this.setStatus('S', this.labels.msgBalanced);
  }

  private post(): void {
    const amounts = this.fb50Amounts();
    if (!amounts) return;
    if (amounts.debit !== amounts.credit || amounts.debit === 0) {
      return this.setStatus(
        'E',
        this.labels.msgUnbalanced(formatAmount(amounts.debit - amounts.credit, this.lang)),
      );
    }
    if (
      !isValidDate(this.state.values.documentDate ?? '') ||
      !isValidDate(this.state.values.postingDate ?? '')
    ) {
      return this.setStatus('E', this.labels.msgBadDate(this.state.values.postingDate ?? ''));
    }
    this.state.documentCounter += 1;
    const document = String(1900000000 + this.state.documentCounter);
    const v = this.state.values;
    this.record({
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
    this.goTo('fb50', { ...FB50_DEFAULTS });
    this.focus('documentDate');
    this.setStatus('S', this.labels.msgPosted(document));
  }

  private changePassword(): void {
    const v = this.state.values;
    const l = this.labels;
    if ((v.currentPassword ?? '') !== this.state.password)
      return this.setStatus('E', l.msgPwdWrong);
    const next = v.newPassword ?? '';
    if ([...next].length < 8) return this.setStatus('E', l.msgPwdShort);
    if (next !== (v.repeatPassword ?? '')) return this.setStatus('E', l.msgPwdMismatch);
    if (next === this.state.password) return this.setStatus('E', l.msgPwdSame);
    this.state.password = next;
    this.record({ type: 'password_changed' });
    this.goTo('menu');
    this.setStatus('S', l.msgPwdChanged);
  }

  private record(event: NewEvent): void {
    this.seq += 1;
    this.events.push({ seq: this.seq, ...event });
    if (this.events.length > 10_000) this.events.shift();
  }

  private changed(): void {
    this.cachedLayout = null;
  }
}
