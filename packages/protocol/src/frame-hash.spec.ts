import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { frameHeader, frameSha256, startFrameHash } from './frame-hash';

/** The definition of docs/screen-host.md written out by hand: DataView for the header, one SHA-256 call. */
function independent(width: number, height: number, rgba: Uint8Array): string {
  const bytes = new Uint8Array(8 + rgba.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, width, false);
  view.setUint32(4, height, false);
  bytes.set(rgba, 8);
  return createHash('sha256').update(bytes).digest('hex');
}

const frame = fc
  .record({ width: fc.integer({ min: 0, max: 24 }), height: fc.integer({ min: 0, max: 24 }) })
  .chain(({ width, height }) =>
    fc
      .uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 })
      .map((rgba) => ({ width, height, rgba })),
  );

describe('frameSha256', () => {
  // Computed outside Node: printf '\x00\x00\x00\x02\x00\x00\x00\x01\xff\x00\x00\xff\xff\x00\x00\xff' | sha256sum
  it('is SHA-256 over width and height (two big-endian uint32) and then the RGBA bytes', () => {
    const red = Buffer.from([255, 0, 0, 255, 255, 0, 0, 255]);
    expect(frameSha256(2, 1, red)).toBe(
      '1c0ed605166813aaa2db284973af5b6fceddc62946ff0e04149757f53d25b172',
    );
    // The same bytes in another shape are another frame.
    expect(frameSha256(1, 2, red)).toBe(
      '17dda61b04c0ac7219bc91a83f57c05c8af0fa5dc08b9cefb4ba05af715d4c87',
    );
    expect(frameSha256(0, 0, new Uint8Array(0))).toBe(
      'af5570f5a1810b7af78caf4bc70a660f0df51e42baf91d4de5b2328de0e83dfc',
    );
  });

  it('agrees with an independent computation (property)', () => {
    fc.assert(
      fc.property(frame, ({ width, height, rgba }) => {
        expect(frameSha256(width, height, rgba)).toBe(independent(width, height, rgba));
      }),
      { numRuns: 300 },
    );
  });

  it('is the same hash fed a band of rows at a time (property)', () => {
    fc.assert(
      fc.property(frame, fc.integer({ min: 1, max: 30 }), ({ width, height, rgba }, band) => {
        const hash = startFrameHash(width, height);
        const rowBytes = width * 4;
        for (let y = 0; y < height; y += band) {
          hash.update(rgba.subarray(y * rowBytes, Math.min(height, y + band) * rowBytes));
        }
        expect(hash.digest('hex')).toBe(frameSha256(width, height, rgba));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses RGBA bytes that do not fill the frame', () => {
    expect(() => frameSha256(2, 2, new Uint8Array(15))).toThrow(RangeError);
    expect(() => frameSha256(2, 2, new Uint8Array(17))).toThrow(RangeError);
  });
});

describe('frameHeader', () => {
  it('is width and height as two big-endian uint32', () => {
    expect([...frameHeader(0x01020304, 0xfffffffe)]).toEqual([1, 2, 3, 4, 255, 255, 255, 254]);
  });

  it.each([
    [-1, 1],
    [1, 1.5],
    [2 ** 32, 1],
    [NaN, 1],
  ])('refuses the size %p x %p', (width, height) => {
    expect(() => frameHeader(width, height)).toThrow(RangeError);
  });
});
