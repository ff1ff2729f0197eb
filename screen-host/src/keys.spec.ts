import { BASE_KEYS, parseKey } from '@warden/protocol';
import { toVirtualKeys, toXdotoolKey } from './keys';

function parsed(key: string) {
  const result = parseKey(key);
  if ('error' in result) throw new Error(result.error);
  return result;
}

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
    for (const base of BASE_KEYS) {
      const [key] = toVirtualKeys({ modifiers: [], base });
      expect(key.vk).toBeGreaterThan(0);
    }
  });
});
