/**
 * The frame precondition of `POST /action` (docs/rules.md, docs/screen-host.md): the headers that ask for it, the
 * frames the host served, and the comparison of the screen now with the expected frame. The
 * server runs `refusal` in its serial action queue, right before it acts.
 */
import {
  EXPECT_FRAME_HEADER,
  FRAME_IGNORE_HEADER,
  FRAME_SHA256_HEADER,
  type FrameError,
  FrameIgnoreError,
  type FrameRect,
  isFrameSha256,
  parseFrameIgnore,
} from '@warden/protocol';
import type { IncomingHttpHeaders } from 'node:http';
import type { ScreenBackend, Screenshot } from './backends/backend';
import { frameOfPng, framesMatch, FrameStore, type RawFrame } from './frames';
import { HttpError } from './http-error';

/** What `POST /action` must find on the screen before it acts. */
export interface FramePrecondition {
  /** `X-Expect-Frame`: the frame hash of the screenshot the action was judged on. */
  expect: string;
  /** `X-Frame-Ignore`: pixels left out of the comparison (frame pixels). */
  ignore: FrameRect[];
}

/** One value of a header, or undefined; a header sent twice is refused (which one would count?). */
function singleHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `${name} must be sent once`);
  return value;
}

/** The precondition of a `POST /action`, null without `X-Expect-Frame`; 400 when malformed. */
export function preconditionOf(headers: IncomingHttpHeaders): FramePrecondition | null {
  const expect = singleHeader(headers, EXPECT_FRAME_HEADER);
  const ignore = singleHeader(headers, FRAME_IGNORE_HEADER);
  if (expect === undefined) {
    if (ignore !== undefined) {
      throw new HttpError(400, `${FRAME_IGNORE_HEADER} goes with ${EXPECT_FRAME_HEADER} only`);
    }
    return null;
  }
  if (!isFrameSha256(expect)) {
    throw new HttpError(
      400,
      `${EXPECT_FRAME_HEADER} must be a frame SHA-256: 64 lower-case hex digits, as ${FRAME_SHA256_HEADER} gave it`,
    );
  }
  if (ignore === undefined) return { expect, ignore: [] };
  try {
    return { expect, ignore: parseFrameIgnore(ignore) };
  } catch (error) {
    if (error instanceof FrameIgnoreError) throw new HttpError(400, error.message);
    throw error;
  }
}

export interface FrameRefusal {
  code: FrameError;
  message: string;
}

/** The frames a host served, and the check of an action's precondition against the screen now. */
export class FrameCheck {
  private readonly frames = new FrameStore();

  constructor(private readonly backend: ScreenBackend) {}

  /**
   * The frame of a screenshot about to be served, kept for a later `X-Expect-Frame`. A backend
   * that hands over no pixels (windows) has its PNG decoded; a PNG that does not decode throws.
   */
  served(shot: Screenshot): RawFrame {
    const frame = shot.frame ?? frameOfPng(shot.png);
    this.frames.remember(frame);
    return frame;
  }

  /**
   * Why the screen does not allow the action, or null when it is the expected frame. Throws when
   * the screen cannot be captured.
   */
  async refusal(precondition: FramePrecondition): Promise<FrameRefusal | null> {
    const expected = this.frames.get(precondition.expect);
    if (!expected) {
      return {
        code: 'frame_unknown',
        message: `this screen host no longer holds the frame ${precondition.expect} (it keeps the last few it served), so it cannot compare; nothing was performed`,
      };
    }
    const now = await this.capture();
    if (framesMatch(expected, now, precondition.ignore)) return null;
    const n = precondition.ignore.length;
    const left = n === 0 ? '' : ` (leaving out ${n} rectangle${n === 1 ? '' : 's'})`;
    const how =
      now.width !== expected.width || now.height !== expected.height
        ? `is ${now.width}x${now.height} pixels, not ${expected.width}x${expected.height}`
        : `differs from the frame the action was judged on${left}`;
    return {
      code: 'screen_changed',
      message: `the screen changed: it ${how}; nothing was performed`,
    };
  }

  /** The screen now: the backend's capture, or a screenshot's frame (its PNG decoded if need be). */
  private async capture(): Promise<RawFrame> {
    if (this.backend.capture) return this.backend.capture();
    const shot = await this.backend.screenshot();
    return shot.frame ?? frameOfPng(shot.png);
  }
}
