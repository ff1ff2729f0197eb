/**
 * Text that moves the focus (docs/rules.md, "Never typed"): what follows a Tab or a newline lands
 * in another field, and is judged for every field it can reach, or refused where Warden cannot
 * tell which; what may have been meant for a secret field is never recorded.
 */
import type { OutlineElement, ScreenContext } from './action.types';
import { checkAction } from './check-action';
import { reachOf, REACHABLE_MAX } from './focus-reach';
import { loadRules } from './rules';
import { lastClickPoint } from './typed-field';

const rules = loadRules();
const field = (
  id: string,
  name: string,
  y: number,
  extra: Partial<OutlineElement> = {},
): OutlineElement => ({
  id,
  role: 'textbox',
  name,
  rect: { x: 100, y, width: 200, height: 20 },
  ...extra,
});
/** The sim's password screen after a click on the command field. */
const PASSWORDS: OutlineElement[] = [
  field('okcd', 'Command field', 10, { focused: true, area: 'command_field' }),
  field('cur', 'Current Password', 100, { password: true }),
  field('new', 'New Password', 130, { password: true }),
  field('rep', 'Repeat Password', 160, { password: true }),
];
const ORDER: OutlineElement[] = [
  field('okcd', 'Command field', 10, { area: 'command_field' }),
  field('order', 'Order', 100, { focused: true }),
  field('date', 'Req. Deliv. Date', 130, { states: ['editable', 'changeable'] }),
  { id: 'save', role: 'button', name: 'Save', rect: { x: 10, y: 40, width: 30, height: 20 } },
];
const screen = (outline: OutlineElement[] | null): ScreenContext => ({
  width: 800,
  height: 600,
  outline,
});
const type = (text: string) => ({ action: 'type', text });

describe('where typed text lands after a Tab or a newline', () => {
  it('is the focused field alone when no text follows a Tab or a newline', () => {
    for (const text of ['4711', '4711\t', '4711\n', '4711\t\t\n', '\t\n']) {
      expect(reachOf(text, screen(null), rules)).toEqual({ kind: 'focused' });
    }
  });

  it('names the first Tab or newline that has text after it, counting code points', () => {
    const reach = reachOf('€€\t\tx', screen(null), rules);
    expect(reach).toMatchObject({ kind: 'unknown', move: { at: 3, key: 'Tab' } });
    expect(reachOf('a\nb', screen(ORDER), rules)).toMatchObject({
      kind: 'unknown',
      move: { at: 2, key: 'Enter' },
    });
  });

  it('cannot tell after a newline, even where it could after a Tab before it', () => {
    expect(reachOf('4711\t30.04.2026\nx', screen(ORDER), rules)).toEqual({
      kind: 'unknown',
      move: { at: 5, key: 'Tab' },
      why: 'the newline (character 16) presses Enter: the application processes the screen, and the focus lands on a screen Warden has not seen',
    });
  });

  it('takes every field the outline lists as reachable, whatever the order', () => {
    const reach = reachOf('x\ty', screen(ORDER), rules);
    expect(reach).toMatchObject({ kind: 'fields', unjudged: null });
    expect(reach.kind === 'fields' && reach.fields.map((f) => f.id)).toEqual([
      'okcd',
      'order',
      'date',
    ]);
  });

  it('counts an editable element of any role, and a password field of any role', () => {
    const outline = [
      field('order', 'Order', 100, { focused: true }),
      { ...field('cell', 'B7', 130, { states: ['editable'] }), role: 'cell' },
      { ...field('pin', 'Secret', 160, { password: true }), role: 'text' },
    ];
    const reach = reachOf('x\ty', screen(outline), rules);
    expect(reach.kind === 'fields' && reach.fields.map((f) => f.id)).toEqual([
      'order',
      'cell',
      'pin',
    ]);
  });

  it(`cannot clear more than ${REACHABLE_MAX} fields`, () => {
    const many = Array.from({ length: REACHABLE_MAX + 1 }, (_, i) =>
      field(`f${i}`, `Field ${i}`, i, i === 0 ? { focused: true } : {}),
    );
    expect(reachOf('x\ty', screen(many), rules)).toMatchObject({
      kind: 'fields',
      unjudged: `the screen has more than ${REACHABLE_MAX} fields`,
    });
  });
});

