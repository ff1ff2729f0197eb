import { Monitor } from 'node-screenshots';
import type { CheckedAction } from '../../actions';
import { toXdotoolKey } from '../../keys';
import { frameOfPng, OpaqueFrames, type RawFrame } from '../../frames';
import { type PixelLayout, ScreenPngEncoder } from '@warden/protocol';
import { HttpError } from '../../http-error';
import type {
  BackendHealth,
  OutlineElement,
  ScreenBackend,
  Screenshot,
  TypingTarget,
} from '../backend';
import { accessibilityBus, type AccessibilityBus } from './atspi/atspi-bus';
import { AtspiClient, AtspiUnavailable, type ScreenStack } from './atspi/atspi-client';
import { planKeymap, usedBy } from './x11-keymap';
import { X11Client } from './x11-protocol';
import { Xdotool } from './xdotool';

/** X11 mouse buttons: 4 and 5 are the vertical wheel, 6 and 7 the horizontal one. */
const WHEEL_BUTTON = { up: 4, down: 5, left: 6, right: 7 } as const;
const DOUBLE_CLICK_GAP_MS = 40;
const WHEEL_GAP_MS = 5;

/** How long a whole outline may take before the host answers 503 (Warden waits 5 s). */
export const OUTLINE_DEADLINE_MS = 1500;
const CONNECT_TIMEOUT_MS = 1000;

export interface X11Options {
  /** The X display, e.g. `:99`; default `DISPLAY` from the environment. */
  display?: string;
  /** Read the accessibility outline from AT-SPI (default true; false is `--no-elements`). */
  elements?: boolean;
}

/**
 * A real X display. The screen is the X screen's root window, all monitors of it, in root
 * coordinates, so a screenshot pixel is where xdotool moves the pointer.
 * - screenshots: one GetImage over the host's own X client, encoded by the screen PNG encoder and
 *   handed over as the frame's pixels too (docs/screen-host.md); node-screenshots (XCB) only where the pixel
 *   format is not 32-bit true colour (then the host decodes the PNG for the frame);
 * - input: xdotool (XTest), with characters the keyboard map lacks mapped first (x11-keymap);
 * - the outline: AT-SPI on the display's accessibility bus, which the host starts where the
 *   display has none (atspi/): the active window (else the one application's only window) of the
 *   applications that publish their tree, each read only with the calls its toolkit answers (GTK 3,
 *   Qt 5/6; atspi-toolkits.ts), with its popups, each element only where no window is stacked over it
 *   (the X stack, from the host's own X client); none (404) where no application shows one, 503
 *   when the bus or an application does not answer within OUTLINE_DEADLINE_MS.
 */
export class X11Backend implements ScreenBackend {
  readonly name = 'x11';
  private readonly xdotool: Xdotool;
  private connection: Promise<X11Client> | null;
  private screen: { width: number; height: number };
  /** Keycodes this host mapped for typing (keycode → keysym), least recently used first. */
  private readonly mapped = new Map<number, number>();
  private readonly encoder = new ScreenPngEncoder();
  private readonly frames = new OpaqueFrames();
  private bus: AccessibilityBus | null = null;
  /** Why there is no outline, when there is none for good. */
  private noOutline: string | null = null;
  private atspi: Promise<AtspiClient> | null = null;
  /** Whether the last outline served had the focus in a password field. */
  private passwordFocused = false;

  private constructor(
    private readonly display: string,
    client: X11Client,
  ) {
    this.connection = Promise.resolve(client);
    this.screen = { width: client.screen.width, height: client.screen.height };
    this.xdotool = new Xdotool({ ...process.env, DISPLAY: display });
  }

  static async start(options: X11Options = {}): Promise<X11Backend> {
    const display = options.display ?? process.env.DISPLAY;
    if (!display) throw new Error('the x11 backend needs a display: set DISPLAY or pass --display');
    const client = await X11Client.connect(display);
    const backend = new X11Backend(display, client);
    backend.screen = await client.rootSize();
    if (options.elements === false) {
      backend.noOutline = 'the host was started with --no-elements';
      return backend;
    }
    const bus = await accessibilityBus({
      get: async (name) => (await backend.client()).rootStringProperty(name),
      set: async (name, value) => (await backend.client()).setRootStringProperty(name, value),
    });
    if ('unavailable' in bus) backend.noOutline = bus.unavailable;
    else backend.bus = bus;
    return backend;
  }

  /** The connection to the accessibility bus, made again when the last one broke. */
  private async atspiClient(): Promise<AtspiClient> {
    const bus = this.bus;
    if (!bus) throw new AtspiUnavailable(this.noOutline ?? 'no accessibility bus');
    for (;;) {
      const pending = this.atspi;
      if (pending) {
        const current = await pending.catch(() => null);
        if (current && !current.broken) return current;
        // Another call saw it broken first and is connecting again: that connection is used.
        if (this.atspi !== pending) continue;
        current?.close();
      }
      const next = AtspiClient.connect(bus.address, CONNECT_TIMEOUT_MS);
      this.atspi = next;
      try {
        return await next;
      } catch (err) {
        if (this.atspi === next) this.atspi = null;
        throw err;
      }
    }
  }

  size() {
    return this.screen;
  }

