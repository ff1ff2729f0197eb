/**
 * Reads the outline from the accessibility bus (AT-SPI over D-Bus, with the pure-JS client
 * @homebridge/dbus-native): the registered applications, each one's whole tree in one call of its
 * cache (`org.a11y.atspi.Cache.GetItems`: role, name, description, states, parent of every
 * element), then, for the elements of the active window that show, their rectangles on the
 * screen and the text of text fields, every call sent at once. Everything within one deadline: a
 * bus or an application that does not answer in time makes the whole read fail (the host answers
 * 503), never a partial outline.
 *
 * The application's cache exists only while some client listens for AT-SPI events (toolkits keep
 * none otherwise), so the reader registers for one event kind when it connects. An application
 * whose cache is not there (yet) is walked instead, level by level, showing elements only.
 */
import * as dbus from '@homebridge/dbus-native';
import type { OutlineElement, Rect } from '@warden/protocol';
import {
  activeWindow,
  type AtspiNode,
  chooseElements,
  COMPONENT_INTERFACE,
  OUTLINE_BOUNDS,
  type OutlineBounds,
  outlineElementOf,
  rectOf,
  ROOT_PATH,
} from './atspi-outline';
import { ATSPI_STATE, hasState } from './atspi-roles';

const REGISTRY = 'org.a11y.atspi.Registry';
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const CACHE_PATH = '/org/a11y/atspi/cache';
const CACHE = 'org.a11y.atspi.Cache';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
const TEXT = 'org.a11y.atspi.Text';
/** ATSPI_COORD_TYPE_SCREEN: rectangles in screen coordinates. */
const SCREEN_COORDS = 0;

/** More elements than this in one application's cache, and it is not read (a runaway tree). */
export const MAX_CACHE_ITEMS = 50_000;
/** Applications asked at most. */
export const MAX_APPLICATIONS = 64;
/** Characters of a field's text asked for (the outline serves at most OUTLINE_BOUNDS.maxText). */
const TEXT_CHARACTERS = 4096;

/** The bus did not answer in time, or answered what AT-SPI never says: no outline now. */
export class AtspiUnavailable extends Error {}

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

