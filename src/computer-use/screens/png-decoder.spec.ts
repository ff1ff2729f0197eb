import fc from 'fast-check';
import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import {
  checkPngData,
  checkPngStructure,
  decodePng,
  MAX_DECODED_BYTES,
  readPngHeader,
  visitPngRows,
} from './png-decoder';
import { ScreenError } from './screen-error';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

interface Crafted {
  width: number;
  height: number;
  colorType: number;
  bitDepth: number;
  interlace?: 0 | 1;
  /** The inflated scanlines, filter bytes included. */
  raw: Buffer;
  before?: Buffer[];
}

/** A PNG built by hand, for the cases pngjs cannot write (palette, 16-bit, interlaced, damage). */
function craft(c: Crafted): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(c.width, 0);
  ihdr.writeUInt32BE(c.height, 4);
  ihdr[8] = c.bitDepth;
  ihdr[9] = c.colorType;
  ihdr[12] = c.interlace ?? 0;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    ...(c.before ?? []),
    chunk('IDAT', deflateSync(c.raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Scanlines with filter byte 0 from per-row sample bytes. */
function rows(lines: number[][]): Buffer {
  return Buffer.concat(lines.map((line) => Buffer.from([0, ...line])));
}

function encode(width: number, height: number, rgba: Buffer, options: object = {}): Buffer {
  const png = new PNG({ width, height });
  rgba.copy(png.data);
  return PNG.sync.write(png, { ...options });
}

const image = fc
  .record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 24 }) })
  .chain(({ width, height }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      rgba: fc.uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 }),
      opaque: fc.boolean(),
    }),
  )
  .map(({ width, height, rgba, opaque }) => {
    const data = Buffer.from(rgba);
    if (opaque) for (let i = 3; i < data.length; i += 4) data[i] = 255;
    return { width, height, rgba: data, opaque };
  });

