import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckedAction } from '../../actions';
import { rawFrame, type RawFrame } from '../../frames';
import { ScreenPngEncoder } from '@warden/protocol';
import type { OutlineElement, ScreenBackend, Screenshot, TypingTarget } from '../backend';
import { withTextChunk } from './png-text-chunk';
import { SimApp } from './sim-app';
import type { SimLang } from './sim-labels';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from './sim-layout';
import { renderSim } from './sim-render';

/** How often a blinking caret toggles (test route `POST /sim/blink`). */
export const BLINK_MS = 250;
/** Encoded screens kept (about 70 KB each): enough for going back and forth and a blinking caret. */
const CACHED_STATES = 16;
/**
 * Of those, the most recently shown keep their pixels (4 MB each), which the host keeps for the
 * frame precondition; an older state shown again is drawn again. As many as the host keeps frames.
 */
const STATES_WITH_PIXELS = 4;

/** One state drawn: its PNG and its pixels. Never changed once made. */
export interface SimRender {
  png: Buffer;
  frame: RawFrame;
}

interface CachedState {
  png: Buffer;
  sha256: string;
  /** null once the state has not been shown for a while (the pixels are drawn again when needed). */
  frame: RawFrame | null;
}

/**
 * The sim as a screen host backend. Each state is rendered and PNG-encoded once, right after the
 * action that produced it, and then served from memory: a screenshot of an unchanged screen costs
 * no drawing and no encoding. The cache is keyed by the state itself, so a state reached again
 * (the same screen after Back) is not drawn again either.
 */
export class SimBackend implements ScreenBackend {
  readonly name = 'sim';
  readonly app: SimApp;
  private readonly cache = new Map<string, CachedState>();
  private readonly withPixels: CachedState[] = [];
  private caretVisible = true;
  private blinkTimer: NodeJS.Timeout | null = null;
  /**
   * While on, every screenshot is a PNG file of its own (a counter in a text chunk), the same
   * pixels: as a host whose encoder writes a time into each file (test route `POST /sim/reencode`).
   */
  reencoding = false;
  private served = 0;
  private readonly encoder = new ScreenPngEncoder();

  constructor(lang: SimLang = 'en') {
    this.app = new SimApp(lang);
    this.prerender();
  }

  size() {
    return { width: SCREEN_WIDTH, height: SCREEN_HEIGHT };
  }

  async screenshot(): Promise<Screenshot> {
    const { png, frame } = this.current();
    const bytes = this.reencoding ? withTextChunk(png, `screenshot ${++this.served}`) : png;
    return { png: bytes, width: SCREEN_WIDTH, height: SCREEN_HEIGHT, frame };
  }

  /**
   * The pixels of the screen now. Synchronous underneath: between this and the action the host
   * performs next, no request (a poke, a popup) can change the state.
   */
  async capture(): Promise<RawFrame> {
    return this.current().frame;
  }

  /** The PNG of the current state, from the cache when this state was shown before. */
  async png(): Promise<Buffer> {
    return this.current().png;
  }

  /** What identifies the picture: the state and the caret's blink. Equal keys, equal pixels. */
  protected renderKey(): string {
    return `${this.app.stateKey()}:${this.caretVisible ? 1 : 0}`;
  }

  /** Draws and encodes the current state (a few ms): what the cache spares. */
  protected draw(): SimRender {
    const rgba = renderSim(this.app, this.caretVisible).data();
    // The canvas is opaque (the first fill covers the screen with an opaque colour), so these
    // RGBA bytes are exactly what the RGB PNG decodes to.
    return {
      png: this.encoder.encode(rgba, SCREEN_WIDTH, SCREEN_HEIGHT),
      frame: rawFrame(SCREEN_WIDTH, SCREEN_HEIGHT, rgba),
    };
  }

  private current(): SimRender {
    const key = this.renderKey();
    let state = this.cache.get(key);
    if (state) {
      // Most recently used last, so that eviction drops the state shown longest ago.
      this.cache.delete(key);
    } else {
      const drawn = this.draw();
      state = { png: drawn.png, sha256: drawn.frame.sha256, frame: drawn.frame };
    }
    this.cache.set(key, state);
    while (this.cache.size > CACHED_STATES) {
      const oldest = this.cache.keys().next().value!;
      this.cache.get(oldest)!.frame = null;
      this.cache.delete(oldest);
    }
    if (state.frame === null) {
      const drawn = this.draw();
      // The sim is deterministic; should a drawing ever differ, the PNG follows the pixels.
      if (drawn.frame.sha256 !== state.sha256) {
        state.png = drawn.png;
        state.sha256 = drawn.frame.sha256;
      }
      state.frame = drawn.frame;
    }
    const at = this.withPixels.indexOf(state);
    if (at >= 0) this.withPixels.splice(at, 1);
    this.withPixels.push(state);
    while (this.withPixels.length > STATES_WITH_PIXELS) this.withPixels.shift()!.frame = null;
    return { png: state.png, frame: state.frame };
  }

  /**
   * Test route `POST /sim/fail-next`: the next action fails, before it reaches the screen or after
   * (a host that tried and failed half-way), as the host then answers 500, `delayMs` later.
   */
  failNext: { when: 'before' | 'after'; delayMs: number } | null = null;

  async perform(action: CheckedAction): Promise<void> {
    const fail = this.failNext;
    this.failNext = null;
    if (fail?.when === 'before') {
      await sleep(fail.delayMs);
      throw new Error('the sim was told to fail this action before acting');
    }
    this.app.perform(action);
    this.prerender();
    if (fail?.when === 'after') {
      await sleep(fail.delayMs);
      throw new Error('the sim was told to fail this action after acting');
    }
  }

  elements(): OutlineElement[] {
    return this.app.outline();
  }

  typingTarget(): TypingTarget {
    return this.app.typingTarget();
  }

  /** Changes a field as someone else would (test route `POST /sim/prefill`). */
  prefill(field: string, value: string): void {
    this.app.prefill(field, value);
    this.prerender();
  }

  poke(message: string, faint = false): void {
    this.app.poke(message, faint);
    this.prerender();
  }

  /** Opens a modal confirm dialog over the screen (test route `POST /sim/popup`). */
  popup(popup: { title: string; message: string; buttons: string[] }): void {
    this.app.openPopup(popup);
    this.prerender();
  }

  reset(): void {
    this.setBlink(false);
    this.failNext = null;
    this.reencoding = false;
    this.app.reset();
    this.prerender();
  }

  get blinking(): boolean {
    return this.blinkTimer !== null;
  }

  /** While on, the focused field's caret toggles every BLINK_MS, as on a real desktop. */
  setBlink(on: boolean): void {
    if (on && !this.blinkTimer) {
      this.blinkTimer = setInterval(() => {
        this.caretVisible = !this.caretVisible;
      }, BLINK_MS);
      this.blinkTimer.unref();
    } else if (!on && this.blinkTimer) {
      clearInterval(this.blinkTimer);
      this.blinkTimer = null;
      this.caretVisible = true;
    }
  }

  async close(): Promise<void> {
    this.setBlink(false);
  }

  /** Renders the new state after the current request is answered, before the next screenshot asks. */
  private prerender(): void {
    setImmediate(() => {
      try {
        this.current();
      } catch {
        // A screenshot that asks will draw it again and say what failed.
      }
    });
  }
}
