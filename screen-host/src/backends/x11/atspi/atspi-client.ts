/**
 * Reads the outline from the accessibility bus (AT-SPI over D-Bus, with the pure-JS client
 * @homebridge/dbus-native), in a few rounds of calls sent at once: the registered applications;
 * their top-level windows (the active one is the screen); the window's showing elements in one
 * call (`Collection.GetMatches`), described from the application's cache in one more
 * (`Cache.GetItems`: role, name, description, states, parent of every element it holds; one by
 * one for those it lacks); then, for the elements served, their rectangles on the screen and the
 * text of text fields. Everything within one deadline: a bus or an application that does not
 * answer in time makes the whole read fail (the host answers 503), never a partial outline.
 *
 * The application's cache exists only while some client listens for AT-SPI events (toolkits keep
 * none otherwise), so the reader registers for one event kind when it connects. An application
 * without Collection is walked instead, level by level, showing elements only.
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

/** More elements than this in one application's cache, and it is not used (a runaway tree). */
export const MAX_CACHE_ITEMS = 50_000;
/** More showing elements than this in the window, and there is no outline (a runaway tree). */
export const MAX_MATCHES = 10_000;
/** Applications asked at most, and top-level windows of each. */
export const MAX_APPLICATIONS = 64;
const MAX_TOP_LEVELS = 64;
const COLLECTION = 'org.a11y.atspi.Collection';
/**
 * Collection's match rule for "showing": states (a state set's two words) all of SHOWING;
 * attributes, roles (a 128-bit set) and interfaces empty, matched "all" (an empty set matches).
 */
const SHOWING_RULE = [[1 << ATSPI_STATE.showing, 0], 1, [], 1, [0, 0, 0, 0], 1, [], 1, false];
/** Collection's sort order CANONICAL: depth first, parents before children. */
const SORT_CANONICAL = 1;
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
    const windows = await Promise.all(apps.map(([app]) => this.topLevels(deadline, app)));
    const window = activeWindow(windows.flat());
    if (!window) return null;
    const nodes = [window, ...(await this.showingIn(deadline, window, bounds))];
    const chosen = chooseElements(nodes, window, bounds);
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

  /** An application's top-level windows. */
  private async topLevels(deadline: number, app: string): Promise<AtspiNode[]> {
    const refs = await this.optional(
      this.call(deadline, app, ROOT_PATH, ACCESSIBLE, 'GetChildren'),
    );
    const paths = referencePaths(refs).slice(0, MAX_TOP_LEVELS);
    const nodes = await Promise.all(
      paths.map((path, index) => this.describe(deadline, app, path, { parent: ROOT_PATH, index })),
    );
    return nodes.filter((n): n is AtspiNode => n !== null);
  }

  /**
   * The showing elements inside `window`, parents before children: the ones Collection.GetMatches
   * finds showing now (a fresh set, in the application's order), described from the application's
   * cache where it holds them (one call for all; a cache may lack elements made after it), else
   * one by one. An application without Collection is walked instead.
   */
  private async showingIn(
    deadline: number,
    window: AtspiNode,
    bounds: OutlineBounds,
  ): Promise<AtspiNode[]> {
    const { app } = window;
    let matches: unknown;
    try {
      matches = await this.call(
        deadline,
        app,
        window.path,
        COLLECTION,
        'GetMatches',
        '(aiia{ss}iaiiasib)uib',
        [SHOWING_RULE, SORT_CANONICAL, MAX_MATCHES, true],
      );
    } catch (err) {
      if (err instanceof DbusCallError) return this.walk(deadline, window, bounds);
      throw err;
    }
    const paths = referencePaths(matches);
    if (paths.length >= MAX_MATCHES) {
      throw new AtspiUnavailable(`the window shows more than ${MAX_MATCHES} elements`);
    }
    const cached = new Map<string, AtspiNode>();
    const items = await this.optional(this.call(deadline, app, CACHE_PATH, CACHE, 'GetItems'));
    if (Array.isArray(items) && items.length <= MAX_CACHE_ITEMS) {
      for (const item of items) {
        const node = cacheNode(app, item);
        if (node) cached.set(node.path, node);
      }
    }
    const nodes = await Promise.all(
      paths.map(async (path, index): Promise<AtspiNode | null> => {
        const known = cached.get(path);
        if (known) return { ...known, index };
        return this.describe(deadline, app, path, { index });
      }),
    );
    return nodes.filter((n): n is AtspiNode => n !== null);
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

  /**
   * The elements inside `window` of an application without Collection: level by level, each
   * level's calls sent at once, descending only into elements that show.
   */
  private async walk(
    deadline: number,
    window: AtspiNode,
    bounds: OutlineBounds,
  ): Promise<AtspiNode[]> {
    const { app } = window;
    const nodes: AtspiNode[] = [];
    let level = [window.path];
    for (let depth = 0; level.length > 0 && depth <= bounds.maxDepth; depth++) {
      const children = await Promise.all(
        level.map(async (parent) => ({
          parent,
          paths: referencePaths(
            await this.optional(this.call(deadline, app, parent, ACCESSIBLE, 'GetChildren')),
          ),
        })),
      );
      const read = await Promise.all(
        children.flatMap(({ parent, paths }) =>
          paths.map((path, index) => this.describe(deadline, app, path, { parent, index })),
        ),
      );
      level = [];
      for (const node of read) {
        if (!node || !hasState(node.states, ATSPI_STATE.showing)) continue;
        nodes.push(node);
        if (nodes.length >= MAX_MATCHES) {
          throw new AtspiUnavailable(`the window shows more than ${MAX_MATCHES} elements`);
        }
        level.push(node.path);
      }
    }
    return nodes;
  }

  /** One element, asked for its properties, role, states and interfaces; null when it is gone. */
  private async describe(
    deadline: number,
    app: string,
    path: string,
    at: { parent?: string; index: number },
  ): Promise<AtspiNode | null> {
    const [props, role, states, interfaces] = await Promise.all([
      this.optional(this.call(deadline, app, path, PROPERTIES, 'GetAll', 's', [ACCESSIBLE])),
      this.optional(this.call(deadline, app, path, ACCESSIBLE, 'GetRole')),
      this.optional(this.call(deadline, app, path, ACCESSIBLE, 'GetState')),
      this.optional(this.call(deadline, app, path, ACCESSIBLE, 'GetInterfaces')),
    ]);
    if (typeof role !== 'number' || !isStates(states)) return null;
    const property = (name: string): unknown => {
      if (!Array.isArray(props)) return undefined;
      const found = (props as unknown[]).find((p) => Array.isArray(p) && p[0] === name) as
        [string, [unknown, unknown[]]] | undefined;
      return found?.[1]?.[1]?.[0];
    };
    const text = (name: string) => {
      const value = property(name);
      return typeof value === 'string' ? value : '';
    };
    const parent = property('Parent');
    return {
      app,
      path,
      parent:
        at.parent ?? (Array.isArray(parent) && typeof parent[1] === 'string' ? parent[1] : ''),
      index: at.index,
      name: text('Name'),
      description: text('Description'),
      role,
      states,
      interfaces: isStrings(interfaces) ? interfaces : [],
    };
  }
}

/** The object paths of a list of references `a(so)`. */
function referencePaths(refs: unknown): string[] {
  if (!Array.isArray(refs)) return [];
  return refs
    .map((r: unknown) => (Array.isArray(r) && typeof r[1] === 'string' ? r[1] : null))
    .filter((p): p is string => p !== null);
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
