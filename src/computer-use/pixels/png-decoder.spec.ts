import fc from 'fast-check';
import { PNG } from 'pngjs';
import { chunk, craft, encode, image, rows } from '../../../test/support/crafted-png';
import { decodePng, visitPngRows } from './png-decoder';
import { MAX_DECODED_BYTES, readPngHeader } from './png-structure';
import { ScreenError } from './screen-error';

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
