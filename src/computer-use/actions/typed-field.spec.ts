import type { OutlineElement } from './action.types';
import { type EarlierStep, typedSinceFocus } from './typed-field';

const box = (id: string, x: number, y: number, width = 200, height = 20): OutlineElement => ({
  id,
  role: 'textbox',
  name: id,
  rect: { x, y, width, height },
});
/** Two fields on one line (a card number in four boxes would look like this), one below. */
const OUTLINE = [
  box('window', 0, 0, 1280, 800),
  box('card', 100, 100),
  box('cvv', 320, 100, 60),
  box('name', 100, 140),
];

const click = (x: number, y: number, outcome = 'sent'): EarlierStep => ({
  action: { action: 'click', x, y },
  outcome,
});
const type = (text: string, outcome: string | null = 'sent'): EarlierStep => ({
  action: { action: 'type', text },
  outcome,
});
const key = (k: string, outcome = 'sent'): EarlierStep => ({
  action: { action: 'key', key: k },
  outcome,
});
const other = (action: Record<string, unknown>, outcome = 'sent'): EarlierStep => ({
  action,
  outcome,
});

describe('typedSinceFocus: what the focused field holds from earlier steps', () => {
  it('is empty for a run that typed nothing', () => {
    expect(typedSinceFocus([], OUTLINE)).toEqual([]);
    expect(typedSinceFocus([click(150, 110)], OUTLINE)).toEqual([]);
  });

  it('collects the pieces typed after the click into the field, oldest first', () => {
    const history = [click(150, 110), type('4111 1111 '), type('1111', 'sent_after_approval')];
    expect(typedSinceFocus(history, OUTLINE)).toEqual(['4111 1111 ', '1111']);
  });

  it('keeps collecting across clicks on the same field, anywhere in it', () => {
    const history = [click(150, 110), type('4111'), click(290, 119), type('1111')];
    expect(typedSinceFocus(history, OUTLINE)).toEqual(['4111', '1111']);
  });

  it('stops at a click on another field, even on the same line', () => {
    expect(typedSinceFocus([click(150, 110), type('4111'), click(330, 110)], OUTLINE)).toEqual([]);
    const history = [click(150, 150), type('4111'), click(150, 110), type('1111')];
    expect(typedSinceFocus(history, OUTLINE)).toEqual(['1111']);
  });

  it('without an outline, counts clicks on the same line as one field', () => {
    const sameLine = [click(150, 110), type('4111'), click(330, 126), type('1111')];
    expect(typedSinceFocus(sameLine, null)).toEqual(['4111', '1111']);
    const nextLine = [click(150, 110), type('4111'), click(150, 127), type('1111')];
    expect(typedSinceFocus(nextLine, null)).toEqual(['1111']);
  });

  it('where the outline names nothing at a point, compares the lines', () => {
    const blank = [box('card', 100, 100)];
    const history = [click(600, 110), type('4111'), click(150, 112), type('1111')];
    expect(typedSinceFocus(history, blank)).toEqual(['4111', '1111']);
  });

  it.each(['Tab', 'Shift+Tab', 'Enter', 'Escape', 'F4', 'F8', 'Ctrl+F12', 'nonsense'])(
    'stops at the key %s, which takes the focus out of the field',
    (k) => {
      const history = [click(150, 110), type('4111'), key(k), type('1111')];
      expect(typedSinceFocus(history, OUTLINE)).toEqual(['1111']);
    },
  );

  it.each(['ArrowLeft', 'End', 'Home', 'Backspace', 'Delete', 'Ctrl+S', 'PageDown'])(
    'goes on past the key %s, which may leave the caret in the field',
    (k) => {
      const history = [click(150, 110), type('4111'), key(k), type('1111')];
      expect(typedSinceFocus(history, OUTLINE)).toEqual(['4111', '1111']);
    },
  );

  it('goes on past reads that leave the focus alone', () => {
    const history = [
      click(150, 110),
      type('4111'),
      other({ action: 'wait', seconds: 1 }),
      other({ action: 'scroll', x: 10, y: 10, direction: 'down', amount: 3 }),
      type('1111'),
    ];
    expect(typedSinceFocus(history, OUTLINE)).toEqual(['4111', '1111']);
  });

  it('leaves out typing that was never sent, and actions that never happened', () => {
    const history = [
      click(150, 110),
      type('4111'),
      type('9999', 'refused'),
      type('8888', 'rejected'),
      type('7777', 'stale'),
      type('6666', 'screen_changed'),
      click(150, 150, 'refused'),
      key('Tab', 'rejected'),
      click(150, 150, 'screen_changed'),
      type('1111'),
    ];
    expect(typedSinceFocus(history, OUTLINE)).toEqual(['4111', '1111']);
  });

  it('counts typing whose outcome is unknown as typed (fails closed)', () => {
    const history = [click(150, 110), type('4111', null), type('1111', 'staged')];
    expect(typedSinceFocus(history, OUTLINE)).toEqual(['4111', '1111']);
  });

  it('counts what was typed before any click when nothing moved the focus since', () => {
    expect(typedSinceFocus([type('4111'), type('1111')], OUTLINE)).toEqual(['4111', '1111']);
    expect(typedSinceFocus([key('Tab'), type('4111'), type('1111')], OUTLINE)).toEqual([
      '4111',
      '1111',
    ]);
  });

  it('leaves out typing into a field nothing locates once a click has moved the focus', () => {
    // After a Tab, or at the run's start, the focus was somewhere; the click then moved it.
    expect(typedSinceFocus([key('Tab'), type('4111'), click(150, 110)], OUTLINE)).toEqual([]);
    expect(typedSinceFocus([type('4111'), click(150, 110), type('1111')], OUTLINE)).toEqual([
      '1111',
    ]);
  });

  it('reads masked or malformed earlier actions without throwing', () => {
    const history: EarlierStep[] = [
      { action: null, outcome: 'sent' },
      { action: { truncated: '{"action":"type"' }, outcome: 'refused' },
      { action: { action: 'click', x: '1', y: 2 }, outcome: 'sent' },
      { action: 'type', outcome: 'sent' },
      type('4111'),
    ];
    expect(typedSinceFocus(history, OUTLINE)).toEqual(['4111']);
  });
});
