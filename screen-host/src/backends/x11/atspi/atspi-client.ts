/**
 * Reads the outline from the accessibility bus (AT-SPI over D-Bus, with the pure-JS client
 * @homebridge/dbus-native), in a few rounds of calls sent at once: the registered applications,
 * each asked once for its toolkit (atspi-toolkits.ts: only those of a known toolkit are read, and
 * only with the calls it answers); their top-level windows (the active one is the screen); the window's showing elements
 * (atspi-window-reader.ts, level by level, within atspi-reading.ts's bounds), and those of its
 * application's other windows that X stacks over it (its popups); then, for the elements chosen,
 * their rectangles on the screen and the text of text fields; then what of them shows on top
 * (atspi-layers.ts). Everything
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
import { layOut, popupBackdrops, type ScreenStack } from './atspi-layers';
import { outlineElementOf, rectOf as rectOfExtents, shownRects } from './atspi-elements';
import {
  type AtspiNode,
  COMPONENT_INTERFACE,
  OUTLINE_BOUNDS,
  type OutlineBounds,
  ROOT_PATH,
  TEXT_INTERFACE,
} from './atspi-node';
import { type Chosen, chooseElements } from './atspi-outline';
import { activeWindow, inactiveWindow, popupCandidates } from './atspi-windows';
import { placeInStack, same } from '../window-stack';
import { selectionOf } from './atspi-reading';
import { ATSPI_STATE, hasState } from './atspi-roles';
import { type ToolkitCalls, toolkitCalls } from './atspi-toolkits';
import { numberOf, WindowReader } from './atspi-window-reader';

export { AtspiUnavailable } from './atspi-calls';
export type { ScreenStack } from './atspi-layers';

const REGISTRY = 'org.a11y.atspi.Registry';
const APPLICATION = 'org.a11y.atspi.Application';

/** The title's description when no window is active and the host serves the one that shows. */
export const UNMARKED_WINDOW = 'no window is active: the window of the one application showing one';

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
    callback: (error: DbusError | null | undefined, ...values: unknown[]) => void,
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
  /**
   * Each application's toolkit calls, asked once (by bus name: the bus never gives a name to a
   * second connection); null: a toolkit that is not read.
   */
  private readonly toolkits = new Map<string, Promise<ToolkitCalls | null>>();

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
      // A method with several out arguments (Text.GetSelection's start and end) is answered
      // with them as a list.
      this.bus.invoke(message, (error, ...values) => {
        clearTimeout(timer);
        if (error) {
          reject(new DbusCallError(String(error.name ?? 'error'), String(error.message ?? '')));
        } else {
          resolve(values.length > 1 ? values : values[0]);
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
   * exposes nothing, xcalc say), with its popups, as X stacks the windows (`stack`, read at the
   * same time): see atspi-layers.ts. Throws AtspiUnavailable past the deadline, and when the
   * stack cannot be read.
   */
  async outline(
    timeoutMs: number,
    stack: () => Promise<ScreenStack>,
    bounds: OutlineBounds = OUTLINE_BOUNDS,
  ): Promise<OutlineElement[] | null> {
    const deadline = Date.now() + timeoutMs;
    const stacked = withDeadline(stack(), deadline, 'the windows on the screen');
    stacked.catch(() => undefined); // awaited below, unless there is no window
    const apps = (await this.applications(deadline)).map(([app]) => app);
    const toolkits = await this.toolkitsOf(deadline, apps);
    const reader = new WindowReader((...args) => this.call(...args), toolkits);
    const tops = (
      await Promise.all([...toolkits.keys()].map((app) => reader.topLevels(deadline, app)))
    ).flat();
    const modalUnstated = new Set(
      [...toolkits].filter(([, t]) => !t.statesModal).map(([app]) => app),
    );
    const active = activeWindow(tops, modalUnstated);
    const window = active ?? inactiveWindow(tops, modalUnstated);
    if (!window) return null;
    const unmarked = active ? undefined : UNMARKED_WINDOW;
    const rectOf = async (n: AtspiNode) => rectOfExtents(await this.extents(deadline, n));
    // Where the window is in the stack, and which other windows of its application are over it.
    const placed = Promise.all([stacked, rectOf(window)]).then(([screen, rect]) => ({
      screen,
      rect,
      base: placeInStack(
        screen.windows.map((w) => w.rect),
        rect,
      ),
    }));
    const popups = Promise.all(
      popupCandidates(tops, window).map(async (top) => {
        const [{ screen, base }, rect] = await Promise.all([placed, rectOf(top)]);
        const layer = rect
          ? screen.windows.findIndex((w, i) => i > base && same(w.rect, rect))
          : -1;
        if (layer < 0) return null; // not over the screen's window
        const nodes = [top, ...(await reader.showingIn(deadline, top, bounds))];
        return { top, layer, rect, nodes };
      }),
    );
    const [inside, over, { screen, rect: windowRect, base }] = await Promise.all([
      reader.showingIn(deadline, window, bounds),
      popups,
      placed,
    ]);
    const groups = [
      {
        chosen: chooseElements([window, ...inside], window, bounds, {
          modalUnstated: modalUnstated.has(window.app),
          unmarked,
        }),
        layer: base,
        window: windowRect,
      },
      ...over
        .filter((p) => p !== null)
        .map((p) => ({
          chosen: chooseElements(p.nodes, p.top, bounds, { title: false }),
          layer: p.layer,
          window: p.rect,
        })),
    ];
    const answers = await Promise.all(
      groups.map((g) => Promise.all(g.chosen.map((c) => this.answers(deadline, c)))),
    );
    const elements: OutlineElement[] = [];
    // The screen's title, where no click lands: the window's top edge, no height.
    const r: Rect = windowRect ?? { x: 0, y: 0, width: 0, height: 0 };
    elements.push(
      outlineElementOf(
        groups[0].chosen[0],
        { x: r.x, y: r.y, width: r.width, height: 0 },
        null,
        bounds,
      ),
    );
    elements.push(...popupBackdrops(screen, base));
    const served = new Set<string>();
    groups.forEach((g, gi) => {
      const rects = shownRects(
        g.chosen,
        answers[gi].map((a) => a.extents),
      );
      const shown = layOut({ ...g, rects }, screen);
      g.chosen.forEach((c, i) => {
        const key = `${c.node.app} ${c.node.path} ${c.role}`;
        const rect = shown[i];
        if (c.role === 'title' || !rect || served.has(key)) return;
        served.add(key);
        const { text, selected } = answers[gi][i];
        elements.push(outlineElementOf(c, rect, text, bounds, selected));
      });
    });
    return elements;
  }

  /**
   * The toolkit calls of each application that may be read, by bus name, each asked once for its
   * toolkit (`Properties.Get` of the Application interface's ToolkitName and Version, which every
   * bridge answers). An application that answers no toolkit is not read; one that does not answer
   * in time fails the outline, and is asked again next time.
   */
  private async toolkitsOf(
    deadline: number,
    apps: readonly string[],
  ): Promise<Map<string, ToolkitCalls>> {
    const listed = new Set(apps);
    for (const app of this.toolkits.keys()) if (!listed.has(app)) this.toolkits.delete(app);
    const calls = await Promise.all(
      apps.map((app) => {
        let known = this.toolkits.get(app);
        if (!known) {
          const get = (name: string) =>
            optional(
              this.call(deadline, app, ROOT_PATH, PROPERTIES, 'Get', 'ss', [APPLICATION, name]),
            );
          known = Promise.all([get('ToolkitName'), get('Version')]).then(([name, version]) =>
            toolkitCalls(variantValue(name), variantValue(version)),
          );
          this.toolkits.set(app, known);
          known.catch(() => this.toolkits.delete(app));
        }
        return known;
      }),
    );
    const out = new Map<string, ToolkitCalls>();
    apps.forEach((app, i) => {
      const found = calls[i];
      if (found) out.set(app, found);
    });
    return out;
  }

  /** An element's rectangle on the screen (GetExtents), or null where it has none. */
  private extents(deadline: number, node: AtspiNode): Promise<unknown> {
    if (!node.interfaces.includes(COMPONENT_INTERFACE)) return Promise.resolve(null);
    return optional(
      this.call(deadline, node.app, node.path, COMPONENT_INTERFACE, 'GetExtents', 'u', [
        SCREEN_COORDS,
      ]),
    );
  }

  /**
   * What a chosen element is asked: its rectangle, and a text field's text; for the field that
   * has the focus, whether all its text is selected (typing replaces it).
   */
  private async answers(deadline: number, c: Chosen): Promise<TextAnswers> {
    const focused = hasState(c.node.states, ATSPI_STATE.focused);
    const [extents, text] = await Promise.all([
      this.extents(deadline, c.node),
      c.text && !c.password ? this.textOf(deadline, c.node.app, c.node.path, focused) : null,
    ]);
    return { extents, text: text?.text ?? null, selected: text?.selected === true };
  }

  /**
   * A text field's text, its first TEXT_CHARACTERS characters: asked for by its length, as
   * LibreOffice answers an end past the text with nothing at all; and, where `selection` is
   * asked for, whether the selection holds all of it. Where it holds a part only, no text
   * (atspi-reading.ts `selectionOf`): typing replaces that part, which the outline cannot say.
   */
  private async textOf(
    deadline: number,
    app: string,
    path: string,
    selection: boolean,
  ): Promise<{ text: string | null; selected: boolean }> {
    const call = (iface: string, member: string, signature = '', body: unknown[] = []) =>
      optional(this.call(deadline, app, path, iface, member, signature, body));
    const length = numberOf(
      await call(PROPERTIES, 'Get', 'ss', [TEXT_INTERFACE, 'CharacterCount']),
    );
    if (length < 0) return { text: null, selected: false };
    if (length === 0) return { text: '', selected: false };
    const [text, selected] = await Promise.all([
      call(TEXT_INTERFACE, 'GetText', 'ii', [0, Math.min(length, TEXT_CHARACTERS)]),
      selection
        ? call(TEXT_INTERFACE, 'GetNSelections').then(async (n) =>
            selectionOf(
              length,
              n,
              n === 1 ? await call(TEXT_INTERFACE, 'GetSelection', 'i', [0]) : null,
            ),
          )
        : 'none',
    ]);
    if (selected === 'part') return { text: null, selected: false };
    return { text: typeof text === 'string' ? text : null, selected: selected === 'all' };
  }
}

interface TextAnswers {
  extents: unknown;
  text: string | null;
  selected: boolean;
}

/** The value of a property's variant as the client gives it, `[[type], [value]]`. */
function variantValue(variant: unknown): unknown {
  return Array.isArray(variant) && Array.isArray(variant[1])
    ? (variant[1] as unknown[])[0]
    : undefined;
}

/** `promise`, or AtspiUnavailable once `deadline` (a Date.now() value) has passed. */
function withDeadline<T>(promise: Promise<T>, deadline: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new AtspiUnavailable(`${what} were not read in time`)),
      Math.max(0, deadline - Date.now()),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(new AtspiUnavailable(`${what} could not be read: ${(err as Error).message}`));
      },
    );
  });
}
