import type { CheckedAction } from '../../actions';
import type { OutlineElement, ScreenBackend, Screenshot, TypingTarget } from '../backend';
import { SimApp } from './sim-app';
import type { SimLang } from './sim-labels';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from './sim-layout';
import { renderSim } from './sim-render';
import { ScreenPngEncoder } from '../../png';

/** How often a blinking caret toggles (test route `POST /sim/blink`). */
export const BLINK_MS = 250;
/** Encoded screens kept (about 70 KB each): enough for going back and forth and a blinking caret. */
const CACHED_STATES = 16;

/**
 * The sim as a screen host backend. Each state is rendered and PNG-encoded once, right after the
 * action that produced it, and then served from memory: a screenshot of an unchanged screen costs
 * no drawing and no encoding. The cache is keyed by the state itself, so a state reached again
 * (the same screen after Back) is not drawn again either.
 */
export class SimBackend implements ScreenBackend {
  readonly name = 'sim';
  readonly app: SimApp;
  private readonly cache = new Map<string, Promise<Buffer>>();
  private caretVisible = true;
  private blinkTimer: NodeJS.Timeout | null = null;
  private readonly encoder = new ScreenPngEncoder();

  constructor(lang: SimLang = 'en') {
    this.app = new SimApp(lang);
    this.prerender();
  }

  size() {
    return { width: SCREEN_WIDTH, height: SCREEN_HEIGHT };
  }

  async screenshot(): Promise<Screenshot> {
    return { png: await this.png(), width: SCREEN_WIDTH, height: SCREEN_HEIGHT };
  }

  /** The PNG of the current state, from the cache when this state was shown before. */
  png(): Promise<Buffer> {
    const key = `${this.app.stateKey()}:${this.caretVisible ? 1 : 0}`;
    let png = this.cache.get(key);
    if (png) {
      // Most recently used last, so that eviction drops the state shown longest ago.
      this.cache.delete(key);
    } else {
      const canvas = renderSim(this.app, this.caretVisible);
      png = Promise.resolve(this.encoder.encode(canvas.data(), SCREEN_WIDTH, SCREEN_HEIGHT));
    }
    this.cache.set(key, png);
    while (this.cache.size > CACHED_STATES) this.cache.delete(this.cache.keys().next().value!);
    return png;
  }

  async perform(action: CheckedAction): Promise<void> {
    this.app.perform(action);
    this.prerender();
  }

  elements(): OutlineElement[] {
    return this.app.outline();
  }

  typingTarget(): TypingTarget {
    return this.app.typingTarget();
  }

  poke(message: string): void {
    this.app.poke(message);
    this.prerender();
  }

  /** Opens a modal confirm dialog over the screen (test route `POST /sim/popup`). */
  popup(popup: { title: string; message: string; buttons: string[] }): void {
    this.app.openPopup(popup);
    this.prerender();
  }

  reset(): void {
    this.setBlink(false);
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
      this.png().catch(() => undefined);
    });
  }
}
