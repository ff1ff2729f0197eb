import { BASE_KEYS, MODIFIERS } from '@warden/protocol';
import { keyKind, normaliseKey } from './keys';
import { loadRules } from './rules';

const rules = loadRules();

describe('normaliseKey', () => {
  it.each([
    ['return', 'Enter'],
    ['RETURN', 'Enter'],
    ['Return', 'Enter'],
    ['enter', 'Enter'],
    ['KP_Enter', 'Enter'],
    ['ctrl+s', 'Ctrl+S'],
    ['Ctrl-S', 'Ctrl+S'],
    ['control+s', 'Ctrl+S'],
    ['CTRL+s', 'Ctrl+S'],
    ['ctrl + s', 'Ctrl+S'],
    ['ctrl s', 'Ctrl+S'],
    ['Control_R+S', 'Ctrl+S'],
    ['Esc', 'Escape'],
    ['Del', 'Delete'],
    ['PgUp', 'PageUp'],
    ['Page_Up', 'PageUp'],
    ['page up', 'PageUp'],
    ['Page-Up', 'PageUp'],
    ['Prior', 'PageUp'],
    ['Next', 'PageDown'],
    ['pgdn', 'PageDown'],
    ['ArrowUp', 'ArrowUp'],
    ['up', 'ArrowUp'],
    ['Down', 'ArrowDown'],
    ['BackSpace', 'Backspace'],
    ['ISO_Left_Tab', 'Shift+Tab'],
    ['shift+ISO_Left_Tab', 'Shift+Tab'],
    ['super', 'Meta'],
    ['cmd', 'Meta'],
    ['meta', 'Meta'],
    ['win', 'Meta'],
    ['Super_L', 'Meta'],
    ['alt', 'Alt'],
    ['ctrl', 'Ctrl'],
    ['shift+alt+ctrl+meta+x', 'Ctrl+Alt+Shift+Meta+X'],
    ['meta+shift+tab', 'Shift+Meta+Tab'],
    ['ctrl+page down', 'Ctrl+PageDown'],
    ['ctrl-page-down', 'Ctrl+PageDown'],
    ['ctrl+ctrl+s', 'Ctrl+S'],
    [' ', 'Space'],
    ['space', 'Space'],
    ['s', 'S'],
    ['S', 'S'],
    ['7', '7'],
    ['KP_7', '7'],
    ['f1', 'F1'],
    ['F24', 'F24'],
    ['KP_F4', 'F4'],
    ['  Tab  ', 'Tab'],
  ])('%j → %s', (input, expected) => {
    expect(normaliseKey(input, rules)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    '+',
    '-',
    'ctrl+',
    '+s',
    'ctrl++s',
    'F0',
    'F25',
    'ctrl+shift',
    'ab',
    '/',
    'ß',
    'page',
    'Ctrl+S+T',
    'x'.repeat(65),
  ])('%j is not a key', (input) => {
    expect(normaliseKey(input, rules)).toBeNull();
  });

  it('uses the default rules when none are given', () => {
    expect(normaliseKey('ctrl-s')).toBe('Ctrl+S');
  });

  it('leaves every canonical key, alone and with every modifier set, as it is', () => {
    const sets = [
      [],
      ...MODIFIERS.map((m) => [m]),
      ['Ctrl', 'Alt'],
      ['Ctrl', 'Shift'],
      ['Alt', 'Shift', 'Meta'],
    ];
    for (const base of BASE_KEYS) {
      for (const mods of sets) {
        const key = [...mods, base].join('+');
        expect(normaliseKey(key, rules)).toBe(key);
      }
    }
  });
});

describe('keyKind', () => {
  it('sorts the default keys of docs/rules.md', () => {
    for (const k of [
      'Tab',
      'Shift+Tab',
      'ArrowUp',
      'ArrowDown',
      'ArrowLeft',
      'ArrowRight',
      'Home',
      'End',
      'PageUp',
      'PageDown',
      'Escape',
      'F1',
      'F2',
      'F3',
      'F4',
      'F12',
    ]) {
      expect(keyKind(k, rules)).toBe('navigation');
    }
    for (const k of ['Enter', 'F8', 'F11', 'Ctrl+S', 'F5', 'Delete', 'Backspace']) {
      expect(keyKind(k, rules)).toBe('commit');
    }
    for (const k of [
      'Alt+F4',
      'Ctrl+V',
      'Meta',
      'Ctrl+Alt+Delete',
      'A',
      'Space',
      'F6',
      'Shift+Enter',
    ]) {
      expect(keyKind(k, rules)).toBeNull();
    }
  });
});
