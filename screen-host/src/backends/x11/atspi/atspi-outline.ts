/**
 * From what AT-SPI says of an application's elements to the outline (pure): which window is the
 * screen, which of its elements show, in what order, and each one's role, name, description,
 * states, area and value, every string bounded. The D-Bus side is atspi-client.ts.
 */
import type { OutlineArea, OutlineElement, Rect } from '@warden/protocol';
import {
  ATSPI_ROLE,
  ATSPI_STATE,
  type AtspiStates,
  hasState,
  outlineRole,
  outlineStates,
  WINDOW_ROLES,
} from './atspi-roles';

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

/** An element chosen to be served, before its rectangle and text are asked for. */
export interface Chosen {
  node: AtspiNode;
  role: string;
  area?: OutlineArea;
  password: boolean;
  /** Its text is its value. */
  text: boolean;
  /** Inside a dialog window. */
  dialog: boolean;
  /**
   * Drawn in a popup window over the one it belongs to: an item of a menu that opened from a menu
   * bar, a menu or a control (GTK keeps an open menu's items in the window's own tree).
   */
  popup: boolean;
  isWindow: boolean;
  /**
   * The dialog's own entry, taken as modal where its toolkit marks no dialog modal (Qt): served
   * with the `modal` state.
   */
  modal?: true;
  /** The title's description: why this window is the screen though none is active. */
  note?: string;
  /**
   * The place in the chosen list of the nearest chosen element it lies in (the window's title
   * entry for the outermost); null for the window's own entries.
   */
  within: number | null;
}

const showing = (n: AtspiNode) => hasState(n.states, ATSPI_STATE.showing);

/** Dialog roles: a window that takes the input while it shows, where it is modal. */
const DIALOG_ROLES: ReadonlySet<number> = new Set<number>([
  ATSPI_ROLE.dialog,
  ATSPI_ROLE.alert,
  ATSPI_ROLE.fileChooser,
]);

/**
 * Whether a top-level window is modal: it says so, or it is a dialog of an application whose
 * toolkit never says so (`modalUnstated`, by bus name: Qt), and nothing says otherwise.
 */
function isModal(w: AtspiNode, modalUnstated: ReadonlySet<string>): boolean {
  return (
    hasState(w.states, ATSPI_STATE.modal) || (DIALOG_ROLES.has(w.role) && modalUnstated.has(w.app))
  );
}

function showingWindows(nodes: readonly AtspiNode[]): AtspiNode[] {
  return nodes.filter((n) => n.parent === ROOT_PATH && WINDOW_ROLES.has(n.role) && showing(n));
}

/**
 * The window that is the screen: a modal dialog that shows, of the application whose window is
 * active, whether or not it is marked active itself (without a window manager, GTK leaves
 * LibreOffice's "Keep current format" dialog unmarked and the document window behind it active:
 * a click on the dialog's button was judged against the sheet behind it, a cell, a read); of
 * several such dialogs the active one, else none. Without one, the showing top-level window that
 * is active; of several active ones, the one holding the focus, else none: nothing tells which
 * window takes the input. A dialog of an application in `modalUnstated` (its toolkit marks no
 * dialog modal: Qt) counts as modal.
 */
export function activeWindow(
  nodes: readonly AtspiNode[],
  modalUnstated: ReadonlySet<string> = new Set(),
): AtspiNode | null {
  const isActive = (w: AtspiNode) => hasState(w.states, ATSPI_STATE.active);
  const windows = showingWindows(nodes);
  const active = windows.filter(isActive);
  const apps = new Set(active.map((w) => w.app));
  const modal = windows.filter((w) => isModal(w, modalUnstated) && apps.has(w.app));
  if (modal.length > 0) {
    const chosen = modal.length === 1 ? modal : modal.filter(isActive);
    return chosen.length === 1 ? chosen[0] : null;
  }
  if (active.length <= 1) return active[0] ?? null;
  const focused = new Set(
    nodes.filter((n) => hasState(n.states, ATSPI_STATE.focused)).map((n) => `${n.app} ${n.path}`),
  );
  const holding = active.filter((w) =>
    descendants(nodes, w).some((n) => focused.has(`${n.app} ${n.path}`)),
  );
  return holding.length === 1 ? holding[0] : null;
}

/**
 * The screen's window when no window is active at all (without a window manager, Qt leaves none
 * active once a dialog closes): the showing top-level window of the one application that shows
 * any (popups aside), its modal dialog where it shows one, else its only window; none where two
 * applications show windows, or one shows several and no modal dialog: nothing tells which takes
 * the input.
 */
export function inactiveWindow(
  nodes: readonly AtspiNode[],
  modalUnstated: ReadonlySet<string> = new Set(),
): AtspiNode | null {
  const windows = showingWindows(nodes);
  if (windows.some((w) => hasState(w.states, ATSPI_STATE.active))) return null;
  const own = windows.filter((w) => !isPopupWindow(w));
  if (new Set(own.map((w) => w.app)).size !== 1) return null;
  const modal = own.filter((w) => isModal(w, modalUnstated));
  if (modal.length > 0) return modal.length === 1 ? modal[0] : null;
  return own.length === 1 ? own[0] : null;
}