/** A call that failed with a D-Bus error (the application answered, with an error). */
class DbusCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
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

  /** Connects to the bus at `address`, and asks applications to keep their caches. */
  static async connect(address: string, timeoutMs: number): Promise<AtspiClient> {
    const bus = (dbus as unknown as { createClient(o: object): Bus }).createClient({
      busAddress: address,
    });
    const client = new AtspiClient(bus);
    const deadline = Date.now() + timeoutMs;
    try {
      // Any listener makes the toolkits' bridges keep their cache (and send events, which this
      // client never subscribes to, so the bus does not forward them).
      await client.call(
        deadline,
        REGISTRY,
        '/org/a11y/atspi/registry',
        'org.a11y.atspi.Registry',
        'RegisterEvent',
        'sass',
        ['object:children-changed', [], ''],
      );
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
    const apps = await this.applications(deadline);
    const trees = await Promise.all(apps.map(([app]) => this.tree(deadline, app)));
    const nodes = trees.flat();
    const window = activeWindow(nodes);
    if (!window) return null;
    const chosen = chooseElements(
      nodes.filter((n) => n.app === window.app),
      window,
      bounds,
    );
    const answers = await Promise.all(
      chosen.map(async (c) => {
        const [extents, text] = await Promise.all([
          c.node.interfaces.includes(COMPONENT_INTERFACE)
            ? this.optional(
                this.call(
                  deadline,
                  c.node.app,
                  c.node.path,
                  COMPONENT_INTERFACE,
                  'GetExtents',
                  'u',
                  [SCREEN_COORDS],
                ),
              )
            : null,
          c.text && !c.password
            ? this.optional(
                this.call(deadline, c.node.app, c.node.path, TEXT, 'GetText', 'ii', [
                  0,
                  TEXT_CHARACTERS,
                ]),
              )
            : null,
        ]);
        return { extents, text: typeof text === 'string' ? text : null };
      }),
    );
    const windowRect = rectOf(answers[0].extents);
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
      const rect = rectOf(answers[i].extents);
      if (rect) elements.push(outlineElementOf(c, rect, answers[i].text, bounds));
    });
    return elements;
  }

  /** An answer that may fail with a D-Bus error (an element gone since): null then. */
  private async optional(call: Promise<unknown>): Promise<unknown> {
    try {
      return await call;
    } catch (err) {
      if (err instanceof DbusCallError) return null;
      throw err;
    }
  }

  /** One application's elements: its cache, else a walk of its showing elements. */
  private async tree(deadline: number, app: string): Promise<AtspiNode[]> {
    let items: unknown;
    try {
      items = await this.call(deadline, app, CACHE_PATH, CACHE, 'GetItems');
    } catch (err) {
      if (err instanceof DbusCallError) return this.walk(deadline, app);
      throw err;
    }
    if (!Array.isArray(items)) throw new AtspiUnavailable(`${app} answered GetItems with no list`);
    if (items.length > MAX_CACHE_ITEMS) {
      throw new AtspiUnavailable(`${app} has more than ${MAX_CACHE_ITEMS} elements`);
    }
    const nodes: AtspiNode[] = [];
    for (const item of items) {
      const node = cacheNode(app, item);
      if (node) nodes.push(node);
    }
    // A cache of another shape (another toolkit's, another release's): walked instead.
    return nodes.length === 0 && items.length > 0 ? this.walk(deadline, app) : nodes;
  }

  /**
   * An application without a cache (or not yet): its tree, level by level, each level's calls
   * sent at once, descending only into elements that show, at most OUTLINE_BOUNDS.maxElements.
   */
  private async walk(deadline: number, app: string): Promise<AtspiNode[]> {
    const nodes: AtspiNode[] = [];
    let level: Array<{ path: string; parent: string; index: number }> = [];
    const top = await this.optional(this.call(deadline, app, ROOT_PATH, ACCESSIBLE, 'GetChildren'));
    if (!Array.isArray(top)) return nodes;
    top.forEach((ref, index) => {
      if (Array.isArray(ref) && typeof ref[1] === 'string') {
        level.push({ path: ref[1], parent: ROOT_PATH, index });
      }
    });
    for (let depth = 0; level.length > 0 && depth <= OUTLINE_BOUNDS.maxDepth; depth++) {
      const read = await Promise.all(level.map((at) => this.walkNode(deadline, app, at)));
      level = [];
      for (const entry of read) {
        if (!entry) continue;
        nodes.push(entry.node);
        if (nodes.length >= OUTLINE_BOUNDS.maxElements) return nodes;
        if (!hasState(entry.node.states, ATSPI_STATE.showing)) continue;
        entry.children.forEach((path, index) =>
          level.push({ path, parent: entry.node.path, index }),
        );
      }
    }
    return nodes;
  }

  private async walkNode(
    deadline: number,
    app: string,
    at: { path: string; parent: string; index: number },
  ): Promise<{ node: AtspiNode; children: string[] } | null> {
    const [props, role, states, children, interfaces] = await Promise.all([
      this.optional(this.call(deadline, app, at.path, PROPERTIES, 'GetAll', 's', [ACCESSIBLE])),
      this.optional(this.call(deadline, app, at.path, ACCESSIBLE, 'GetRole')),
      this.optional(this.call(deadline, app, at.path, ACCESSIBLE, 'GetState')),
      this.optional(this.call(deadline, app, at.path, ACCESSIBLE, 'GetChildren')),
      this.optional(this.call(deadline, app, at.path, ACCESSIBLE, 'GetInterfaces')),
    ]);
    if (typeof role !== 'number' || !isStates(states)) return null;
    const property = (name: string): string => {
      if (!Array.isArray(props)) return '';
      const found = (props as unknown[]).find((p) => Array.isArray(p) && p[0] === name) as
        [string, [unknown, unknown[]]] | undefined;
      const value = found?.[1]?.[1]?.[0];
      return typeof value === 'string' ? value : '';
    };
    return {
      node: {
        app,
        path: at.path,
        parent: at.parent,
        index: at.index,
        name: property('Name'),
        description: property('Description'),
        role,
        states,
        interfaces: isStrings(interfaces) ? interfaces : [],
      },
      children: Array.isArray(children)
        ? children
            .map((c: unknown) => (Array.isArray(c) && typeof c[1] === 'string' ? c[1] : null))
            .filter((p): p is string => p !== null)
        : [],
    };
  }
}

function isStates(value: unknown): value is number[] {
  return Array.isArray(value) && value.length <= 4 && value.every((v) => Number.isInteger(v));
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * One item of `GetItems` (at-spi2-core 2.46's `a((so)(so)(so)iiassusau)`: the element, its
 * application, its parent, its index in the parent, its child count, interfaces, name, role,
 * description, states); null for an item of any other shape.
 */
export function cacheNode(app: string, item: unknown): AtspiNode | null {
  if (!Array.isArray(item) || item.length < 10) return null;
  const [self, , parent, index, , interfaces, name, role, description, states] = item as unknown[];
  if (!Array.isArray(self) || typeof self[1] !== 'string') return null;
  if (!Array.isArray(parent) || typeof parent[1] !== 'string') return null;
  if (typeof index !== 'number' || typeof role !== 'number' || !isStates(states)) return null;
  return {
    app,
    path: self[1],
    parent: parent[1],
    index,
    name: typeof name === 'string' ? name : '',
    description: typeof description === 'string' ? description : '',
    role,
    states,
    interfaces: isStrings(interfaces) ? interfaces : [],
  };
}
