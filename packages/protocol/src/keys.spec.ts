import fc from 'fast-check';
import {
  BASE_KEYS,
  canonicalKey,
  isBaseKey,
  isCanonicalKey,
  type KeySpellings,
  MAX_KEY_LENGTH,
  MODIFIERS,
  parseKey,
  squash,
} from './keys';

/** The base keys as docs/screen-host.md lists them, written out independently of keys.ts. */
const NAMED =
  'Enter Tab Escape Backspace Delete Insert Home End PageUp PageDown ArrowUp ArrowDown ArrowLeft ArrowRight Space'.split(
    ' ',
  );
const BASES = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''),
  ...NAMED,
  ...Array.from({ length: 24 }, (_, i) => `F${i + 1}`),
];

function parsed(key: string) {
  const result = parseKey(key);
  if ('error' in result) throw new Error(result.error);
  return result;
}

describe('parseKey', () => {
  it.each(['Enter', 'Shift+Tab', 'Ctrl+S', 'F8', 'Ctrl+Alt+Shift+Meta+F24', 'Alt+ArrowDown', '7'])(
    'accepts the canonical key %s',
    (key) => {
      expect(parseKey(key)).not.toHaveProperty('error');
    },
  );

  it.each([
    ['', 'empty'],
    ['ctrl+s', 'lower-case modifier'],
    ['Ctrl+s', 'lower-case letter'],
    ['Return', 'an alias Warden normalises'],
    ['Esc', 'an alias'],
    ['Shift+Ctrl+S', 'modifiers out of order'],
    ['Ctrl+Ctrl+S', 'a modifier twice'],
    ['Ctrl', 'a modifier alone'],
    ['Ctrl+', 'no base key'],
    ['F25', 'no such function key'],
    ['F0', 'no such function key'],
    ['Win+R', 'an unknown modifier'],
    ['Ctrl+S+A', 'two base keys'],
    ['Enter ', 'trailing space'],
  ])('refuses %j (%s)', (key) => {
    expect(parseKey(key)).toHaveProperty('error');
  });

  it('splits modifiers from the base key in canonical order', () => {
    expect(parsed('Ctrl+Shift+F3')).toEqual({ modifiers: ['Ctrl', 'Shift'], base: 'F3' });
  });

  it('accepts exactly the canonical combinations (property)', () => {
    fc.assert(
      fc.property(fc.subarray([...MODIFIERS]), fc.constantFrom(...BASES), (mods, base) => {
        const key = [...mods, base].join('+');
        expect(parsed(key)).toEqual({ modifiers: mods, base });
      }),
    );
  });

  it('never throws and only accepts what re-joins to itself (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (key) => {
        const result = parseKey(key);
        if (!('error' in result)) expect([...result.modifiers, result.base].join('+')).toBe(key);
      }),
    );
  });

  it('knows the base keys', () => {
    expect([...BASE_KEYS].sort()).toEqual([...BASES].sort());
    expect(BASES.every(isBaseKey)).toBe(true);
    expect(isBaseKey('Shift')).toBe(false);
  });
});

/** A few spellings, as Warden's config/classification.json gives them (squashed). */
const spellings: KeySpellings = {
  keys: new Map([
    ['return', 'Enter'],
    ['esc', 'Escape'],
    ['prior', 'PageUp'],
    ['isolefttab', 'Shift+Tab'],
  ]),
  modifiers: new Map([
    ['control', 'Ctrl'],
    ['win', 'Meta'],
  ]),
};
const none: KeySpellings = { keys: new Map(), modifiers: new Map() };

describe('canonicalKey', () => {
  it.each([
    ['Return', 'Enter'],
    ['ctrl+s', 'Ctrl+S'],
    ['Ctrl-S', 'Ctrl+S'],
    ['ctrl s', 'Ctrl+S'],
    ['control + s', 'Ctrl+S'],
    ['shift+alt+ctrl+meta+x', 'Ctrl+Alt+Shift+Meta+X'],
    ['ctrl+ctrl+s', 'Ctrl+S'],
    ['Page_Up', 'PageUp'],
    ['page up', 'PageUp'],
    ['Prior', 'PageUp'],
    ['ctrl+prior', 'Ctrl+PageUp'],
    ['ISO_Left_Tab', 'Shift+Tab'],
    ['shift+ISO_Left_Tab', 'Shift+Tab'],
    ['win', 'Meta'],
    ['ctrl', 'Ctrl'],
    [' ', 'Space'],
    ['  Tab  ', 'Tab'],
    ['f1', 'F1'],
    ['s', 'S'],
  ])('%j → %s', (input, expected) => {
    expect(canonicalKey(input, spellings)).toBe(expected);
  });

  it.each(['', '   ', '+', 'ctrl+', 'ctrl++s', 'F25', 'ctrl+shift', 'ab', 'ß', 'Ctrl+S+T'])(
    '%j is not a key',
    (input) => {
      expect(canonicalKey(input, spellings)).toBeNull();
    },
  );

  it(`reads at most ${MAX_KEY_LENGTH} characters`, () => {
    expect(canonicalKey(`${' '.repeat(MAX_KEY_LENGTH - 1)}s`, none)).toBe('S');
    expect(canonicalKey(`${' '.repeat(MAX_KEY_LENGTH)}s`, none)).toBeNull();
  });

  it('leaves every canonical key as it is (property)', () => {
    fc.assert(
      fc.property(fc.subarray([...MODIFIERS]), fc.constantFrom(...BASES), (mods, base) => {
        const key = [...mods, base].join('+');
        expect(canonicalKey(key, none)).toBe(key);
      }),
    );
  });

  it('gives only keys the screen host accepts, or a modifier alone (property)', () => {
    const token = fc.oneof(
      fc.constantFrom(
        ...BASES,
        ...MODIFIERS,
        'return',
        'control',
        'win',
        'page up',
        'ISO_Left_Tab',
      ),
      fc.string({ maxLength: 6 }),
    );
    const input = fc.tuple(fc.array(token, { maxLength: 4 }), fc.constantFrom('+', '-', ' '));
    fc.assert(
      fc.property(input, ([tokens, separator]) => {
        const key = canonicalKey(tokens.join(separator), spellings);
        if (key === null) return;
        expect(isCanonicalKey(key)).toBe(true);
        if (!(MODIFIERS as readonly string[]).includes(key))
          expect(parseKey(key)).toEqual(expect.objectContaining({ base: expect.any(String) }));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isCanonicalKey', () => {
  it.each([
    ['Ctrl+S', true],
    ['Shift+Tab', true],
    ['Meta', true],
    ['Ctrl', true],
    ['Shift+Ctrl+S', false],
    ['Ctrl+Ctrl+S', false],
    ['ctrl+s', false],
    ['Return', false],
    ['Ctrl+Shift', false],
    ['', false],
  ])('%j: %s', (key, expected) => {
    expect(isCanonicalKey(key)).toBe(expected);
  });
});

describe('squash', () => {
  it('folds case, spaces, underscores and hyphens', () => {
    expect(['Page_Up', 'page up', 'PAGE-UP'].map(squash)).toEqual(['pageup', 'pageup', 'pageup']);
  });
});