function childrenIndex(nodes: readonly AtspiNode[]): Map<string, AtspiNode[]> {
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

function descendants(nodes: readonly AtspiNode[], top: AtspiNode): AtspiNode[] {
  const children = childrenIndex(nodes);
  const out: AtspiNode[] = [];
  const stack = [top];
  while (stack.length > 0 && out.length <= nodes.length) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...(children.get(`${n.app} ${n.path}`) ?? []));
  }
  return out;
}

/** A menu whose items open in a popup of their own: one in a menu bar or in a menu. */
const MENU_HOLDERS: ReadonlySet<number> = new Set<number>([
  ATSPI_ROLE.menuBar,
  ATSPI_ROLE.menu,
  ATSPI_ROLE.popupMenu,
]);
const MENU_ENTRY = { role: 'menu', area: 'menu' } as const;
const MENUS: ReadonlySet<number> = new Set<number>([ATSPI_ROLE.menu, ATSPI_ROLE.popupMenu]);

/**
 * A top-level window that is a popup: a menu, or a window of GTK's POPUP kind (a combo box's list,
 * LibreOffice's font name and size lists, an entry's completion), which AT-SPI calls `window`
 * where an application's own windows are frames and dialogs.
 */
export function isPopupWindow(window: AtspiNode): boolean {
  return window.role === ATSPI_ROLE.window || MENUS.has(window.role);
}

export interface ChooseOptions {
  /** The window's own entries (its title, and for a dialog the dialog): false for a popup over it. */
  title?: boolean;
  /** Its toolkit marks no dialog modal (Qt): a dialog window is served as modal. */
  modalUnstated?: boolean;
  /** Why the window is the screen though it is not active: the title's description. */
  unmarked?: string;
}

/**
 * The elements of `window` to serve, parents before children in the application's order: those
 * showing (a hidden menu's items are not on the screen), under showing parents, whose role the
 * table maps, within the bounds (a cell made of cells is left out: its parts are served). The
 * window itself comes first, as the screen's title.
 *
 * Popups: the items of a menu in a menu bar or in a menu are drawn in a popup window of their own
 * (`popup`). A menu anywhere else (a combo box's, a popup window's own) is the open menu itself:
 * left out, as a container, and its items served; for a combo box's, they too are drawn in a popup.
 * In a popup window and in a popup, a cell that cannot be edited is a list's option: a click on it
 * chooses a value (LibreOffice's font sizes, a completion).
 */
export function chooseElements(
  nodes: readonly AtspiNode[],
  window: AtspiNode,
  bounds: OutlineBounds = OUTLINE_BOUNDS,
  options: ChooseOptions = {},
): Chosen[] {
  const children = childrenIndex(nodes);
  const popupWindow = isPopupWindow(window);
  const dialog = DIALOG_ROLES.has(window.role);
  const own = (role: string, area?: OutlineArea): Chosen => ({
    node: window,
    role,
    area,
    password: false,
    text: false,
    dialog,
    popup: false,
    isWindow: true,
    within: null,
  });
  const out: Chosen[] = [];
  if (options.title !== false) {
    const title = own('title');
    if (options.unmarked) title.note = options.unmarked;
    out.push(title);
    if (dialog) {
      const entry = own('dialog', 'dialog');
      if (options.modalUnstated && DIALOG_ROLES.has(window.role)) entry.modal = true;
      out.push(entry);
    }
  }
  const seen = new Set<string>([`${window.app} ${window.path}`]);
  const visit = (
    parent: AtspiNode,
    depth: number,
    area: OutlineArea | undefined,
    within: number | null,
    popup: boolean,
  ) => {
    if (depth > bounds.maxDepth) return;
    for (const n of children.get(`${parent.app} ${parent.path}`) ?? []) {
      if (out.length >= bounds.maxElements) return;
      const key = `${n.app} ${n.path}`;
      if (seen.has(key) || !showing(n)) continue; // a cycle, or not on the screen
      seen.add(key);
      // An open menu that is no item of a menu bar or a menu: its items are what is clicked.
      const openMenu = MENUS.has(n.role) && !MENU_HOLDERS.has(parent.role);
      const listed = popupWindow || popup;
      let entry = openMenu ? null : outlineRole(n.role, n.states);
      // An item of a menu bar, or one that holds a submenu, opens a menu (Qt calls File in its
      // menu bar a menu item, where GTK says menu): navigation. An item that acts stays a command.
      if (entry?.role === 'menuitem' && (parent.role === ATSPI_ROLE.menuBar || n.childCount > 0)) {
        entry = MENU_ENTRY;
      }
      if (entry?.role === 'cell' && listed) entry = { role: 'option' };
      // A nested area (a menu in a toolbar) keeps the outer one's name.
      const inner = area ?? entry?.area ?? (openMenu ? 'menu' : undefined);
      // A cell made of cells (a tree's first column: the expander and the name) is a region: its
      // parts say what is clicked.
      const region =
        (entry?.role === 'cell' || entry?.role === 'option') &&
        (children.get(key) ?? []).some((c) => {
          const role = showing(c) ? outlineRole(c.role, c.states)?.role : undefined;
          return role === 'cell' || role === 'option';
        });
      let holder = within;
      if (entry && !region) {
        holder = out.length;
        const fieldArea = entry.role === 'textbox' || entry.password ? 'input' : undefined;
        out.push({
          node: n,
          role: entry.role,
          area: dialog ? 'dialog' : (inner ?? fieldArea),
          password: entry.password === true,
          text: entry.text === true && n.interfaces.includes(TEXT_INTERFACE),
          dialog,
          popup,
          isWindow: false,
          within,
        });
      }
      // Where its children are drawn: a menu's items in a popup, unless the menu is a popup
      // window's own list.
      const opens = MENUS.has(n.role) && !(openMenu && popupWindow);
      visit(n, depth + 1, inner, holder, popup || opens);
    }
  };
  visit(window, 1, undefined, out.length > 0 ? 0 : null, false);
  return out;
}

