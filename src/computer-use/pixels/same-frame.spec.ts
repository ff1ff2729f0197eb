import { sameFrame } from './same-frame';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const F = 'f'.repeat(64);
const G = '0'.repeat(64);

describe('the same frame', () => {
  it.each([
    ['equal bytes', { pngSha256: A, frameSha256: null }, { pngSha256: A, frameSha256: null }, true],
    [
      'other bytes, one frame',
      { pngSha256: A, frameSha256: F },
      { pngSha256: B, frameSha256: F },
      true,
    ],
    [
      'other bytes, other frames',
      { pngSha256: A, frameSha256: F },
      { pngSha256: B, frameSha256: G },
      false,
    ],
    [
      'other bytes, no frame hash',
      { pngSha256: A, frameSha256: null },
      { pngSha256: B, frameSha256: null },
      false,
    ],
    [
      'other bytes, one side without',
      { pngSha256: A, frameSha256: F },
      { pngSha256: B, frameSha256: null },
      false,
    ],
  ])('%s: %s', (_, a, b, same) => {
    expect(sameFrame(a, b)).toBe(same);
    expect(sameFrame(b, a)).toBe(same);
  });
});
