/**
 * Reads which elements of an application show, over the accessibility bus, in rounds of calls
 * sent at once: an application's top-level windows; then a window's showing elements, level by
 * level from the window down: for each element that shows, the children of it that show
 * (Collection.GetMatches on that element alone, not descending; GetChildren where the
 * application has no Collection), each described by its properties, role, states and interfaces.
 * What is asked of an element's children follows atspi-reading.ts's plan: never a question whose
 * answer grows with the document; and what is asked of an application, its toolkit's row in
 * atspi-toolkits.ts: an application with none is not read.
 */
import {
  ACCESSIBLE,
  AtspiUnavailable,
  type BusCall,
  optional,
  PROPERTIES,
  referencePath,
  referencePaths,
  SCREEN_COORDS,
} from './atspi-calls';
import { rectOf } from './atspi-elements';
import { type AtspiNode, COMPONENT_INTERFACE, type OutlineBounds, ROOT_PATH } from './atspi-node';
import { cellRange, type CellPlace, childrenPlan, TABLE_INTERFACE } from './atspi-reading';
import { ATSPI_STATE, hasState } from './atspi-roles';
import type { ToolkitCalls } from './atspi-toolkits';

const COLLECTION = 'org.a11y.atspi.Collection';

/** More showing elements than this in the window, and there is no outline (a runaway tree). */
export const MAX_SHOWING = 10_000;
const MAX_TOP_LEVELS = 64;
/**
 * Collection's match rule for "showing": states (a state set's two words) all of SHOWING;
 * attributes, roles (a 128-bit set) and interfaces empty, matched "all" (an empty set matches).
 */
const SHOWING_RULE = [[1 << ATSPI_STATE.showing, 0], 1, [], 1, [0, 0, 0, 0], 1, [], 1, false];
/** Collection's sort order CANONICAL: the application's order. */
const SORT_CANONICAL = 1;

/** An element's properties the outline reads. */
const PROPERTY_NAMES = ['Name', 'Description', 'ChildCount'] as const;

export class WindowReader {
  /** `toolkits`: the calls for each application (by bus name) that may be read. */
  constructor(
    private readonly call: BusCall,
    private readonly toolkits: ReadonlyMap<string, ToolkitCalls>,
  ) {}

  /** An application's top-level windows. */
  async topLevels(deadline: number, app: string): Promise<AtspiNode[]> {
    if (!this.toolkits.has(app)) return [];
    const refs = await optional(this.call(deadline, app, ROOT_PATH, ACCESSIBLE, 'GetChildren'));
    const paths = referencePaths(refs).slice(0, MAX_TOP_LEVELS);
    const nodes = await Promise.all(
      paths.map((path, index) => this.describe(deadline, app, path, { parent: ROOT_PATH, index })),
    );
    return nodes.filter((n): n is AtspiNode => n !== null);
  }

  /**
   * The showing elements inside `window`, level by level, parents before children; an element
   * that does not show is not descended into (a closed menu's items are not on the screen).
   */
  async showingIn(
    deadline: number,
    window: AtspiNode,
    bounds: OutlineBounds,
  ): Promise<AtspiNode[]> {
    const found: AtspiNode[] = [];
    const seen = new Set<string>([window.path]);
    let level = [window];
    for (let depth = 0; level.length > 0 && depth < bounds.maxDepth; depth++) {
      const children = await Promise.all(level.map((n) => this.childrenOf(deadline, n)));
      level = [];
      for (const child of children.flat()) {
        if (seen.has(child.path) || !hasState(child.states, ATSPI_STATE.showing)) continue;
        seen.add(child.path);
        found.push(child);
        if (found.length >= MAX_SHOWING) {
          throw new AtspiUnavailable(`the window shows more than ${MAX_SHOWING} elements`);
        }
        level.push(child);
      }
    }
    return found;
  }

  /** `node`'s children that show, as atspi-reading.ts's plan says to read them. */
  private async childrenOf(deadline: number, node: AtspiNode): Promise<AtspiNode[]> {
    const { app, path } = node;
    let count = node.childCount;
    let plan = childrenPlan(node, count);
    if (plan === 'count') {
      count = numberOf(
        await optional(
          this.call(deadline, app, path, PROPERTIES, 'Get', 'ss', [ACCESSIBLE, 'ChildCount']),
        ),
      );
      // Still not known: nothing is asked of what it holds.
      plan = count >= 0 ? childrenPlan(node, count) : 'none';
    }
    if (plan === 'cells') return this.tableCells(deadline, node);
    if (plan !== 'list') return [];
    // Those that show, of its own children only (traverse: false); every child where the
    // application has no Collection.
    const usesCollection =
      this.toolkits.get(app)?.collection === true && node.interfaces.includes(COLLECTION);
    const refs = usesCollection
      ? await optional(
          this.call(deadline, app, path, COLLECTION, 'GetMatches', '(aiia{ss}iaiiasib)uib', [
            SHOWING_RULE,
            SORT_CANONICAL,
            count,
            false,
          ]),
        )
      : await optional(this.call(deadline, app, path, ACCESSIBLE, 'GetChildren'));
    // GetChildren lists hidden children too (a closed menu's items): each is asked whether it
    // shows before anything else is asked of it.
    const onlyShowing = refs !== null && !usesCollection;
    const described = await Promise.all(
      referencePaths(refs)
        .slice(0, count)
        .map((child, index) =>
          this.describe(deadline, app, child, { parent: path, index }, onlyShowing),
        ),
    );
    return described.filter((n): n is AtspiNode => n !== null);
  }

