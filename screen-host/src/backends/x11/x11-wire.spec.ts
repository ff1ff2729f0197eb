import {
  childrenOf,
  cookieFor,
  PacketReader,
  parseDisplay,
  parseSetup,
  parseXauthority,
  windowOf,
} from './x11-wire';

describe('PacketReader', () => {
  function reply(sequence: number, extraWords: number, fill = 7): Buffer {
    const packet = Buffer.alloc(32 + extraWords * 4, fill);
    packet[0] = 1;
    packet.writeUInt16LE(sequence, 2);
    packet.writeUInt32LE(extraWords, 4);
    return packet;
  }
  function event(code: number): Buffer {
    const packet = Buffer.alloc(32);
    packet[0] = code;
    return packet;
  }

  it('splits replies, errors and events however the bytes are chunked', () => {
    const stream = Buffer.concat([
      reply(1, 0),
      event(34),
      reply(2, 1000),
      Buffer.from([0, ...Array(31).fill(1)]),
    ]);
    for (const size of [1, 7, 32, 33, 4096, stream.length]) {
      const reader = new PacketReader();
      const packets: Buffer[] = [];
      for (let at = 0; at < stream.length; at += size)
        packets.push(...reader.push(stream.subarray(at, at + size)));
      expect(packets.map((p) => [p[0], p.length])).toEqual([
        [1, 32],
        [34, 32],
        [1, 4032],
        [0, 32],
      ]);
    }
  });
});

describe('parseSetup', () => {
  it('finds the root window, its size, depth, pixel format and keycode range', () => {
    const vendor = Buffer.from('The X.Org Foundation');
    const formats = [
      [1, 1, 32],
      [24, 32, 32],
    ];
    const head = Buffer.alloc(40);
    head[0] = 1;
    head.writeUInt16LE(vendor.length, 24);
    head[28] = 1; // screens
    head[29] = formats.length;
    head[30] = 0; // LSBFirst
    head[34] = 8;
    head[35] = 255;
    const vendorPadded = Buffer.concat([vendor, Buffer.alloc((4 - (vendor.length % 4)) % 4)]);
    const formatBytes = Buffer.concat(
      formats.map(([depth, bpp, pad]) => Buffer.from([depth, bpp, pad, 0, 0, 0, 0, 0])),
    );
    const screen = Buffer.alloc(40);
    screen.writeUInt32LE(0x50d, 0);
    screen.writeUInt16LE(1280, 20);
    screen.writeUInt16LE(800, 22);
    screen[38] = 24;
    expect(parseSetup(Buffer.concat([head, vendorPadded, formatBytes, screen]))).toEqual({
      root: 0x50d,
      width: 1280,
      height: 800,
      depth: 24,
      bitsPerPixel: 32,
      imageByteOrder: 0,
      minKeycode: 8,
      maxKeycode: 255,
    });
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

describe('the windows on the screen', () => {
  it('QueryTree: the children, bottom to top', () => {
    const reply = Buffer.alloc(32 + 3 * 4);
    reply[0] = 1;
    reply.writeUInt32LE(3, 4);
    reply.writeUInt16LE(3, 16);
    [0x400001, 0x400007, 0x400347].forEach((id, i) => reply.writeUInt32LE(id, 32 + 4 * i));
    expect(childrenOf(reply)).toEqual([0x400001, 0x400007, 0x400347]);
    // A count past the reply's end reads what is there.
    reply.writeUInt16LE(9, 16);
    expect(childrenOf(reply)).toHaveLength(3);
  });

  function attributes(mapState: number, windowClass = 1): Buffer {
    const reply = Buffer.alloc(44);
    reply[0] = 1;
    reply.writeUInt16LE(windowClass, 12);
    reply[26] = mapState;
    reply[27] = 1; // override-redirect: a popup
    return reply;
  }
  function geometry(x: number, y: number, width: number, height: number, border = 0): Buffer {
    const reply = Buffer.alloc(32);
    reply[0] = 1;
    reply.writeInt16LE(x, 12);
    reply.writeInt16LE(y, 14);
    reply.writeUInt16LE(width, 16);
    reply.writeUInt16LE(height, 18);
    reply.writeUInt16LE(border, 20);
    return reply;
  }

  it('a viewable window with its place on the root window, border included', () => {
    expect(windowOf(0x400347, attributes(2), geometry(0, 25, 249, 330))).toEqual({
      id: 0x400347,
      rect: { x: 0, y: 25, width: 249, height: 330 },
    });
    expect(windowOf(7, attributes(2), geometry(-100, -100, 10, 10, 2))?.rect).toEqual({
      x: -100,
      y: -100,
      width: 14,
      height: 14,
    });
    // An InputOnly window takes the clicks on it: it is on the screen like any other.
    expect(windowOf(7, attributes(2, 2), geometry(5, 5, 1, 1))?.rect).toEqual({
      x: 5,
      y: 5,
      width: 1,
      height: 1,
    });
  });

  it('none for a window that is not viewable, or gone since it was listed', () => {
    expect(windowOf(7, attributes(0), geometry(0, 0, 10, 10))).toBeNull(); // unmapped
    expect(windowOf(7, attributes(1), geometry(0, 0, 10, 10))).toBeNull(); // unviewable
    expect(windowOf(7, null, geometry(0, 0, 10, 10))).toBeNull();
    expect(windowOf(7, attributes(2), null)).toBeNull();
  });
});
