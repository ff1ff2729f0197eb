/**
 * The frame precondition of docs/rules.md, docs/screen-host.md: a screenshot answer names its frame
 * (`X-Frame-SHA256`, the frame hash of frame-hash.ts), and `POST /action` may say which frame the
 * action was judged on (`X-Expect-Frame`) and which pixels to leave out of the comparison
 * (`X-Frame-Ignore`). The host compares and acts atomically, or refuses with 409 and one of the
 * error codes below. A host announces that it does this with the capability `frame_precondition`
 * in `GET /health`.
 *
 * `X-Frame-Ignore` is `x,y,w,h;x,y,w,h…`: rectangles in the frame's PIXEL coordinates (the PNG's
 * own pixels, which on a HiDPI screen are not the coordinate space of actions). Each number is a
 * decimal integer without sign, leading zeros or spaces; `w` and `h` are at least 1; at most 256
 * rectangles and 8 KiB. Anything else is malformed, and a malformed header is refused, never read
 * as "ignore nothing" or "ignore what parsed".
 */

/** On every `GET /screenshot` answer of a host with the capability: the frame hash, lower-case hex. */
export const FRAME_SHA256_HEADER = 'X-Frame-SHA256';
/** On `POST /action`: act only if the screen is still this frame (its `X-Frame-SHA256`). */
export const EXPECT_FRAME_HEADER = 'X-Expect-Frame';
/** On `POST /action`, with `X-Expect-Frame`: pixels left out of the comparison. */
export const FRAME_IGNORE_HEADER = 'X-Frame-Ignore';

/** In `GET /health` capabilities: the host checks `X-Expect-Frame` atomically with acting. */
export const FRAME_PRECONDITION_CAPABILITY = 'frame_precondition';

/**
 * The `error` of a 409 answer to `POST /action` whose precondition failed. Nothing was performed,
 * and nothing was stored under the Idempotency-Key: the key may act later, on a matching frame.
 * - `screen_changed`: the screen now is not the expected frame (outside the ignored rectangles;
 *   a different size is a change).
 * - `frame_unknown`: the host no longer holds the expected frame (it keeps only the last few it
 *   served), so it cannot compare; Warden compares a fresh screenshot itself.
 */
export const FRAME_ERRORS = ['screen_changed', 'frame_unknown'] as const;
export type FrameError = (typeof FRAME_ERRORS)[number];

export function isFrameError(value: unknown): value is FrameError {
  return (FRAME_ERRORS as readonly unknown[]).includes(value);
}

/** A frame hash as the headers carry it: 64 lower-case hex digits. */
export const FRAME_SHA256_PATTERN = /^[0-9a-f]{64}$/;

export function isFrameSha256(value: unknown): value is string {
  return typeof value === 'string' && FRAME_SHA256_PATTERN.test(value);
}

/** A rectangle of a frame's pixels: columns `x` to `x + width - 1`, rows `y` to `y + height - 1`. */
export interface FrameRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const FRAME_IGNORE_LIMITS = Object.freeze({
  /** Rectangles in one header. */
  maxRects: 256,
  /** The header's length in bytes (it is ASCII). */
  maxBytes: 8 * 1024,
  /**
   * The largest number in a rectangle: no screen is wider or taller (X11 and the PNG-side checks
   * stop at 65535 too), and it keeps every sum of two numbers a safe integer.
   */
  maxValue: 65_535,
});

/** Why an `X-Frame-Ignore` value (or the rectangles to format as one) is not acceptable. */
export class FrameIgnoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameIgnoreError';
  }
}

const NUMBER = /^(0|[1-9][0-9]{0,4})$/;
const FIELDS = ['x', 'y', 'width', 'height'] as const;

function checkRect(rect: FrameRect, n: number): void {
  if (typeof rect !== 'object' || rect === null) {
    throw new FrameIgnoreError(`rectangle ${n} is not an object`);
  }
  for (const field of FIELDS) {
    const value = rect[field];
    const min = field === 'width' || field === 'height' ? 1 : 0;
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value < min ||
      value > FRAME_IGNORE_LIMITS.maxValue
    ) {
      throw new FrameIgnoreError(
        `rectangle ${n}: ${field} must be an integer from ${min} to ${FRAME_IGNORE_LIMITS.maxValue}, not ${String(value)}`,
      );
    }
  }
}

/**
 * The `X-Frame-Ignore` value for these rectangles (frame pixels), in their order. No rectangles
 * give the empty string: send no header then. Throws a FrameIgnoreError for a rectangle that is not
 * whole non-negative numbers with a size of at least 1x1, or for more than 256 rectangles.
 */
export function formatFrameIgnore(rects: readonly FrameRect[]): string {
  const list: unknown = rects;
  if (!Array.isArray(list)) throw new FrameIgnoreError('the rectangles must be a list');
  if (rects.length > FRAME_IGNORE_LIMITS.maxRects) {
    throw new FrameIgnoreError(
      `${rects.length} rectangles; at most ${FRAME_IGNORE_LIMITS.maxRects} are sent`,
    );
  }
  rects.forEach(checkRect);
  // 256 rectangles of four 5-digit numbers are 6 KiB: within the 8 KiB by construction.
  return rects.map((r) => `${r.x},${r.y},${r.width},${r.height}`).join(';');
}

/**
 * The rectangles of an `X-Frame-Ignore` value. The empty string is no rectangles. Throws a
 * FrameIgnoreError, and nothing else, for any value that is not exactly the format above.
 */
export function parseFrameIgnore(text: string): FrameRect[] {
  if (typeof text !== 'string') throw new FrameIgnoreError('X-Frame-Ignore must be text');
  if (text.length > FRAME_IGNORE_LIMITS.maxBytes) {
    throw new FrameIgnoreError(
      `X-Frame-Ignore is ${text.length} characters long; at most ${FRAME_IGNORE_LIMITS.maxBytes}`,
    );
  }
  if (text === '') return [];
  const parts = text.split(';');
  if (parts.length > FRAME_IGNORE_LIMITS.maxRects) {
    throw new FrameIgnoreError(
      `X-Frame-Ignore has ${parts.length} rectangles; at most ${FRAME_IGNORE_LIMITS.maxRects}`,
    );
  }
  return parts.map((part, n) => {
    const numbers = part.split(',');
    if (numbers.length !== 4 || !numbers.every((v) => NUMBER.test(v))) {
      throw new FrameIgnoreError(
        `X-Frame-Ignore rectangle ${n} is not x,y,w,h in whole pixels: ${JSON.stringify(part.slice(0, 40))}`,
      );
    }
    const [x, y, width, height] = numbers.map(Number);
    const rect = { x, y, width, height };
    try {
      checkRect(rect, n);
    } catch (error) {
      throw new FrameIgnoreError(`X-Frame-Ignore ${(error as Error).message}`);
    }
    return rect;
  });
}