describe('decodePng', () => {
  it('decodes 8-bit RGB and RGBA exactly as pngjs does, whatever the filter and compression', () => {
    fc.assert(
      fc.property(
        image,
        fc.constantFrom(-1, 0, 1, 2, 3, 4),
        fc.integer({ min: 0, max: 9 }),
        (img, filterType, deflateLevel) => {
          const colorType = img.opaque ? 2 : 6;
          const png = encode(img.width, img.height, img.rgba, {
            colorType,
            filterType,
            deflateLevel,
          });
          const decoded = decodePng(png);
          expect(decoded.width).toBe(img.width);
          expect(decoded.height).toBe(img.height);
          expect(decoded.rgba.equals(img.rgba)).toBe(true);
          expect(decoded.rgba.equals(PNG.sync.read(png).data)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('decodes screens whose rows repeat (flat backgrounds, copied natively) exactly as pngjs does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.nat(2), { minLength: 2, maxLength: 30 }),
        fc.array(fc.uint8Array({ minLength: 120, maxLength: 120 }), { minLength: 3, maxLength: 3 }),
        fc.boolean(),
        fc.constantFrom(-1, 2),
        (width, pattern, lines, opaque, filterType) => {
          const height = pattern.length;
          const rgba = Buffer.alloc(width * height * 4);
          pattern.forEach((which, y) =>
            Buffer.from(lines[which]).copy(rgba, y * width * 4, 0, width * 4),
          );
          if (opaque) for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
          const png = encode(width, height, rgba, { colorType: opaque ? 2 : 6, filterType });
          expect(decodePng(png).rgba.equals(PNG.sync.read(png).data)).toBe(true);
          expect(decodePng(png).rgba.equals(rgba)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('decodes grey, grey with alpha, palette, 16-bit, transparency and interlaced PNGs through pngjs', () => {
    // 2x2 grey.
    expect(
      decodePng(
        craft({
          width: 2,
          height: 2,
          colorType: 0,
          bitDepth: 8,
          raw: rows([
            [0, 255],
            [128, 7],
          ]),
        }),
      ).rgba,
    ).toEqual(Buffer.from([0, 0, 0, 255, 255, 255, 255, 255, 128, 128, 128, 255, 7, 7, 7, 255]));
    // Palette of two colours, 1 bit per pixel.
    const plte = chunk('PLTE', Buffer.from([255, 0, 0, 0, 0, 255]));
    const palette = decodePng(
      craft({
        width: 3,
        height: 1,
        colorType: 3,
        bitDepth: 1,
        raw: rows([[0b01000000]]),
        before: [plte],
      }),
    );
    expect(palette.rgba).toEqual(Buffer.from([255, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0, 255]));
    // 16-bit RGBA: each sample v stored as v * 257.
    const samples = [10, 20, 30, 255, 200, 100, 0, 128];
    const wide = samples.flatMap((v) => [(v * 257) >> 8, (v * 257) & 255]);
    expect(
      decodePng(craft({ width: 2, height: 1, colorType: 6, bitDepth: 16, raw: rows([wide]) })).rgba,
    ).toEqual(Buffer.from(samples));
    // RGB with a transparent colour (tRNS): pngjs makes that colour transparent black.
    const trns = chunk('tRNS', Buffer.from([0, 1, 0, 2, 0, 3]));
    expect(
      decodePng(
        craft({
          width: 2,
          height: 1,
          colorType: 2,
          bitDepth: 8,
          raw: rows([[1, 2, 3, 4, 5, 6]]),
          before: [trns],
        }),
      ).rgba,
    ).toEqual(Buffer.from([0, 0, 0, 0, 4, 5, 6, 255]));
  });

  it('decodes an interlaced (Adam7) PNG', () => {
    const width = 5;
    const height = 3;
    const grey = (x: number, y: number) => (x * 40 + y * 7) & 255;
    const passes = [
      [0, 0, 8, 8],
      [4, 0, 8, 8],
      [0, 4, 4, 8],
      [2, 0, 4, 4],
      [0, 2, 2, 4],
      [1, 0, 2, 2],
      [0, 1, 1, 2],
    ];
    const lines: number[][] = [];
    for (const [x0, y0, dx, dy] of passes) {
      for (let y = y0; y < height; y += dy) {
        const line: number[] = [];
        for (let x = x0; x < width; x += dx) line.push(grey(x, y));
        if (line.length > 0) lines.push(line);
      }
    }
    const decoded = decodePng(
      craft({ width, height, colorType: 0, bitDepth: 8, interlace: 1, raw: rows(lines) }),
    );
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) expect(decoded.rgba[(y * width + x) * 4]).toBe(grey(x, y));
    }
  });

  it('refuses what is not a PNG, with a message a person can read', () => {
    expect(() => decodePng(Buffer.alloc(0))).toThrow(new ScreenError('the screenshot is empty'));
    expect(() => decodePng(Buffer.from('<html>502 Bad Gateway</html>'))).toThrow(
      /not a PNG \(its first bytes are not the PNG signature\)/,
    );
    expect(() =>
      decodePng(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])),
    ).toThrow(ScreenError);
  });

  it('refuses every cut-off PNG, at any length', () => {
    const png = encode(7, 5, Buffer.alloc(7 * 5 * 4, 99), { colorType: 6 });
    for (let length = 0; length < png.length; length++) {
      expect(() => decodePng(png.subarray(0, length))).toThrow(ScreenError);
    }
    expect(() => decodePng(png.subarray(0, png.length - 12))).toThrow(
      /cut off after \d+ bytes \(its end marker, IEND, is missing\)/,
    );
  });

  it('refuses images larger than 8192 on a side or 64 MiB decoded, before decoding them', () => {
    const header = (width: number, height: number) =>
      craft({ width, height, colorType: 6, bitDepth: 8, raw: Buffer.alloc(1) });
    expect(() => decodePng(header(8193, 10))).toThrow(
      'the PNG is 8193x10; at most 8192x8192 is accepted',
    );
    expect(() => decodePng(header(8192, 8192))).toThrow(
      /8192x8192, 256.0 MiB decoded; at most 64.0 MiB/,
    );
    expect(() => readPngHeader(header(4096, 4096))).not.toThrow();
    expect(4096 * 4096 * 4).toBe(MAX_DECODED_BYTES);
  });

  it('refuses a small file that would inflate far beyond its size (a decompression bomb)', () => {
    const bomb = craft({
      width: 10,
      height: 10,
      colorType: 6,
      bitDepth: 8,
      raw: Buffer.alloc(16 * 1024 * 1024),
    });
    expect(bomb.length).toBeLessThan(32 * 1024);
    const started = Date.now();
    expect(() => decodePng(bomb)).toThrow(/more pixel data than its size allows/);
    expect(Date.now() - started).toBeLessThan(5000);
    const interlacedBomb = craft({
      width: 10,
      height: 10,
      colorType: 0,
      bitDepth: 8,
      interlace: 1,
      raw: Buffer.alloc(16 * 1024 * 1024),
    });
    expect(() => decodePng(interlacedBomb)).toThrow(/more pixel data than its size allows/);
  });

  it('refuses damage: a bad CRC, an unknown filter, short pixel data, an invalid colour type', () => {
    const png = Buffer.from(encode(4, 4, Buffer.alloc(64, 1), { colorType: 6 }));
    png[png.length - 20] ^= 0xff; // inside the IDAT chunk's data
    expect(() => decodePng(png)).toThrow(
      'the PNG is damaged: its "IDAT" chunk fails its CRC check',
    );
    png[png.length - 20] ^= 0xff;
    png[14] ^= 0xff; // the header's type
    expect(() => decodePng(png)).toThrow('the PNG does not start with an IHDR header chunk');
    expect(() =>
      decodePng(
        craft({ width: 1, height: 1, colorType: 2, bitDepth: 8, raw: Buffer.from([9, 1, 2, 3]) }),
      ),
    ).toThrow('the PNG is damaged: row 0 has an unknown filter type 9');
    expect(() =>
      decodePng(
        craft({ width: 2, height: 2, colorType: 2, bitDepth: 8, raw: Buffer.from([0, 1, 2, 3]) }),
      ),
    ).toThrow(/pixel data is 4 bytes, 14 expected/);
    expect(() =>
      decodePng(
        craft({ width: 1, height: 1, colorType: 2, bitDepth: 4, raw: Buffer.from([0, 1]) }),
      ),
    ).toThrow('the PNG has an invalid colour type 2 with bit depth 4');
    expect(() =>
      decodePng(craft({ width: 0, height: 1, colorType: 2, bitDepth: 8, raw: Buffer.from([0]) })),
    ).toThrow(/no pixels/);
  });

  it('throws nothing but ScreenError for damaged input (fuzzing)', () => {
    const good = encode(6, 4, Buffer.alloc(96, 200), { colorType: 6 });
    const only = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        if (!(error instanceof ScreenError)) throw error;
      }
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) =>
        only(() => decodePng(Buffer.from(bytes))),
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ at: fc.nat(good.length - 1), value: fc.integer({ min: 0, max: 255 }) }),
          { maxLength: 6 },
        ),
        (edits) => {
          const png = Buffer.from(good);
          for (const { at, value } of edits) png[at] = value;
          only(() => decodePng(png));
        },
      ),
      { numRuns: 1000 },
    );
    // Well-formed chunks around arbitrary scanline bytes: reaches the filters and the fallback.
    fc.assert(
      fc.property(
        fc.constantFrom(0, 2, 3, 4, 6),
        fc.constantFrom(1, 2, 4, 8, 16),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(0 as const, 1 as const),
        fc.uint8Array({ maxLength: 400 }),
        (colorType, bitDepth, width, height, interlace, raw) =>
          only(() =>
            decodePng(
              craft({ width, height, colorType, bitDepth, interlace, raw: Buffer.from(raw) }),
            ),
          ),
      ),
      { numRuns: 1000 },
    );
  });
});