describe('typing through a Tab, judged', () => {
  it("refuses the report's text on the password screen and records none of what follows the Tab", () => {
    const verdict = checkAction(
      type('\tOld-Pass-1\tNew-Pass-2\tNew-Pass-2'),
      screen(PASSWORDS),
      rules,
    );
    expect(verdict).toMatchObject({
      classification: 'invalid',
      action: null,
      why: 'the text holds a Tab (character 1) with more text after it, which can reach the field “Current Password”, a password field; Warden never types into password fields, wherever the keystrokes land: send Tab as its own key action, so that each text is judged for the field it goes into',
    });
    expect(verdict.recorded).toEqual({ action: 'type', text: `\t${'•'.repeat(32)}` });
    expect(JSON.stringify(verdict)).not.toMatch(/Pass-/);
  });

  it('keeps what went into the focused field before the Tab, card digits masked', () => {
    const verdict = checkAction(type('4111 1111 1111 1111\tgeheim'), screen(null), rules);
    expect(verdict.classification).toBe('invalid');
    expect(verdict.recorded).toEqual({ action: 'type', text: '•••• •••• •••• 1111\t••••••' });
  });

  it('refuses where the outline marks no focus: the keyboard may be in a window it does not describe', () => {
    const unfocused = ORDER.map((e) => ({ ...e, focused: false }));
    expect(checkAction(type('4711\t30.04.2026'), screen(unfocused), rules).why).toMatch(
      /cannot tell which field that text reaches \(the screen host marks no field as focused\)/,
    );
  });

  it('lets text through a Tab be a write where every field is named and none secret, recording them', () => {
    const verdict = checkAction(type('4711\t30.04.2026'), screen(ORDER), rules);
    expect(verdict).toMatchObject({
      classification: 'write',
      action: type('4711\t30.04.2026'),
      why: 'typing into a field is a write; after a Tab (character 5) the text goes on into whichever field has the focus then, one of “Command field”, “Order”, “Req. Deliv. Date”',
    });
    const many = [
      ...ORDER,
      ...['A', 'B', 'C', 'D'].map((n, i) => field(n, `Field ${n}`, 200 + 30 * i)),
    ];
    expect(checkAction(type('x\ty'), screen(many), rules).why).toMatch(
      /one of “Command field”, “Order”, “Req\. Deliv\. Date”, “Field A”, “Field B” and 2 more$/,
    );
    expect(verdict.labelEvidence).toMatchObject({
      source: 'outline',
      of: 'field',
      element: { id: 'order', name: 'Order' },
      reached: [
        { id: 'okcd', role: 'textbox', name: 'Command field' },
        { id: 'order', role: 'textbox', name: 'Order' },
        { id: 'date', role: 'textbox', name: 'Req. Deliv. Date' },
      ],
    });
  });

  it('records no reached fields for text that stays in its field', () => {
    const verdict = checkAction(type('30.04.2026\t'), screen(ORDER), rules);
    expect(verdict.classification).toBe('write');
    expect(verdict.labelEvidence).not.toHaveProperty('reached');
  });
});

describe('the field last clicked, after typing that moves the focus', () => {
  const click = { action: { action: 'click', x: 150, y: 110 }, outcome: 'sent' };
  it('is no longer where typing goes once text with a Tab or a newline was typed', () => {
    expect(lastClickPoint([click, { action: type('4711'), outcome: 'sent' }])).toEqual({
      x: 150,
      y: 110,
    });
    for (const text of ['4711\t', '\n', 'a\tb']) {
      expect(lastClickPoint([click, { action: type(text), outcome: 'sent' }])).toBeNull();
    }
    // Typing that did not reach the screen moved nothing.
    expect(lastClickPoint([click, { action: type('a\tb'), outcome: 'refused' }])).toEqual({
      x: 150,
      y: 110,
    });
  });
});
