/**
 * The sim's behaviour: an SAP-GUI-like application driven only by the actions a screen host
 * receives. No clock and no randomness: the same actions from a reset give the same state. What a
 * key does is in sim-keys.ts, what a function does (Enter, Save, a transaction) in sim-commands.ts;
 * the mouse, a modal dialog and the event log are here.
 */
import { createHash } from 'node:crypto';
import { transactionElement } from '@warden/protocol';
import type { CheckedAction } from '../../actions';
import { plainAction } from '../../actions';
import type { OutlineElement } from '../backend';
import { runCommand } from './sim-commands';
import { formatAmount, netValueOf, parseAmount } from './sim-data';
import type { NewEvent, SimEvent } from './sim-events';
import { type KeyHost, pressKey, typeText } from './sim-keys';
import { labelsFor, SimLabels, SimLang } from './sim-labels';
import {
  contains,
  fieldsOf,
  FieldWidget,
  Layout,
  layoutOf,
  TABLE_RECT,
  TABLE_VISIBLE_ROWS,
  toOutline,
  Widget,
} from './sim-layout';
import { initialState, SimPopup, SimState } from './sim-state';

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

  /** The outline, ending with the session's transaction code as SAP GUI Scripting reports it. */
  outline(): OutlineElement[] {
    const elements = toOutline(this.layout(), this.state.focus, {
      value: (id) => this.fieldValue(id),
      modified: (id) => this.state.modified.includes(id),
      // Focused by a click or Tab, its content is selected until typing replaces it.
      selected: (id) =>
        id === this.state.focus && this.state.selectAll && this.fieldValue(id) !== '',
      message: () => (this.state.status?.text ? this.state.status.type : null),
    });
    elements.push(transactionElement(this.transaction()));
    return elements;
  }

  /** The transaction the screen belongs to; the menu is SAP Easy Access's `SESSION_MANAGER`. */
  transaction(): string {
    switch (this.state.screen) {
      case 'menu':
        return 'SESSION_MANAGER';
      case 'va-initial':
      case 'va-overview':
        return this.state.mode === 'change' ? 'VA02' : 'VA03';
      case 'fb50':
        return 'FB50';
      case 'pwd':
        return 'PWD';
    }
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

  /**
   * Changes an editable field of the current screen as if someone else had typed into it (another
   * user at the session, a paste the run did not make): the field is `modified`, with no action.
   * Refused for a field the screen does not show, or one that is read-only or a password field.
   */
  prefill(field: string, value: string): void {
    const target = fieldsOf(this.layout()).find((f) => f.id === field);
    if (!target || !target.editable || target.password || field === 'cmd') {
      throw new Error(`no editable field ${field} on this screen`);
    }
    this.state.values[field] = value;
    if (!this.state.modified.includes(field)) this.state.modified.push(field);
    this.record({ type: 'prefill', field, value });
    this.changed();
  }

  poke(message: string, faint = false): void {
    this.state.status = faint ? { type: 'I', text: message, faint } : { type: 'I', text: message };
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
        typeText(this.host(), action.text);
        break;
      case 'key':
        pressKey(this.host(), action.parsed);
        break;
      case 'scroll':
        this.scroll(action.x, action.y, action.direction, action.amount);
        break;
    }
    this.changed();
  }

  fb50Balance(): number | null {
    if (this.state.screen !== 'fb50') return null;
    const debit = parseAmount(this.state.values.amount1 ?? '') ?? 0;
    const credit = parseAmount(this.state.values.amount2 ?? '') ?? 0;
    return debit - credit;
  }

  /** What the keyboard and the functions may read and do here (sim-keys.ts, sim-commands.ts). */
  private host(): KeyHost {
    return {
      state: this.state,
      labels: this.labels,
      lang: this.lang,
      layout: () => this.layout(),
      focusedField: () => this.focusedField(),
      focus: (id) => this.focus(id),
      scrollTable: (delta) => this.scrollTable(delta),
      record: (event) => this.record(event),
      layoutChanged: () => this.changed(),
    };
  }

  // --- mouse and dialog ----------------------------------------------------------------------

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
    if (button === 0) runCommand(this.host(), this.state.screen === 'pwd' ? 'confirm' : 'save');
  }

  private click(x: number, y: number, double: boolean): void {
    const hit = this.hitTest(x, y);
    if (!hit) return;
    if (hit.kind === 'field') {
      this.focus(hit.id);
      return;
    }
    if (hit.kind === 'button') {
      runCommand(this.host(), hit.command);
      return;
    }
    if (hit.role === 'listitem' && this.state.screen === 'menu') {
      this.state.menuSelection = Number(hit.id.replace('node-', ''));
      if (double && hit.command) runCommand(this.host(), hit.command);
    }
  }

  private hitTest(x: number, y: number): Widget | null {
    const widgets = this.layout().widgets;
    // Later widgets are drawn on top; the list frame is behind its rows.
    for (let i = widgets.length - 1; i >= 0; i--) {
      const w = widgets[i];
      if (w.kind === 'text' && (w.role === 'list' || w.role === 'status' || w.role === 'title'))
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

  private record(event: NewEvent): void {
    this.seq += 1;
    this.events.push({ seq: this.seq, ...event });
    if (this.events.length > 10_000) this.events.shift();
  }

  private changed(): void {
    this.cachedLayout = null;
  }
}