/**
 * The windows that may be popups of the screen's `window`: the other showing top-level windows of
 * its application (a combo box's list, a completion, LibreOffice's drop-down lists). Whether one
 * is over the screen, X's stack says.
 */
export function popupCandidates(nodes: readonly AtspiNode[], window: AtspiNode): AtspiNode[] {
  return nodes.filter(
    (n) => n.parent === ROOT_PATH && n.app === window.app && n.path !== window.path && showing(n),
  );
}

export const TEXT_INTERFACE = 'org.a11y.atspi.Text';
export const COMPONENT_INTERFACE = 'org.a11y.atspi.Component';

/**
 * Text as the outline serves it: bidirectional controls and other invisible format characters
 * (GTK wraps amounts in U+2066 … U+2069) and control characters taken out, runs of white space as
 * one space, at most `max` characters (then cut, ending in …).
 */
export function outlineText(value: string, max: number): string {
  const plain = value
    .replace(/\s+/g, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim();
  const chars = [...plain];
  return chars.length <= max ? plain : `${chars.slice(0, max - 1).join('')}…`;
}

/** The outline element of a chosen node, given its rectangle on the screen and its text. */
export function outlineElementOf(
  chosen: Chosen,
  rect: Rect,
  text: string | null,
  bounds: OutlineBounds = OUTLINE_BOUNDS,
  /** A text field whose text is all selected (typing replaces it). */
  textSelected = false,
): OutlineElement {
  const { node } = chosen;
  const id = `${node.app}${node.path}${chosen.isWindow ? `#${chosen.role}` : ''}`;
  const element: OutlineElement = {
    id,
    role: chosen.role,
    name: outlineText(node.name, bounds.maxText),
    rect,
  };
  if (chosen.role === 'title') {
    if (chosen.note) element.description = chosen.note;
    return element;
  }
  const description = outlineText(node.description, bounds.maxText);
  if (description !== '') element.description = description;
  if (chosen.password) element.password = true;
  else if (text !== null) element.value = outlineText(text, bounds.maxText);
  const states = outlineStates(node.role, node.states);
  if (chosen.modal && !states.includes('modal')) states.push('modal');
  if (textSelected && !states.includes('selected')) states.push('selected');
  if (states.length > 0) element.states = states;
  if (chosen.area) element.area = chosen.area;
  return element;
}

/** A rectangle as AT-SPI's GetExtents gives it (x, y, width, height), or null when it is empty. */
export function rectOf(extents: unknown): Rect | null {
  if (!Array.isArray(extents) || extents.length !== 4) return null;
  const [x, y, width, height] = extents as unknown[];
  if (![x, y, width, height].every((v) => typeof v === 'number' && Number.isInteger(v))) {
    return null;
  }
  if ((width as number) <= 0 || (height as number) <= 0) return null;
  return { x: x as number, y: y as number, width: width as number, height: height as number };
}

/**
 * A rectangle as AT-SPI's GetExtents gives it: `empty` when the element reports no area (a
 * collapsed menu bar LibreOffice keeps but does not show), null when there is no answer.
 */
function extentsOf(extents: unknown): Rect | 'empty' | null {
  const rect = rectOf(extents);
  if (rect) return rect;
  if (!Array.isArray(extents) || extents.length !== 4) return null;
  return extents.every((v) => typeof v === 'number' && Number.isInteger(v)) ? 'empty' : null;
}

/**
 * Where each chosen element shows on the screen, given the rectangles they report (GetExtents
 * answers, in the chosen order: parents first): its own; null where it reports none, or where it
 * lies in an element that reports no area (LibreOffice's collapsed menu bar, whose menus report
 * places over the toolbar below it). Rectangles are not otherwise cut to the element they lie
 * in: GTK puts a notebook page's content inside its tab, which is a small part of the page.
 */
export function shownRects(
  chosen: readonly Chosen[],
  extents: readonly unknown[],
): Array<Rect | null> {
  const collapsed: boolean[] = [];
  return chosen.map((c, i) => {
    const own = extentsOf(extents[i]);
    const inCollapsed = c.within !== null && collapsed[c.within];
    collapsed.push(inCollapsed || own === 'empty');
    return inCollapsed || own === null || own === 'empty' ? null : own;
  });
}
