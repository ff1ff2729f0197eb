import fc from 'fast-check';
import { deflateSync } from 'node:zlib';
import { chunk, craft, encode, SIGNATURE } from '../../../test/support/crafted-png';
import { checkPngData } from './png-data-check';
import { decodePng } from './png-decoder';
import { checkPngStructure } from './png-structure';
import { ScreenError } from './screen-error';

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
