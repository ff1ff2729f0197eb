/**
 * One accessible object as the host reads it, the bounds of what it serves, and the small facts
 * about nodes the window choice and the element choice share (pure).
 */
import { ATSPI_ROLE, ATSPI_STATE, type AtspiStates, hasState } from './atspi-roles';

/** One accessible object as the application describes it. */
export interface AtspiNode {
  /** The application's bus name (`:1.42`). */
  app: string;
  /** Its object path in the application. */
  path: string;
  /** The parent's object path; the application's root for a top-level window. */
  parent: string;
  /** Its place among its parent's children. */
  index: number;
  /** How many children it has; -1 when not known (an element that manages its descendants). */
  childCount: number;
  name: string;
  description: string;
  role: number;
  states: AtspiStates;
  interfaces: readonly string[];
}

/** The application root's object path: a top-level window's parent. */
export const ROOT_PATH = '/org/a11y/atspi/accessible/root';

export interface OutlineBounds {
  /** Levels below the window that are read. */
  maxDepth: number;
  /** Elements served. */
  maxElements: number;
  /** Characters of a name, description or value (cut, marked with …). */
  maxText: number;
}

export const OUTLINE_BOUNDS: OutlineBounds = { maxDepth: 40, maxElements: 2000, maxText: 500 };

export const TEXT_INTERFACE = 'org.a11y.atspi.Text';
export const COMPONENT_INTERFACE = 'org.a11y.atspi.Component';

export const showing = (n: AtspiNode) => hasState(n.states, ATSPI_STATE.showing);

/** Dialog roles: a window that takes the input while it shows, where it is modal. */
export const DIALOG_ROLES: ReadonlySet<number> = new Set<number>([
  ATSPI_ROLE.dialog,
  ATSPI_ROLE.alert,
  ATSPI_ROLE.fileChooser,
]);

/** A menu or a popup menu: its items open in a popup, or it is an open menu itself. */
export const MENUS: ReadonlySet<number> = new Set<number>([ATSPI_ROLE.menu, ATSPI_ROLE.popupMenu]);

/** Each node's children, by `app parent`, in the application's order. */
export function childrenIndex(nodes: readonly AtspiNode[]): Map<string, AtspiNode[]> {
  const children = new Map<string, AtspiNode[]>();
  for (const n of nodes) {
    const key = `${n.app} ${n.parent}`;
    const list = children.get(key);
    if (list) list.push(n);
    else children.set(key, [n]);
  }
  for (const list of children.values()) list.sort((a, b) => a.index - b.index);
  return children;
}