describe('visitPngRows', () => {
  /** Everything a visit handed over, in order, with the size of each band. */
  function visitAll(png: Buffer): { rgba: Buffer; bands: number[]; size: number[] } {
    const parts: Buffer[] = [];
    const sizes: number[][] = [];
    const got = visitPngRows(png, (rgba, width, height) => {
      parts.push(Buffer.from(rgba)); // the visitor's buffer is reused: copy
      sizes.push([width, height]);
    });
    for (const size of sizes) expect(size).toEqual([got.width, got.height]);
    return {
      rgba: Buffer.concat(parts),
      bands: parts.map((p) => p.length),
      size: [got.width, got.height],
    };
  }

  it('hands over exactly the pixels decodePng gives, a band of rows at a time, across band edges', () => {
    // 4096 pixels wide: a band is 16 rows, so 40 rows make three bands. Rows are random bytes
    // under every filter, or copies of the row above (an Up row of zeros), also at a band's start.
    const width = 4096;
    fc.assert(
      fc.property(
        fc.constantFrom(2, 6),
        fc.array(fc.constantFrom(0, 1, 2, 3, 4, 'same' as const), { minLength: 17, maxLength: 40 }),
        fc.boolean(),
        fc.integer(),
        (colorType, drawn, sameAtEdges, seed) => {
          // A band's first row that copies the row above is the case to get right: force it.
          const filters = sameAtEdges
            ? drawn.map((f, y) => (y > 0 && y % 16 === 0 ? ('same' as const) : f))
            : drawn;
          const stride = width * (colorType === 6 ? 4 : 3);
          let state = seed >>> 0;
          const raw = Buffer.concat(
            filters.map((f) => {
              const row = Buffer.alloc(stride + 1);
              row[0] = f === 'same' ? 2 : f;
              if (f !== 'same') {
                for (let i = 1; i <= stride; i++) {
                  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
                  row[i] = state >>> 24;
                }
              }
              return row;
            }),
          );
          const png = craft({ width, height: filters.length, colorType, bitDepth: 8, raw });
          const visited = visitAll(png);
          expect(visited.size).toEqual([width, filters.length]);
          expect(visited.rgba.equals(decodePng(png).rgba)).toBe(true);
          expect(visited.rgba.equals(PNG.sync.read(png).data)).toBe(true);
          for (const band of visited.bands.slice(0, -1)) expect(band).toBe(16 * width * 4);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('hands a PNG off the fast path (grey) over in one piece, and refuses damage as decodePng does', () => {
    const grey = craft({ width: 2, height: 1, colorType: 0, bitDepth: 8, raw: rows([[0, 255]]) });
    expect(visitAll(grey)).toEqual({
      rgba: Buffer.from([0, 0, 0, 255, 255, 255, 255, 255]),
      bands: [8],
      size: [2, 1],
    });
    const cut = grey.subarray(0, grey.length - 5);
    expect(() => visitPngRows(cut, () => undefined)).toThrow(ScreenError);
    expect(() => decodePng(cut)).toThrow(ScreenError);
  });
});

describe('checkPngData', () => {
  const refused = async (f: () => Promise<unknown>) => {
    try {
      await f();
      return false;
    } catch (error) {
      if (!(error instanceof ScreenError)) throw error;
      return true;
    }
  };
  const decodeRefused = (png: Buffer) => refused(async () => decodePng(png));

  it('answers the header of a PNG that decodes', async () => {
    const png = encode(7, 5, Buffer.alloc(7 * 5 * 4, 99), { colorType: 6 });
    await expect(checkPngData(png)).resolves.toMatchObject({ width: 7, height: 5 });
  });

  it('refuses damaged pixel data under a correct CRC, which only inflating shows', async () => {
    const raw = Buffer.alloc(64 * (64 * 3 + 1));
    for (let i = 0; i < raw.length; i++) raw[i] = i % (64 * 3 + 1) === 0 ? 1 : (i * 7) & 0xff;
    const good = craft({ width: 64, height: 64, colorType: 2, bitDepth: 8, raw });
    await expect(checkPngData(good)).resolves.toMatchObject({ width: 64 });
    const idat = deflateSync(raw);
    for (let i = 40; i < 56; i++) idat[i] ^= 0x5a;
    const damaged = Buffer.concat([
      SIGNATURE,
      good.subarray(8, 33),
      chunk('IDAT', idat),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(() => decodePng(damaged)).toThrow(ScreenError);
    await expect(checkPngData(damaged)).rejects.toThrow(/damaged/);
    // The structure alone cannot show it: every chunk and CRC is sound.
    expect(checkPngStructure(damaged)).toMatchObject({ width: 64, height: 64 });
    // What the structure does show, it refuses as decodePng does.
    const flipped = Buffer.from(damaged);
    flipped[60] ^= 1; // inside the IDAT data
    expect(() => checkPngStructure(flipped)).toThrow(
      'the PNG is damaged: its "IDAT" chunk fails its CRC check',
    );
    expect(() => checkPngStructure(damaged.subarray(0, damaged.length - 12))).toThrow(/cut off/);
    expect(() =>
      checkPngStructure(
        Buffer.concat([SIGNATURE, good.subarray(8, 33), chunk('IEND', Buffer.alloc(0))]),
      ),
    ).toThrow('the PNG has no pixel data (no IDAT chunk)');
  });

  it('refuses an unknown filter in any row, a chunk boundary of the check included', async () => {
    const width = 1000; // rows of 3001 bytes: filter bytes fall on both sides of 256 KiB chunks
    const height = 200;
    const stride = width * 3 + 1;
    for (const row of [0, 87, 88, 199]) {
      const raw = Buffer.alloc(stride * height);
      raw[row * stride] = 9;
      const png = craft({ width, height, colorType: 2, bitDepth: 8, raw });
      await expect(checkPngData(png)).rejects.toThrow(`row ${row} has an unknown filter`);
    }
  });

  it('refuses a small file that would inflate far beyond its size, without inflating it all', async () => {
    const bomb = craft({
      width: 10,
      height: 10,
      colorType: 6,
      bitDepth: 8,
      raw: Buffer.alloc(16 * 1024 * 1024),
    });
    await expect(checkPngData(bomb)).rejects.toThrow(/more pixel data than its size allows/);
  });

  it('refuses exactly what decodePng refuses, on the fast path (fuzzing)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(2, 6),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.uint8Array({ maxLength: 400 }),
        async (colorType, width, height, raw) => {
          const png = craft({ width, height, colorType, bitDepth: 8, raw: Buffer.from(raw) });
          expect(await refused(() => checkPngData(png))).toBe(await decodeRefused(png));
        },
      ),
      { numRuns: 500 },
    );
    const good = encode(6, 4, Buffer.alloc(96, 200), { colorType: 6 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ at: fc.nat(good.length - 1), value: fc.integer({ min: 0, max: 255 }) }),
          { maxLength: 6 },
        ),
        async (edits) => {
          const png = Buffer.from(good);
          for (const { at, value } of edits) png[at] = value;
          expect(await refused(() => checkPngData(png))).toBe(await decodeRefused(png));
        },
      ),
      { numRuns: 500 },
    );
  });
});