  /**
   * The cells a large table shows: the cells under its top-left and bottom-right corners name the
   * visible range (Component.GetAccessibleAtPoint, then the cell's row and column), and each cell
   * of the range is asked for by its place (Table.GetAccessibleAt). A corner that names no cell
   * leaves the table without cells: what is inside it is then unlabelled.
   */
  private async tableCells(deadline: number, table: AtspiNode): Promise<AtspiNode[]> {
    const { app, path } = table;
    const call = (iface: string, member: string, signature: string, body: unknown[], on = path) =>
      optional(this.call(deadline, app, on, iface, member, signature, body));
    const rect = rectOf(await call(COMPONENT_INTERFACE, 'GetExtents', 'u', [SCREEN_COORDS]));
    if (!rect) return [];
    const corner = async (x: number, y: number): Promise<CellPlace | null> => {
      const at = [x, y, SCREEN_COORDS];
      const cell = referencePath(
        await call(COMPONENT_INTERFACE, 'GetAccessibleAtPoint', 'iiu', at),
      );
      if (!cell) return null;
      const index = numberOf(await call(ACCESSIBLE, 'GetIndexInParent', '', [], cell));
      if (index < 0) return null;
      const [row, column] = (
        await Promise.all([
          call(TABLE_INTERFACE, 'GetRowAtIndex', 'i', [index]),
          call(TABLE_INTERFACE, 'GetColumnAtIndex', 'i', [index]),
        ])
      ).map(numberOf);
      return row >= 0 && column >= 0 ? { row, column } : null;
    };
    const [first, last] = await Promise.all([
      corner(rect.x + 1, rect.y + 1),
      corner(rect.x + rect.width - 2, rect.y + rect.height - 2),
    ]);
    if (!first || !last) return [];
    const cells = await Promise.all(
      cellRange(first, last).map(async ({ row, column }, index) => {
        const cell = referencePath(
          await call(TABLE_INTERFACE, 'GetAccessibleAt', 'ii', [row, column]),
        );
        return cell ? this.describe(deadline, app, cell, { parent: path, index }) : null;
      }),
    );
    return cells.filter((n): n is AtspiNode => n !== null);
  }

  /**
   * One element, asked for its properties, role, states and interfaces; null when it is gone, and
   * for an application that is not to be read.
   */
  private async describe(
    deadline: number,
    app: string,
    path: string,
    at: { parent: string; index: number },
    onlyShowing = false,
  ): Promise<AtspiNode | null> {
    const toolkit = this.toolkits.get(app);
    if (!toolkit) return null;
    const state = () => optional(this.call(deadline, app, path, ACCESSIBLE, 'GetState'));
    const first = onlyShowing ? await state() : null;
    if (onlyShowing && !(isStates(first) && hasState(first, ATSPI_STATE.showing))) return null;
    const [property, role, states, interfaces] = await Promise.all([
      this.properties(deadline, app, path, toolkit),
      optional(this.call(deadline, app, path, ACCESSIBLE, 'GetRole')),
      onlyShowing ? first : state(),
      optional(this.call(deadline, app, path, ACCESSIBLE, 'GetInterfaces')),
    ]);
    if (typeof role !== 'number' || !isStates(states)) return null;
    const text = (name: 'Name' | 'Description') => {
      const value = property(name);
      return typeof value === 'string' ? value : '';
    };
    const childCount = property('ChildCount');
    return {
      app,
      path,
      parent: at.parent,
      index: at.index,
      childCount: typeof childCount === 'number' && Number.isInteger(childCount) ? childCount : -1,
      name: text('Name'),
      description: text('Description'),
      role,
      states,
      interfaces: isStrings(interfaces) ? interfaces : [],
    };
  }

  /**
   * An element's properties as its toolkit answers them: all in one `GetAll` (GTK), or one `Get`
   * each (Qt, whose bridge dies on GetAll). A property not answered is undefined.
   */
  private async properties(
    deadline: number,
    app: string,
    path: string,
    toolkit: ToolkitCalls,
  ): Promise<(name: (typeof PROPERTY_NAMES)[number]) => unknown> {
    if (toolkit.properties === 'each') {
      const values = await Promise.all(
        PROPERTY_NAMES.map((name) =>
          optional(this.call(deadline, app, path, PROPERTIES, 'Get', 'ss', [ACCESSIBLE, name])),
        ),
      );
      return (name) => variantValue(values[PROPERTY_NAMES.indexOf(name)]);
    }
    const props = await optional(
      this.call(deadline, app, path, PROPERTIES, 'GetAll', 's', [ACCESSIBLE]),
    );
    return (name) => {
      if (!Array.isArray(props)) return undefined;
      const found = (props as unknown[]).find((p) => Array.isArray(p) && p[0] === name) as
        [string, unknown] | undefined;
      return variantValue(found?.[1]);
    };
  }
}

/** The value of a variant as the client gives it, `[[type], [value]]`; else undefined. */
function variantValue(variant: unknown): unknown {
  return Array.isArray(variant) && Array.isArray(variant[1])
    ? (variant[1] as unknown[])[0]
    : undefined;
}

/** An integer from an answer (a bare one, or a property's variant `[[type], [value]]`); else -1. */
export function numberOf(answer: unknown): number {
  const value: unknown =
    Array.isArray(answer) && Array.isArray(answer[1]) ? (answer[1] as unknown[])[0] : answer;
  return typeof value === 'number' && Number.isInteger(value) ? value : -1;
}

function isStates(value: unknown): value is number[] {
  return Array.isArray(value) && value.length <= 4 && value.every((v) => Number.isInteger(v));
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