  async screenshot(): Promise<Screenshot> {
    const image = await this.readImage();
    if (!image) return this.screenshotThroughXcb();
    const { pixels, width, height, layout } = image;
    const png = this.encoder.encode(pixels, width, height, layout);
    return { png, width, height, frame: this.frames.frameOf(pixels, width, height, layout) };
  }

  /** The screen's pixels for the frame precondition: GetImage, and no PNG. */
  async capture(): Promise<RawFrame> {
    const image = await this.readImage();
    if (!image) {
      const shot = await this.screenshotThroughXcb();
      return frameOfPng(shot.png);
    }
    const { pixels, width, height, layout } = image;
    return this.frames.frameOf(pixels, width, height, layout);
  }

  /** The root window's pixels, where the pixel format is 32-bit true colour (else null). */
  private async readImage(): Promise<{
    pixels: Buffer;
    width: number;
    height: number;
    layout: PixelLayout;
  } | null> {
    const client = await this.client();
    const { width, height } = await client.rootSize();
    this.screen = { width, height };
    const { depth, bitsPerPixel, imageByteOrder } = client.screen;
    if ((depth !== 24 && depth !== 32) || bitsPerPixel !== 32) return null;
    const pixels = await client.getImage(0, 0, width, height);
    return { pixels, width, height, layout: imageByteOrder === 0 ? 'bgrx' : 'xrgb' };
  }

  /** For pixel formats the encoder does not read (16-bit colour): node-screenshots converts them. */
  private async screenshotThroughXcb(): Promise<Screenshot> {
    process.env.DISPLAY = this.display; // node-screenshots reads the real environment
    const monitors = Monitor.all();
    const monitor = monitors.find((m) => m.isPrimary()) ?? monitors[0];
    if (!monitor) throw new Error(`no screen found on display ${this.display}`);
    const image = await monitor.captureImage();
    return { png: await image.toPng(), width: image.width, height: image.height };
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

  /** The X connection, made again if the last one broke (the X server restarted, say). */
  private async client(): Promise<X11Client> {
    this.connection ??= X11Client.connect(this.display);
    try {
      const client = await this.connection;
      if (!client.broken) return client;
      this.connection = X11Client.connect(this.display);
      return await this.connection;
    } catch (err) {
      this.connection = null;
      throw err;
    }
  }

  /**
   * Puts every character of `text` that the keyboard map lacks onto a spare keycode and leaves it
   * there, so that xdotool never has to remap while the application reads its keys (see x11-keymap).
   */
  private async mapCharacters(text: string): Promise<void> {
    const client = await this.client();
    const map = await client.keyboardMap();
    for (const keycode of usedBy(map, text, this.mapped)) {
      const keysym = this.mapped.get(keycode)!;
      this.mapped.delete(keycode);
      this.mapped.set(keycode, keysym);
    }
    const changes = planKeymap(map, text, this.mapped);
    if (changes.length === 0) return;
    await client.changeKeyboardMap(changes, map.keysymsPerKeycode);
    for (const { keycode, keysym } of changes) {
      this.mapped.delete(keycode);
      this.mapped.set(keycode, keysym);
    }
  }

  /**
   * The active window's outline from AT-SPI; null (404) where there is no bus or no application
   * shows a window with a tree; 503 when the bus does not answer in time (Warden then has no
   * outline for that step).
   */
  async elements(): Promise<OutlineElement[] | null> {
    if (!this.bus) return null;
    let outline: OutlineElement[] | null;
    try {
      const client = await this.atspiClient();
      outline = await client.outline(OUTLINE_DEADLINE_MS, () => this.stack());
    } catch (err) {
      this.passwordFocused = false;
      // A connection that timed out may hold answers still to come: a new one next time.
      const stale = await this.atspi?.catch(() => null);
      stale?.close();
      this.atspi = null;
      throw new HttpError(
        503,
        `the accessibility bus did not give an outline: ${(err as Error).message}`,
      );
    }
    this.passwordFocused =
      outline?.some((e) => e.password === true && e.states?.includes('focused')) ?? false;
    return outline;
  }

  /** The screen and the windows on it, bottom to top, as the outline needs them. */
  private async stack(): Promise<ScreenStack> {
    const client = await this.client();
    const [size, windows] = await Promise.all([client.rootSize(), client.stack()]);
    return { screen: { x: 0, y: 0, ...size }, windows };
  }

  /** Whether there is an accessibility bus with applications on it; never throws, never slow. */
  async health(): Promise<BackendHealth> {
    if (!this.bus) {
      return { elements: false, facts: { accessibility: { bus: 'none', why: this.noOutline } } };
    }
    try {
      const client = await this.atspiClient();
      const apps = await client.applications(Date.now() + 500);
      return {
        elements: apps.length > 0,
        facts: { accessibility: { bus: this.bus.origin, applications: apps.length } },
      };
    } catch (err) {
      return {
        elements: false,
        facts: { accessibility: { bus: this.bus.origin, why: (err as Error).message } },
      };
    }
  }

  typingTarget(): TypingTarget {
    return this.passwordFocused ? 'password' : 'unknown';
  }

  async close(): Promise<void> {
    const atspi = this.atspi;
    this.atspi = null;
    if (atspi) (await atspi.catch(() => null))?.close();
    const bus = this.bus;
    this.bus = null;
    // While the X connection is up: the bus's property on the root window is taken away.
    await bus?.close();
    const connection = this.connection;
    this.connection = null;
    if (connection) (await connection.catch(() => null))?.close();
    await this.xdotool.close();
  }
}
