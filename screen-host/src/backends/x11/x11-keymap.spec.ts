import { KeyboardMap, keysymForChar, planKeymap, spareKeycodes, usedBy } from './x11-keymap';

/** A small map: keycodes 10–17, two keysyms each; a/A on 10, b/B on 11, 5 on 12, the rest empty. */
function smallMap(): KeyboardMap {
  const keysyms = new Array(8 * 2).fill(0);
  keysyms.splice(0, 6, 0x61, 0x41, 0x62, 0x42, 0x35, 0x25);
  return { minKeycode: 10, maxKeycode: 17, keysymsPerKeycode: 2, keysyms };
}

function withKeysym(map: KeyboardMap, keycode: number, keysym: number): KeyboardMap {
  const keysyms = [...map.keysyms];
  keysyms[(keycode - map.minKeycode) * map.keysymsPerKeycode] = keysym;
  keysyms[(keycode - map.minKeycode) * map.keysymsPerKeycode + 1] = keysym;
  return { ...map, keysyms };
}

describe('keysymForChar', () => {
  it.each([
    ['a', 0x61],
    ['ü', 0xfc],
    ['ß', 0xdf],
    ['€', 0x10020ac],
    ['Ω', 0x10003a9],
    ['😀', 0x101f600],
  ])('%s is 0x%s', (ch, keysym) => {
    expect(keysymForChar(ch)).toBe(keysym);
  });
});

describe('planKeymap', () => {
  it('maps nothing when every character is on a first or shifted level', () => {
    expect(planKeymap(smallMap(), 'aAbB5%\n\t', new Map())).toEqual([]);
  });

  it('puts each missing character on a free spare keycode, keeping the last spare free', () => {
    expect(spareKeycodes(smallMap())).toEqual([13, 14, 15, 16, 17]);
    expect(planKeymap(smallMap(), 'aü€üß', new Map())).toEqual([
      { keycode: 13, keysym: 0xfc },
      { keycode: 14, keysym: 0x10020ac },
      { keycode: 15, keysym: 0xdf },
    ]);
  });

  it('reuses its own keycodes, least recently used first, but not one the text needs', () => {
    let map = smallMap();
    for (const [keycode, keysym] of [
      [13, 0xe4],
      [14, 0xf6],
      [15, 0xfc],
      [16, 0xdf],
    ]) {
      map = withKeysym(map, keycode, keysym);
    }
    const ours = new Map([
      [13, 0xe4],
      [14, 0xf6],
      [15, 0xfc],
      [16, 0xdf],
    ]);
    // ü is mapped already; € and Ω need keycodes: 13 (ä) and 14 (ö) are the oldest unused.
    expect(planKeymap(map, 'ü€Ω', ours)).toEqual([
      { keycode: 13, keysym: 0x10020ac },
      { keycode: 14, keysym: 0x10003a9 },
    ]);
    expect(usedBy(map, 'üa', ours)).toEqual([15]);
  });

  it('never takes a keycode someone else remapped since', () => {
    const map = withKeysym(smallMap(), 13, 0x10020ac);
    const ours = new Map([[13, 0xfc]]);
    expect(planKeymap(map, 'Ω', ours)).toEqual([{ keycode: 14, keysym: 0x10003a9 }]);
  });

  it('maps what fits when the text needs more than there is room for', () => {
    expect(planKeymap(smallMap(), 'äöüßéèê', new Map())).toHaveLength(4);
  });
});
