import fc from 'fast-check';
import {
  EXPECT_FRAME_HEADER,
  FRAME_ERRORS,
  FRAME_IGNORE_HEADER,
  FRAME_IGNORE_LIMITS,
  FRAME_PRECONDITION_CAPABILITY,
  FRAME_SHA256_HEADER,
  FrameIgnoreError,
  type FrameRect,
  formatFrameIgnore,
  isFrameError,
  isFrameSha256,
  parseFrameIgnore,
} from './frame-precondition';

const MAX = FRAME_IGNORE_LIMITS.maxValue;

const rect: fc.Arbitrary<FrameRect> = fc.record({
  x: fc.integer({ min: 0, max: MAX }),
  y: fc.integer({ min: 0, max: MAX }),
  width: fc.integer({ min: 1, max: MAX }),
  height: fc.integer({ min: 1, max: MAX }),
});
const rects = fc.array(rect, { maxLength: FRAME_IGNORE_LIMITS.maxRects });

/** Parses, and says which error if any: the only acceptable outcomes are a list or the parse error. */
function outcome(text: string): 'parsed' | 'refused' {
  try {
    parseFrameIgnore(text);
    return 'parsed';
  } catch (error) {
    if (error instanceof FrameIgnoreError) return 'refused';
    throw error;
  }
}

describe('the frame precondition names (docs/screen-host.md)', () => {
  it('are the ones both sides use', () => {
    expect(FRAME_SHA256_HEADER).toBe('X-Frame-SHA256');
    expect(EXPECT_FRAME_HEADER).toBe('X-Expect-Frame');
    expect(FRAME_IGNORE_HEADER).toBe('X-Frame-Ignore');
    expect(FRAME_PRECONDITION_CAPABILITY).toBe('frame_precondition');
    expect([...FRAME_ERRORS]).toEqual(['screen_changed', 'frame_unknown']);
    expect(isFrameError('screen_changed')).toBe(true);
    expect(isFrameError('Conflict')).toBe(false);
  });

  it.each([
    ['a'.repeat(64), true],
    ['0123456789abcdef'.repeat(4), true],
    ['A'.repeat(64), false],
    ['a'.repeat(63), false],
    ['a'.repeat(65), false],
    [` ${'a'.repeat(64)}`, false],
    ['g'.repeat(64), false],
    [null, false],
  ])('isFrameSha256(%p) is %p', (value, ok) => {
    expect(isFrameSha256(value)).toBe(ok);
  });
});

describe('formatFrameIgnore and parseFrameIgnore', () => {
  it('write and read x,y,w,h;x,y,w,h', () => {
    const value = [
      { x: 0, y: 0, width: 1, height: 1 },
      { x: 1270, y: 780, width: 10, height: 20 },
    ];
    expect(formatFrameIgnore(value)).toBe('0,0,1,1;1270,780,10,20');
    expect(parseFrameIgnore('0,0,1,1;1270,780,10,20')).toEqual(value);
    expect(formatFrameIgnore([])).toBe('');
    expect(parseFrameIgnore('')).toEqual([]);
  });

  it('parse(format(rects)) is rects (property)', () => {
    fc.assert(
      fc.property(rects, (value) => {
        expect(parseFrameIgnore(formatFrameIgnore(value))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('256 rectangles of the largest numbers fit in 8 KiB', () => {
    const most = Array.from({ length: 256 }, () => ({ x: MAX, y: MAX, width: MAX, height: MAX }));
    const text = formatFrameIgnore(most);
    expect(text.length).toBeLessThanOrEqual(FRAME_IGNORE_LIMITS.maxBytes);
    expect(parseFrameIgnore(text)).toHaveLength(256);
  });

  it.each([
    ['a trailing separator', '1,2,3,4;'],
    ['a leading separator', ';1,2,3,4'],
    ['an empty rectangle between', '1,2,3,4;;1,2,3,4'],
    ['three numbers', '1,2,3'],
    ['five numbers', '1,2,3,4,5'],
    ['a zero width', '1,2,0,4'],
    ['a zero height', '1,2,3,0'],
    ['a negative number', '-1,2,3,4'],
    ['a plus sign', '+1,2,3,4'],
    ['a leading zero', '01,2,3,4'],
    ['a fraction', '1.5,2,3,4'],
    ['an exponent', '1e3,2,3,4'],
    ['hex', '0x10,2,3,4'],
    ['a space', '1, 2,3,4'],
    ['a trailing space', '1,2,3,4 '],
    ['a newline', '1,2,3,4\n'],
    ['a number over 65535', '65536,2,3,4'],
    ['a huge number', `${'9'.repeat(40)},2,3,4`],
    ['full-width digits', '１,2,3,4'],
    ['another separator', '1,2,3,4|5,6,7,8'],
    ['JSON', '[{"x":1,"y":2,"width":3,"height":4}]'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseFrameIgnore(text)).toThrow(FrameIgnoreError);
  });

  it('refuses more than 256 rectangles and more than 8 KiB', () => {
    const many = Array.from({ length: 257 }, () => '0,0,1,1').join(';');
    expect(() => parseFrameIgnore(many)).toThrow(/at most 256/);
    const long = `1,2,3,4;${' '.repeat(9000)}`;
    expect(() => parseFrameIgnore(long)).toThrow(/at most 8192/);
  });

  it.each([
    ['a fractional x', [{ x: 1.5, y: 0, width: 1, height: 1 }]],
    ['a negative y', [{ x: 0, y: -1, width: 1, height: 1 }]],
    ['a zero width', [{ x: 0, y: 0, width: 0, height: 1 }]],
    ['NaN', [{ x: NaN, y: 0, width: 1, height: 1 }]],
    ['Infinity', [{ x: 0, y: 0, width: Infinity, height: 1 }]],
    ['a string', [{ x: '1', y: 0, width: 1, height: 1 }]],
    ['a number over 65535', [{ x: 0, y: 0, width: 65536, height: 1 }]],
    ['a missing field', [{ x: 0, y: 0, width: 1 }]],
    ['null', [null]],
    ['257 rectangles', Array.from({ length: 257 }, () => ({ x: 0, y: 0, width: 1, height: 1 }))],
  ])('will not format %s', (_name, value) => {
    expect(() => formatFrameIgnore(value as FrameRect[])).toThrow(FrameIgnoreError);
  });

  it('garbage only ever throws the parse error (property)', () => {
    const alphabet = fc.constantFrom(...'0123456789,;-+. \t\nex'.split(''));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: alphabet, maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          // A valid value with one character changed, inserted or removed.
          fc.tuple(rects, fc.nat(), fc.string({ maxLength: 2 })).map(([value, at, insert]) => {
            const text = formatFrameIgnore(value);
            const i = text.length === 0 ? 0 : at % text.length;
            return text.slice(0, i) + insert + text.slice(i + 1);
          }),
        ),
        (text) => {
          const result = outcome(text);
          if (result === 'parsed') {
            // Whatever parses is exactly a valid value again.
            expect(formatFrameIgnore(parseFrameIgnore(text))).toBe(text);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses what is not text', () => {
    expect(() => parseFrameIgnore(undefined as unknown as string)).toThrow(FrameIgnoreError);
    expect(() => parseFrameIgnore(['1,2,3,4'] as unknown as string)).toThrow(FrameIgnoreError);
    expect(() => formatFrameIgnore('1,2,3,4' as unknown as FrameRect[])).toThrow(FrameIgnoreError);
  });
});
