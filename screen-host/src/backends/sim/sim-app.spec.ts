import { checkAction } from '../../actions';
import type { OutlineElement } from '../backend';
import { SimApp } from './sim-app';
import { isValidDate, parseAmount } from './sim-data';
import { INITIAL_PASSWORD } from './sim-state';

const screen = { width: 1280, height: 800 };

class Driver {
  constructor(readonly app = new SimApp()) {}

  act(body: unknown): this {
    const checked = checkAction(body, screen);
    if (!checked.ok) throw new Error(checked.reason);
    this.app.perform(checked.action);
    return this;
  }

  element(predicate: (e: OutlineElement) => boolean): OutlineElement {
    const found = this.app.outline().find(predicate);
    if (!found) throw new Error('element not found');
    return found;
  }

  byName(role: string, name: string): OutlineElement {
    return this.element((e) => e.role === role && e.name === name);
  }

  click(role: string, name: string): this {
    const { rect } = this.byName(role, name);
    return this.act({
      action: 'click',
      x: rect.x + Math.floor(rect.width / 2),
      y: rect.y + Math.floor(rect.height / 2),
    });
  }

  type(text: string): this {
    return this.act({ action: 'type', text });
  }

  key(key: string): this {
    return this.act({ action: 'key', key });
  }

  command(text: string): this {
    return this.click('textbox', this.app.labels.commandField).type(text).key('Enter');
  }

  get title(): string {
    return this.byName('title', this.app.layout().title).name;
  }

  get status(): string {
    return this.element((e) => e.role === 'status').name;
  }

  business() {
    return this.app.eventLog().filter((e) => e.type !== 'action');
  }
}

describe('SimApp: what its outline says, in SAP GUI Scripting’s terms', () => {
  const date = (d: Driver) => d.byName('textbox', 'Req. Deliv. Date');

  it('marks a clicked field’s content selected until typing replaces it', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter');
    d.click('textbox', 'Req. Deliv. Date');
    expect(date(d).states).toEqual(['editable', 'changeable', 'focused', 'selected']);
    d.type('30.04.2026');
    expect(date(d).states).not.toContain('selected');
    expect(date(d).value).toBe('30.04.2026');
    // An empty field has nothing to select.
    d.click('textbox', 'Command field');
    expect(d.byName('textbox', 'Command field').states).not.toContain('selected');
  });

  it('marks a typed field modified until a function takes the input, as SAP’s Modified', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter');
    expect(date(d).states).toEqual(['editable', 'changeable']);
    d.click('textbox', 'Req. Deliv. Date').type('30.04.2026');
    expect(date(d).states).toEqual(['editable', 'changeable', 'focused', 'modified']);
    // Enter checks the screen: the input is taken, nothing is modified any more.
    d.key('Enter');
    expect(date(d).states).not.toContain('modified');
    expect(date(d).value).toBe('30.04.2026');
  });

  it('gives fields, buttons, the command field, title and status bar SAP’s ids and areas', () => {
    const d = new Driver();
    expect(d.byName('textbox', 'Command field')).toMatchObject({
      id: 'wnd[0]/tbar[0]/okcd',
      area: 'command_field',
    });
    d.command('/nVA02');
    expect(d.byName('textbox', 'Order')).toMatchObject({
      id: 'wnd[0]/usr/ctxtVBAK-VBELN',
      area: 'input',
    });
    expect(d.byName('button', 'Save')).toMatchObject({
      id: 'wnd[0]/tbar[0]/btn[11]',
      description: 'Save (Ctrl+S)',
      area: 'toolbar',
    });
    expect(d.element((e) => e.role === 'title').id).toBe('wnd[0]/titl');
    expect(d.element((e) => e.role === 'status')).toMatchObject({ id: 'wnd[0]/sbar', name: '' });
    expect(d.element((e) => e.role === 'status')).not.toHaveProperty('message_type');
  });

  it('serves the status bar’s message with its type: S after a save, E for a bad date', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter');
    d.click('textbox', 'Req. Deliv. Date').type('31.02.2026').key('Enter');
    expect(d.element((e) => e.role === 'status')).toMatchObject({ message_type: 'E' });
    d.click('textbox', 'Req. Deliv. Date').type('30.04.2026').click('button', 'Save');
    expect(d.element((e) => e.role === 'status')).toMatchObject({
      area: 'status',
      message_type: 'S',
      name: 'Sales order 4711 has been saved',
    });
  });

  it('reports the session’s transaction code as SAP GUI Scripting’s GuiSessionInfo does, on no place of the screen', () => {
    const d = new Driver();
    const transaction = () => d.element((e) => e.role === 'transaction');
    expect(transaction()).toEqual({
      id: 'ses[0]/info/transaction',
      role: 'transaction',
      name: 'SESSION_MANAGER',
      rect: { x: 0, y: 0, width: 0, height: 0 },
    });
    d.command('/nVA02');
    expect(transaction().name).toBe('VA02');
    d.click('textbox', 'Order').type('4711').key('Enter');
    expect(d.title).toBe('Change Standard Order 4711: Overview');
    expect(transaction().name).toBe('VA02');
    d.command('/nVA03');
    expect(transaction().name).toBe('VA03');
    d.command('/nFB50');
    expect(transaction().name).toBe('FB50');
    d.command('/n');
    expect(transaction().name).toBe('SESSION_MANAGER');
  });

  it('prefill changes a field as someone else would: modified, with no action', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter');
    d.app.prefill('customerReference', 'PO-999');
    expect(d.byName('textbox', 'Customer Reference')).toMatchObject({
      value: 'PO-999',
      states: ['editable', 'changeable', 'modified'],
    });
    expect(() => d.app.prefill('netValue', '1')).toThrow('no editable field netValue');
  });
});

