import fc from 'fast-check';
import { isBaseKey, MODIFIERS, parseKey, toVirtualKeys, toXdotoolKey } from './keys';

const BASES = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''),
  ...Array.from({ length: 24 }, (_, i) => `F${i + 1}`),
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Space',
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
    expect(BASES.every(isBaseKey)).toBe(true);
    expect(isBaseKey('Shift')).toBe(false);
  });
});

describe('toXdotoolKey', () => {
  it.each([
    ['Enter', 'Return'],
    ['Shift+Tab', 'shift+Tab'],
    ['Ctrl+S', 'ctrl+s'],
    ['F8', 'F8'],
    ['PageUp', 'Prior'],
    ['PageDown', 'Next'],
    ['Backspace', 'BackSpace'],
    ['ArrowLeft', 'Left'],
    ['Space', 'space'],
    ['Ctrl+Alt+Shift+Meta+A', 'ctrl+alt+shift+super+a'],
    ['5', '5'],
  ])('%s is %s', (key, expected) => {
    expect(toXdotoolKey(parsed(key))).toBe(expected);
  });
});

describe('toVirtualKeys', () => {
  it('maps modifiers first, then the base key', () => {
    expect(toVirtualKeys(parsed('Ctrl+S'))).toEqual([
      { vk: 0x11, extended: false },
      { vk: 0x53, extended: false },
    ]);
  });

  it.each([
    ['Enter', 0x0d, false],
    ['F1', 0x70, false],
    ['F24', 0x87, false],
    ['Delete', 0x2e, true],
    ['ArrowUp', 0x26, true],
    ['0', 0x30, false],
    ['Escape', 0x1b, false],
  ])('%s is VK 0x%s', (key, vk, extended) => {
    expect(toVirtualKeys(parsed(key))).toEqual([{ vk, extended }]);
  });

  it('has a virtual key for every base key', () => {
    for (const base of BASES) {
      const [key] = toVirtualKeys({ modifiers: [], base });
      expect(key.vk).toBeGreaterThan(0);
    }
  });
});
