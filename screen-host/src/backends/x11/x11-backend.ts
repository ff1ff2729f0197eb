import { Monitor } from 'node-screenshots';
import type { CheckedAction } from '../../actions';
import { toXdotoolKey } from '../../keys';
import type { OutlineElement, ScreenBackend, Screenshot, TypingTarget } from '../backend';
import { KeyboardMap, planKeymap, usedBy, X11KeymapClient } from './x11-keymap';
import { Xdotool } from './xdotool';

/** X11 mouse buttons: 4 and 5 are the vertical wheel, 6 and 7 the horizontal one. */
const WHEEL_BUTTON = { up: 4, down: 5, left: 6, right: 7 } as const;
const DOUBLE_CLICK_GAP_MS = 40;
const WHEEL_GAP_MS = 5;

export interface X11Options {
  /** The X display, e.g. `:99`; default `DISPLAY` from the environment. */
  display?: string;
}

/**
 * A real X display: screenshots through node-screenshots (XCB, in-process), input through xdotool
 * (XTest). There is no dependable accessibility tree on a bare X display, so no outline.
 */
export class X11Backend implements ScreenBackend {
  readonly name = 'x11';
  private readonly xdotool: Xdotool;
  private readonly monitor: Monitor;
  private readonly display: string;
  private keymap: X11KeymapClient | null = null;
  /** Keycodes this host mapped for typing (keycode → keysym), least recently used first. */
  private readonly mapped = new Map<number, number>();

  constructor(options: X11Options = {}) {
    const display = options.display ?? process.env.DISPLAY;
    if (!display) throw new Error('the x11 backend needs a display: set DISPLAY or pass --display');
    // node-screenshots connects to the display named by this process's DISPLAY.
    process.env.DISPLAY = display;
    const monitors = Monitor.all();
    const monitor = monitors.find((m) => m.isPrimary()) ?? monitors[0];
    if (!monitor) throw new Error(`no screen found on display ${display}`);
    this.monitor = monitor;
    this.display = display;
    this.xdotool = new Xdotool({ ...process.env, DISPLAY: display });
  }

  size() {
    return { width: this.monitor.width(), height: this.monitor.height() };
  }

  async screenshot(): Promise<Screenshot> {
    const image = await this.monitor.captureImage();
    const png = await image.toPng();
    // xdotool moves the pointer in the same pixels XCB captures: the image size is the action space.
    return { png, width: image.width, height: image.height };
  }

  async perform(action: CheckedAction): Promise<void> {
    switch (action.action) {
      case 'click':
        return this.xdotool.run(`${this.moveTo(action)} click --delay 0 1`);
      case 'double_click':
        return this.xdotool.run(
          `${this.moveTo(action)} click --repeat 2 --delay ${DOUBLE_CLICK_GAP_MS} 1`,
        );
      case 'scroll':
        return this.xdotool.run(
          `${this.moveTo(action)} click --repeat ${action.amount} --delay ${WHEEL_GAP_MS} ${WHEEL_BUTTON[action.direction]}`,
        );
      case 'key':
        return this.xdotool.run(`key --delay 0 ${toXdotoolKey(action.parsed)}`);
      case 'type':
        try {
          await this.mapCharacters(action.text);
        } catch (err) {
          // Plain ASCII needs no remapping on the usual keyboard maps; anything else could arrive
          // wrong without the map prepared, and wrong text is worse than no text.
          if (!/^[\x20-\x7e\t\n]*$/.test(action.text)) {
            throw new Error(
              `cannot prepare the keyboard map for this text: ${(err as Error).message}`,
              { cause: err },
            );
          }
        }
        return this.xdotool.type(action.text);
    }
  }

  /** Screenshot pixels are the monitor's; the pointer moves in the root window, where it may sit off 0,0. */
  private moveTo(point: { x: number; y: number }): string {
    return `mousemove ${this.monitor.x() + point.x} ${this.monitor.y() + point.y}`;
  }

  /**
   * Puts every character of `text` that the keyboard map lacks onto a spare keycode and leaves it
   * there, so that xdotool never has to remap while the application reads its keys (see x11-keymap).
   */
  private async mapCharacters(text: string): Promise<void> {
    this.keymap ??= await X11KeymapClient.connect(this.display);
    let map: KeyboardMap;
    try {
      map = await this.keymap.keyboardMap();
    } catch (err) {
      // A broken connection is dropped; the next text connects again.
      this.keymap.close();
      this.keymap = null;
      throw err;
    }
    for (const keycode of usedBy(map, text, this.mapped)) {
      const keysym = this.mapped.get(keycode)!;
      this.mapped.delete(keycode);
      this.mapped.set(keycode, keysym);
    }
    const changes = planKeymap(map, text, this.mapped);
    if (changes.length === 0) return;
    await this.keymap.change(changes, map.keysymsPerKeycode);
    for (const { keycode, keysym } of changes) {
      this.mapped.delete(keycode);
      this.mapped.set(keycode, keysym);
    }
  }

  elements(): OutlineElement[] | null {
    return null;
  }

  typingTarget(): TypingTarget {
    return 'unknown';
  }

  async close(): Promise<void> {
    this.keymap?.close();
    await this.xdotool.close();
  }
}