describe('SimApp', () => {
  it('starts on SAP Easy Access with the command field focused', () => {
    const d = new Driver();
    expect(d.title).toBe('SAP Easy Access');
    expect(d.element((e) => e.states?.includes('focused') === true).name).toBe('Command field');
  });

  it('VA02: changes the requested delivery date of order 4711 and saves it once', () => {
    const d = new Driver();
    d.command('/nVA02');
    expect(d.title).toBe('Change Sales Order: Initial Screen');
    d.click('textbox', 'Order').type('4711').key('Enter');
    expect(d.title).toBe('Change Standard Order 4711: Overview');
    d.click('textbox', 'Req. Deliv. Date').type('24.12.2026').click('button', 'Save');
    expect(d.status).toBe('Sales order 4711 has been saved');
    expect(d.title).toBe('Change Sales Order: Initial Screen');
    const saved = d.business().filter((e) => e.type === 'saved');
    expect(saved).toEqual([
      expect.objectContaining({
        type: 'saved',
        order: '4711',
        changed: ['reqDelivDate'],
        fields: expect.objectContaining({ reqDelivDate: '24.12.2026', soldToParty: '10001' }),
      }),
    ]);
    // Displaying the order again shows the saved date.
    d.command('/nVA03').key('Enter');
    expect(d.title).toBe('Display Standard Order 4711: Overview');
    expect(d.app.fieldValue('reqDelivDate')).toBe('24.12.2026');
  });

  it('Ctrl+S saves like the Save icon; the Change button continues like Enter', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4712').click('button', 'Change');
    d.click('textbox', 'Customer Reference').type('PO-1').key('Ctrl+S');
    expect(d.status).toBe('Sales order 4712 has been saved');
  });

  it('refuses an invalid date and an unknown order in the status bar', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('9999').key('Enter');
    expect(d.status).toBe('Sales document 9999 is not in the database or has been archived');
    d.click('textbox', 'Order').type('4711').key('Enter');
    d.click('textbox', 'Req. Deliv. Date').type('31.02.2026').key('Ctrl+S');
    expect(d.status).toMatch(/Enter a valid date/);
    expect(d.business().some((e) => e.type === 'saved')).toBe(false);
  });

  it('saving without a change saves nothing', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter').key('Ctrl+S');
    expect(d.status).toBe('No data was changed');
    expect(d.business().some((e) => e.type === 'saved')).toBe(false);
  });

  it('VA03 shows read-only fields that typing does not change', () => {
    const d = new Driver();
    d.command('/nVA03').click('textbox', 'Order').type('4713').click('button', 'Display');
    d.click('textbox', 'Req. Deliv. Date').type('01.01.2030');
    expect(d.app.fieldValue('reqDelivDate')).toBe('28.02.2026');
    d.key('Ctrl+S');
    expect(d.status).toBe('Function code cannot be selected');
  });

  it('F3 goes back, F12 cancels, Shift+F3 exits', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter');
    d.key('F3');
    expect(d.title).toBe('Change Sales Order: Initial Screen');
    d.key('Enter').key('F12');
    expect(d.title).toBe('Change Sales Order: Initial Screen');
    d.key('F3');
    expect(d.title).toBe('SAP Easy Access');
    d.command('/nFB50').key('Shift+F3');
    expect(d.title).toBe('SAP Easy Access');
  });

  it('F8 executes the initial screen', () => {
    const d = new Driver();
    d.command('/nVA03').click('textbox', 'Order').type('4711').key('F8');
    expect(d.title).toBe('Display Standard Order 4711: Overview');
  });

  it('Tab and Shift+Tab move the focus through the editable fields', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter');
    const focused = () => d.element((e) => e.states?.includes('focused') === true).name;
    expect(focused()).toBe('Sold-To Party');
    d.key('Tab');
    expect(focused()).toBe('Customer Reference');
    d.key('Tab');
    expect(focused()).toBe('Req. Deliv. Date');
    d.key('Shift+Tab');
    expect(focused()).toBe('Customer Reference');
  });

  it('edits text with Backspace, Home, Delete and arrows', () => {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('471').key('Backspace').type('11');
    expect(d.app.fieldValue('order')).toBe('4711');
    d.key('Home').key('Delete');
    expect(d.app.fieldValue('order')).toBe('711');
    d.key('ArrowRight').type('9');
    expect(d.app.fieldValue('order')).toBe('7911');
  });

  it('an unknown transaction is an error in the status bar', () => {
    const d = new Driver();
    d.command('/nZZ99');
    expect(d.status).toBe('Transaction ZZ99 does not exist');
    expect(d.title).toBe('SAP Easy Access');
  });

  it('double-clicking a transaction in the menu starts it', () => {
    const d = new Driver();
    const { rect } = d.byName('listitem', 'VA03 - Display Sales Order');
    d.act({ action: 'double_click', x: rect.x + 10, y: rect.y + 5 });
    expect(d.title).toBe('Display Sales Order: Initial Screen');
  });

  it('scrolling over the item table moves it; PageDown pages', () => {
    const d = new Driver();
    d.command('/nVA03').click('textbox', 'Order').type('4711').key('Enter');
    const firstRow = () => d.element((e) => e.role === 'listitem').name.split(' ')[0];
    expect(firstRow()).toBe('000010');
    const table = d.byName('list', 'All Items').rect;
    d.act({ action: 'scroll', x: table.x + 100, y: table.y + 100, direction: 'down', amount: 2 });
    expect(firstRow()).toBe('000030');
    d.act({ action: 'scroll', x: table.x + 100, y: table.y + 100, direction: 'up' });
    expect(firstRow()).toBe('000010');
    d.key('PageDown');
    expect(firstRow()).toBe('000090');
    d.act({ action: 'scroll', x: 5, y: 160, direction: 'down' });
    expect(firstRow()).toBe('000090');
  });

  it('FB50 posts a balanced document with the Post button', () => {
    const d = new Driver();
    d.command('/nFB50');
    d.click('textbox', 'G/L Acct 1')
      .type('400000')
      .click('textbox', 'Amount in Doc. Curr. 1')
      .type('1,250.00');
    d.click('textbox', 'G/L Acct 2')
      .type('113100')
      .click('textbox', 'Amount in Doc. Curr. 2')
      .type('1000');
    d.click('button', 'Post');
    expect(d.status).toBe('Balance in transaction currency: 250.00 EUR');
    d.click('textbox', 'Amount in Doc. Curr. 2').type('1250').click('button', 'Post');
    expect(d.status).toBe('Document 1900000001 was posted in company code 1000');
    expect(d.business().filter((e) => e.type === 'posted')).toEqual([
      expect.objectContaining({
        document: '1900000001',
        fields: expect.objectContaining({
          debitAccount: '400000',
          debitAmount: '1,250.00',
          creditAmount: '1,250.00',
        }),
      }),
    ]);
  });

  it('PWD marks its fields as passwords, redacts typed text in events and changes the password', () => {
    const d = new Driver();
    d.command('/nPWD');
    const fields = d.app.outline().filter((e) => e.role === 'textbox' && e.password);
    expect(fields.map((f) => f.name)).toEqual([
      'Current Password',
      'New Password',
      'Repeat Password',
    ]);
    expect(d.app.typingTarget()).toBe('password');
    d.type(INITIAL_PASSWORD)
      .key('Tab')
      .type('Better-Pass-2')
      .key('Tab')
      .type('Better-Pass-2')
      .click('button', 'Confirm');
    expect(d.status).toBe('Your password has been changed');
    const typed = d.app.eventLog().filter((e) => e.type === 'action' && e.action.action === 'type');
    expect(typed.slice(-3).map((e) => (e.type === 'action' ? e.action.text : null))).toEqual([
      '[redacted]',
      '[redacted]',
      '[redacted]',
    ]);
    expect(JSON.stringify(d.app.eventLog())).not.toContain('Better-Pass-2');
  });

  it('serves each field’s content as its value, and never a password field’s', () => {
    const d = new Driver();
    expect(d.byName('textbox', 'Command field').value).toBe('');
    d.command('/nVA02').click('textbox', 'Order').type('4711');
    expect(d.byName('textbox', 'Order').value).toBe('4711');
    d.key('Enter');
    expect(d.byName('textbox', 'Req. Deliv. Date').value).toMatch(/^\d\d\.\d\d\.\d{4}$/);
    d.click('textbox', 'Req. Deliv. Date').type('30.04.2026');
    expect(d.byName('textbox', 'Req. Deliv. Date').value).toBe('30.04.2026');
    d.command('/nPWD').type(INITIAL_PASSWORD);
    const passwords = d.app.outline().filter((e) => e.password);
    expect(passwords).toHaveLength(3);
    for (const field of passwords) expect(field).not.toHaveProperty('value');
    expect(JSON.stringify(d.app.outline())).not.toContain(INITIAL_PASSWORD);
  });

  it('speaks German with --lang de', () => {
    const d = new Driver(new SimApp('de'));
    d.command('/nVA02');
    expect(d.title).toBe('Kundenauftrag ändern: Einstieg');
    expect(d.byName('button', 'Sichern')).toBeDefined();
    d.click('textbox', 'Auftrag').type('4711').click('button', 'Ändern');
    d.click('textbox', 'Wunschlieferdat.').type('02.01.2027').click('button', 'Sichern');
    expect(d.status).toBe('Terminauftrag 4711 wurde gesichert');
    d.command('/nFB50');
    expect(d.byName('button', 'Buchen')).toBeDefined();
  });

  it('reset returns to the first screen and forgets events', () => {
    const d = new Driver();
    d.command('/nVA02');
    d.app.reset();
    expect(d.title).toBe('SAP Easy Access');
    expect(d.app.eventLog()).toEqual([]);
  });

  it('names every button, field and label, with rects on the screen', () => {
    const d = new Driver();
    for (const go of ['', '/nVA02', '/nFB50', '/nPWD']) {
      if (go) d.command(go);
      for (const e of d.app.outline()) {
        if (e.role !== 'status') expect(e.name).not.toBe('');
        expect(e.rect.x).toBeGreaterThanOrEqual(0);
        expect(e.rect.y).toBeGreaterThanOrEqual(0);
        expect(e.rect.x + e.rect.width).toBeLessThanOrEqual(1280);
        expect(e.rect.y + e.rect.height).toBeLessThanOrEqual(800);
      }
      const names = d.app
        .outline()
        .filter((e) => e.role === 'button')
        .map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['Enter', 'Save', 'Back', 'Exit', 'Cancel']));
    }
  });
});

