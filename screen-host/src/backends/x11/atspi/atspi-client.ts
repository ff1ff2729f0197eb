/**
 * Reads the outline from the accessibility bus (AT-SPI over D-Bus, with the pure-JS client
 * @homebridge/dbus-native), in a few rounds of calls sent at once: the registered applications;
 * their top-level windows (the active one is the screen); the window's showing elements
 * (atspi-window-reader.ts, level by level, within atspi-reading.ts's bounds); then, for
 * the elements served, their rectangles on the screen and the text of text fields. Everything
 * within one deadline: a bus or an application that does not answer in time makes the whole read
 * fail (the host answers 503), never a partial outline.
 */
import * as dbus from '@homebridge/dbus-native';
import type { OutlineElement, Rect } from '@warden/protocol';
import {
  ACCESSIBLE,
  AtspiUnavailable,
  DbusCallError,
  optional,
  PROPERTIES,
  SCREEN_COORDS,
} from './atspi-calls';
import {
  activeWindow,
  chooseElements,
  COMPONENT_INTERFACE,
  OUTLINE_BOUNDS,
  type OutlineBounds,
  outlineElementOf,
  rectOf,
  ROOT_PATH,
  shownRects,
  TEXT_INTERFACE,
} from './atspi-outline';
import { numberOf, WindowReader } from './atspi-window-reader';

export { AtspiUnavailable } from './atspi-calls';

const REGISTRY = 'org.a11y.atspi.Registry';

/** Applications asked at most. */
export const MAX_APPLICATIONS = 64;
/** Characters of a field's text asked for (the outline serves at most OUTLINE_BOUNDS.maxText). */
const TEXT_CHARACTERS = 4096;

interface DbusError {
  name?: string;
  message?: string;
}

interface Bus {
  invoke(
    message: Record<string, unknown>,
    callback: (error: DbusError | null | undefined, value?: unknown) => void,
  ): void;
  cookies: Record<number, unknown>;
  connection: {
    on(event: 'error' | 'end' | 'connect', listener: (err?: Error) => void): void;
    once(event: 'error' | 'end' | 'connect', listener: (err?: Error) => void): void;
    end(): void;
    stream: { destroy(): void };
  };
}

export class AtspiClient {
  private closed: Error | null = null;

  private constructor(private readonly bus: Bus) {
    const fail = (err?: Error) => {
      this.closed ??= err ?? new Error('the accessibility bus closed the connection');
    };
    bus.connection.on('error', fail);
    bus.connection.on('end', fail);
  }

  /** Connects to the bus at `address`; the registry must answer within `timeoutMs`. */
  static async connect(address: string, timeoutMs: number): Promise<AtspiClient> {
    const bus = (dbus as unknown as { createClient(o: object): Bus }).createClient({
      busAddress: address,
    });
    const client = new AtspiClient(bus);
    try {
      await client.applications(Date.now() + timeoutMs);
    } catch (err) {
      client.close();
      throw err;
    }
    return client;
  }

  get broken(): boolean {
    return this.closed !== null;
  }

  close(): void {
    this.closed ??= new Error('closed');
    try {
      this.bus.connection.end();
      this.bus.connection.stream.destroy();
    } catch {
      // already gone
    }
  }

  /** One method call, answered by `deadline` (a Date.now() value) or failed. */
  call(
    deadline: number,
    destination: string,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: unknown[],
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(new AtspiUnavailable(this.closed.message));
    const ms = deadline - Date.now();
    if (ms <= 0) return Promise.reject(new AtspiUnavailable('the deadline passed'));
    return new Promise((resolve, reject) => {
      const message: Record<string, unknown> = { destination, path, interface: iface, member };
      if (signature) {
        message.signature = signature;
        message.body = body;
      }
      const timer = setTimeout(() => {
        // Its answer, should it come, is dropped.
        if (typeof message.serial === 'number') delete this.bus.cookies[message.serial];
        reject(new AtspiUnavailable(`${member} was not answered within ${ms} ms`));
      }, ms);
      this.bus.invoke(message, (error, value) => {
        clearTimeout(timer);
        if (error) {
          reject(new DbusCallError(String(error.name ?? 'error'), String(error.message ?? '')));
        } else {
          resolve(value);
        }
      });
    });
  }

  /** The bus names and root paths of the registered applications. */
  async applications(deadline: number): Promise<Array<[string, string]>> {
    const apps = await this.call(deadline, REGISTRY, ROOT_PATH, ACCESSIBLE, 'GetChildren');
    if (!Array.isArray(apps)) throw new AtspiUnavailable('the registry answered no list');
    return apps
      .filter((a): a is [string, string] => Array.isArray(a) && typeof a[0] === 'string')
      .slice(0, MAX_APPLICATIONS);
  }

  /**
   * The outline of the active window, or null when no application shows one (an application that
   * exposes nothing, xcalc say). Throws AtspiUnavailable past the deadline.
   */
  async outline(
    timeoutMs: number,
    bounds: OutlineBounds = OUTLINE_BOUNDS,
  ): Promise<OutlineElement[] | null> {
    const deadline = Date.now() + timeoutMs;
    const reader = new WindowReader((...args) => this.call(...args));
    const apps = await this.applications(deadline);
    const windows = await Promise.all(apps.map(([app]) => reader.topLevels(deadline, app)));
    const window = activeWindow(windows.flat());
    if (!window) return null;
    const nodes = [window, ...(await reader.showingIn(deadline, window, bounds))];
    const chosen = chooseElements(nodes, window, bounds);
    const answers = await Promise.all(
      chosen.map(async (c) => {
        const { app, path } = c.node;
        const [extents, text] = await Promise.all([
          c.node.interfaces.includes(COMPONENT_INTERFACE)
            ? optional(
                this.call(deadline, app, path, COMPONENT_INTERFACE, 'GetExtents', 'u', [
                  SCREEN_COORDS,
                ]),
              )
            : null,
          c.text && !c.password ? this.textOf(deadline, app, path) : null,
        ]);
        return { extents, text };
      }),
    );
    const windowRect = rectOf(answers[0].extents);
    const shown = shownRects(
      chosen,
      answers.map((a) => a.extents),
    );
    const elements: OutlineElement[] = [];
    chosen.forEach((c, i) => {
      if (c.role === 'title') {
        // The screen's title, where no click lands: the window's top edge, no height.
        const r: Rect = windowRect ?? { x: 0, y: 0, width: 0, height: 0 };
        elements.push(
          outlineElementOf(c, { x: r.x, y: r.y, width: r.width, height: 0 }, null, bounds),
        );
        return;
      }
      const rect = shown[i];
      if (rect) elements.push(outlineElementOf(c, rect, answers[i].text, bounds));
    });
    return elements;
  }

  /**
   * A text field's text, its first TEXT_CHARACTERS characters: asked for by its length, as
   * LibreOffice answers an end past the text with nothing at all.
   */
  private async textOf(deadline: number, app: string, path: string): Promise<string | null> {
    const length = numberOf(
      await optional(
        this.call(deadline, app, path, PROPERTIES, 'Get', 'ss', [TEXT_INTERFACE, 'CharacterCount']),
      ),
    );
    if (length < 0) return null;
    if (length === 0) return '';
    const text = await optional(
      this.call(deadline, app, path, TEXT_INTERFACE, 'GetText', 'ii', [
        0,
        Math.min(length, TEXT_CHARACTERS),
      ]),
    );
    return typeof text === 'string' ? text : null;
  }
}
