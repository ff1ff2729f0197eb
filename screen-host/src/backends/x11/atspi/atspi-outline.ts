/**
 * Which elements of the screen's window are served, in what order, and with what role and area
 * (pure): those that show, under showing parents, whose role the table maps; menus' items as
 * drawn in popups. The window is chosen in atspi-windows.ts; each element's rectangle and text
 * become an outline element in atspi-elements.ts; the D-Bus side is atspi-client.ts.
 */
import type { OutlineArea } from '@warden/protocol';
import {
  type AtspiNode,
  childrenIndex,
  DIALOG_ROLES,
  MENUS,
  OUTLINE_BOUNDS,
  type OutlineBounds,
  showing,
  TEXT_INTERFACE,
} from './atspi-node';
import { ATSPI_ROLE, outlineRole } from './atspi-roles';
import { isPopupWindow } from './atspi-windows';

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

/** A menu whose items open in a popup of their own: one in a menu bar or in a menu. */
const MENU_HOLDERS: ReadonlySet<number> = new Set<number>([
  ATSPI_ROLE.menuBar,
  ATSPI_ROLE.menu,
  ATSPI_ROLE.popupMenu,
]);
const MENU_ENTRY = { role: 'menu', area: 'menu' } as const;

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