describe('SimApp popup (a dialog that opens by itself)', () => {
  const question = { title: 'Save changes?', message: 'Save the order?', buttons: ['Yes', 'No'] };

  /** VA02 on order 4711 with a new date typed, not saved. */
  function changedOrder(): Driver {
    const d = new Driver();
    d.command('/nVA02').click('textbox', 'Order').type('4711').key('Enter');
    d.click('textbox', 'Req. Deliv. Date').type('24.12.2026');
    return d;
  }

  it('is listed in the outline as a dialog with its buttons, over the screen behind it', () => {
    const d = changedOrder();
    d.app.openPopup(question);
    const outline = d.app.outline();
    const dialog = d.byName('dialog', 'Save changes?');
    expect(d.byName('label', 'Save the order?')).toBeDefined();
    const yes = d.byName('button', 'Yes');
    const no = d.byName('button', 'No');
    for (const b of [yes, no]) {
      expect(b.rect.x).toBeGreaterThanOrEqual(dialog.rect.x);
      expect(b.rect.x + b.rect.width).toBeLessThanOrEqual(dialog.rect.x + dialog.rect.width);
    }
    // The dialog is the active window: its title is the title, the screen's is not listed.
    expect(outline.filter((e) => e.role === 'title').map((e) => e.name)).toEqual(['Save changes?']);
    // Nothing listed lies under the dialog but the dialog's own elements.
    const inside = (e: OutlineElement) =>
      e.rect.x < dialog.rect.x + dialog.rect.width &&
      dialog.rect.x < e.rect.x + e.rect.width &&
      e.rect.y < dialog.rect.y + dialog.rect.height &&
      dialog.rect.y < e.rect.y + e.rect.height;
    expect(
      outline.filter(inside).every((e) => e.id.startsWith('popup') || e.id.startsWith('btn-popup')),
    ).toBe(true);
    expect(d.business().filter((e) => e.type === 'popup')).toEqual([
      expect.objectContaining({ type: 'popup', title: 'Save changes?', buttons: ['Yes', 'No'] }),
    ]);
    expect(() => d.app.openPopup(question)).toThrow(/already open/);
  });

  it('its first button commits what the screen holds: the order is saved', () => {
    const d = changedOrder();
    d.app.openPopup(question);
    d.click('button', 'Yes');
    expect(d.app.state.popup).toBeNull();
    expect(d.status).toBe('Sales order 4711 has been saved');
    const events = d.business().map((e) => e.type);
    expect(events.slice(-2)).toEqual(['popup_closed', 'saved']);
    expect(d.business().find((e) => e.type === 'popup_closed')).toMatchObject({ button: 'Yes' });
  });

  it('Enter chooses the first button too; another button or Escape only close it', () => {
    let d = changedOrder();
    d.app.openPopup(question);
    d.key('Enter');
    expect(d.business().some((e) => e.type === 'saved')).toBe(true);

    d = changedOrder();
    d.app.openPopup(question);
    d.click('button', 'No');
    expect(d.app.state.popup).toBeNull();
    expect(d.business().some((e) => e.type === 'saved')).toBe(false);
    expect(d.app.fieldValue('reqDelivDate')).toBe('24.12.2026');

    d = changedOrder();
    d.app.openPopup(question);
    d.key('Escape');
    expect(d.app.state.popup).toBeNull();
    expect(d.business().find((e) => e.type === 'popup_closed')).toMatchObject({ button: null });
    expect(d.business().some((e) => e.type === 'saved')).toBe(false);
  });

  it('is modal: clicks beside it, typing and other keys reach nothing behind it', () => {
    const d = changedOrder();
    d.app.openPopup(question);
    const before = JSON.stringify(d.app.state);
    d.act({ action: 'click', x: 60, y: 66 }); // Save icon, outside the dialog
    d.type('99').key('Tab').key('Ctrl+S').key('F11');
    expect(JSON.stringify(d.app.state)).toBe(before);
    expect(d.business().some((e) => e.type === 'saved')).toBe(false);
  });

  it('on FB50 its first button posts, on the password screen it confirms', () => {
    const d = new Driver();
    d.command('/nFB50');
    d.click('textbox', 'G/L Acct 1').type('400000');
    d.click('textbox', 'Amount in Doc. Curr. 1').type('100.00');
    d.click('textbox', 'G/L Acct 2').type('113100');
    d.click('textbox', 'Amount in Doc. Curr. 2').type('100.00');
    d.app.openPopup({ title: 'Post?', message: 'Post the document?', buttons: ['Yes', 'No'] });
    d.click('button', 'Yes');
    expect(d.business().some((e) => e.type === 'posted')).toBe(true);

    const p = new Driver();
    p.command('/nPWD');
    p.click('textbox', 'Current Password').type(INITIAL_PASSWORD);
    p.click('textbox', 'New Password').type('Another-Pass-2');
    p.click('textbox', 'Repeat Password').type('Another-Pass-2');
    p.app.openPopup({ title: 'Change?', message: 'Change the password?', buttons: ['Yes'] });
    p.key('Enter');
    expect(p.business().some((e) => e.type === 'password_changed')).toBe(true);
  });

  it('a long message is wrapped inside the dialog', () => {
    const d = new Driver();
    d.app.openPopup({ title: 'Note', message: 'word '.repeat(39).trim(), buttons: ['OK'] });
    const popup = d.app.layout().popup!;
    expect(popup.lines.length).toBeGreaterThan(1);
    expect(popup.lines.length).toBeLessThanOrEqual(4);
    for (const line of popup.lines) {
      expect(line.rect.x + line.rect.width).toBeLessThanOrEqual(popup.rect.x + popup.rect.width);
    }
  });
});

describe('sim data', () => {
  it.each([
    ['1000', 100000],
    ['1000.5', 100050],
    ['1,250.00', 125000],
    ['1.250,00', 125000],
    ['12,5', 1250],
    ['abc', null],
    ['1,2,3', null],
  ])('parseAmount(%j) is %j', (text, cents) => {
    expect(parseAmount(text)).toBe(cents);
  });

  it.each([
    ['24.12.2026', true],
    ['29.02.2028', true],
    ['29.02.2026', false],
    ['31.04.2026', false],
    ['2026-12-24', false],
  ])('isValidDate(%j) is %j', (text, valid) => {
    expect(isValidDate(text)).toBe(valid);
  });
});
