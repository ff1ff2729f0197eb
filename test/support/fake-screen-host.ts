import { createHash } from 'node:crypto';
import type { Action, OutlineElement } from '../../src/computer-use/actions';
import type {
  ActionLookup,
  ActResult,
  ConnectionProbe,
  FrameExpectation,
  ScreenHost,
  ScreenHostHealth,
  Screenshot,
} from '../../src/computer-use/host-client/screen-host.types';
import { encode } from './crafted-png';

/** A solid `width` × `height` PNG of one grey level, as a screen host would send it. */
export function solidScreenshot(level: number, width = 64, height = 48): Screenshot {
  return dottedScreenshot(level, [], 0, width, height);
}

/**
 * `solidScreenshot` with a few pixels (`dots`, [x, y]) drawn in another grey level: a caret, a
 * clock's digit, a message that appeared.
 */
export function dottedScreenshot(
  level: number,
  dots: Array<[number, number]>,
  dotLevel = 0,
  width = 64,
  height = 48,
): Screenshot {
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([level, level, level, 255], i);
  for (const [x, y] of dots) rgba.set([dotLevel, dotLevel, dotLevel, 255], (y * width + x) * 4);
  const png = encode(width, height, rgba);
  return {
    png,
    pngSha256: createHash('sha256').update(png).digest('hex'),
    width,
    height,
    pngWidth: width,
    pngHeight: height,
    frameSha256: null,
  };
}

/** What a call of the fake answers: a value, or an error thrown. */
type Answer<T> = T | Error;

/**
 * An in-memory screen host for specs of the engine's stages: it answers the screenshots, outlines
 * and lookups a spec gives it, in order (the last one again once they run out), and records every
 * call, the actions sent above all. Nothing here decides anything: a spec says what the host says.
 */
export class FakeScreenHost implements ScreenHost {
  readonly url: string = 'https://screen-host.test';
  readonly acted: Array<{ action: Action; key: string; frame?: FrameExpectation }> = [];
  readonly looked: string[] = [];
  screenshots: Array<Answer<Screenshot>> = [solidScreenshot(200)];
  outlines: Array<Answer<OutlineElement[] | null>> = [null];
  acts: Array<Answer<ActResult>> = [{ ok: true, ms: 1, replayed: false }];
  lookups: Array<Answer<ActionLookup>> = [{ performed: false }];

  /** Forgets the calls recorded, and answers as a fresh fake does (a spec's beforeEach). */
  reset(): void {
    const fresh = new FakeScreenHost();
    this.acted.length = 0;
    this.looked.length = 0;
    this.screenshots = fresh.screenshots;
    this.outlines = fresh.outlines;
    this.acts = fresh.acts;
    this.lookups = fresh.lookups;
  }

  screenshot(): Promise<Screenshot> {
    return answer(this.screenshots);
  }

  elements(): Promise<OutlineElement[] | null> {
    return answer(this.outlines);
  }

  act(action: Action, key: string, frame?: FrameExpectation): Promise<ActResult> {
    this.acted.push({ action, key, ...(frame ? { frame } : {}) });
    return answer(this.acts);
  }

  lookupAction(key: string): Promise<ActionLookup> {
    this.looked.push(key);
    return answer(this.lookups);
  }

  health(): Promise<ScreenHostHealth | null> {
    return Promise.resolve({ capabilities: ['idempotency', 'action-lookup', 'elements'] });
  }

  probe(): Promise<ConnectionProbe> {
    return Promise.resolve({ reachable: true, tlsOk: true, verifiedBy: 'pin' });
  }
}

/** The next answer of a list (the last one stays), thrown when it is an error. */
function answer<T>(answers: Array<Answer<T>>): Promise<T> {
  const next = answers.length > 1 ? answers.shift()! : answers[0];
  return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
}
