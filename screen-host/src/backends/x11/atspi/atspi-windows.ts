/**
 * Which top-level window is the screen (pure): the modal dialog, the active window, or where none
 * is active the one that shows; and which other windows of its application may be its popups.
 */
import {
  type AtspiNode,
  childrenIndex,
  DIALOG_ROLES,
  MENUS,
  ROOT_PATH,
  showing,
} from './atspi-node';
import { ATSPI_ROLE, ATSPI_STATE, hasState, WINDOW_ROLES } from './atspi-roles';

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

/**
 * A top-level window that is a popup: a menu, or a window of GTK's POPUP kind (a combo box's list,
 * LibreOffice's font name and size lists, an entry's completion), which AT-SPI calls `window`
 * where an application's own windows are frames and dialogs.
 */
export function isPopupWindow(window: AtspiNode): boolean {
  return window.role === ATSPI_ROLE.window || MENUS.has(window.role);
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
