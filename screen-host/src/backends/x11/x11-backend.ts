import { Monitor } from 'node-screenshots';
import type { CheckedAction } from '../../actions';
import { toXdotoolKey } from '../../keys';
import type { OutlineElement, ScreenBackend, Screenshot, TypingTarget } from '../backend';
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

  constructor(options: X11Options = {}) {
    const display = options.display ?? process.env.DISPLAY;
    if (!display) throw new Error('the x11 backend needs a display: set DISPLAY or pass --display');
    // node-screenshots connects to the display named by this process's DISPLAY.
    process.env.DISPLAY = display;
    const monitors = Monitor.all();
    const monitor = monitors.find((m) => m.isPrimary()) ?? monitors[0];
    if (!monitor) throw new Error(`no screen found on display ${display}`);
    this.monitor = monitor;
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
        return this.xdotool.run(`mousemove ${action.x} ${action.y} click --delay 0 1`);
      case 'double_click':
        return this.xdotool.run(
          `mousemove ${action.x} ${action.y} click --repeat 2 --delay ${DOUBLE_CLICK_GAP_MS} 1`,
        );
      case 'scroll':
        return this.xdotool.run(
          `mousemove ${action.x} ${action.y} click --repeat ${action.amount} --delay ${WHEEL_GAP_MS} ${WHEEL_BUTTON[action.direction]}`,
        );
      case 'key':
        return this.xdotool.run(`key --delay 0 ${toXdotoolKey(action.parsed)}`);
      case 'type':
        return this.xdotool.type(action.text);
    }
  }

  elements(): OutlineElement[] | null {
    return null;
  }

  typingTarget(): TypingTarget {
    return 'unknown';
  }

  close(): Promise<void> {
    return this.xdotool.close();
  }
}
