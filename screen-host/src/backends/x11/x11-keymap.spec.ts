import {
  cookieFor,
  KeyboardMap,
  keysymForChar,
  parseDisplay,
  parseXauthority,
  planKeymap,
  spareKeycodes,
  usedBy,
} from './x11-keymap';

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

describe('parseDisplay', () => {
  it.each([
    [':0', { path: '/tmp/.X11-unix/X0', number: '0' }],
    [':99.0', { path: '/tmp/.X11-unix/X99', number: '99' }],
    ['unix:3', { path: '/tmp/.X11-unix/X3', number: '3' }],
    ['localhost:10.0', { host: 'localhost', port: 6010, number: '10' }],
  ])('%s', (display, address) => {
    expect(parseDisplay(display)).toEqual(address);
  });

  it('refuses what is not a display name', () => {
    expect(() => parseDisplay('wayland-0')).toThrow();
  });
});

describe('Xauthority', () => {
  function entry(
    family: number,
    address: string,
    number: string,
    name: string,
    data: Buffer,
  ): Buffer {
    const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
    return Buffer.concat([
      Buffer.from([family >> 8, family & 0xff]),
      field(Buffer.from(address)),
      field(Buffer.from(number)),
      field(Buffer.from(name)),
      field(data),
    ]);
  }

  it('finds the cookie for a local display of this host', () => {
    const cookie = Buffer.from('0123456789abcdef');
    const file = Buffer.concat([
      entry(256, 'other-host', '0', 'MIT-MAGIC-COOKIE-1', Buffer.from('xxxxxxxxxxxxxxxx')),
      entry(256, 'this-host', '1', 'MIT-MAGIC-COOKIE-1', Buffer.from('yyyyyyyyyyyyyyyy')),
      entry(256, 'this-host', '0', 'MIT-MAGIC-COOKIE-1', cookie),
    ]);
    const entries = parseXauthority(file);
    expect(entries).toHaveLength(3);
    expect(cookieFor(entries, '0', 'this-host')).toEqual(cookie);
    expect(cookieFor(entries, '7', 'this-host')).toBeNull();
  });

  it('accepts a wildcard entry', () => {
    const cookie = Buffer.from('fedcba9876543210');
    expect(
      cookieFor(parseXauthority(entry(65535, '', '', 'MIT-MAGIC-COOKIE-1', cookie)), '5', 'h'),
    ).toEqual(cookie);
  });

  it('refuses a truncated file', () => {
    expect(() => parseXauthority(Buffer.from([1, 0, 0, 9, 65]))).toThrow();
  });
});
