/**
 * The outline of the active SAP GUI session (docs/screen-host.md), from what SAP GUI Scripting says of it:
 * the snapshot the PowerShell helper read (sapgui-snapshot.ts) mapped element by element
 * (sapgui-elements.ts), placed on the screen the host's screenshots show (sapgui-geometry.ts).
 * docs/screen-host.md lists every field. Pure; not yet run against a real SAP GUI.
 *
 * - Only what can be seen: elements without a rectangle (a closed menu's entries), outside their
 *   window, scrolled out of their user area, scroll container or table control, or off the
 *   served screen are left out; what shows is cut to what shows.
 * - A modal window (a popup, `wnd[1]`) takes all input: of the windows below it only what it
 *   does not cover stays, and only the active window's title is served, so that a screen rule
 *   for the screen behind does not apply to the popup's buttons.
 * - Fail closed: when SAP GUI is not the window in front, or its windows cannot be placed by one
 *   scale, or the session holds more than the outline takes, there is no outline (Warden then
 *   reads the pixels), never a partial or misplaced one.
 */
import { MESSAGE_TYPES, type MessageType, transactionElement } from '@warden/protocol';
import type { OutlineElement, Rect } from '../../backend';
import { elementOf, type Place, sapRect, shortId, WINDOW_TYPES } from './sapgui-elements';
import { intersect, overlaps, place, type Placement, placementOf } from './sapgui-geometry';
import {
  sapBool,
  type SapGuiRefusal,
  type SapGuiSnapshot,
  type SapNode,
  type SapStatus,
} from './sapgui-snapshot';

/** The most elements one outline holds; a session with more gets none (Warden reads pixels). */
export const MAX_OUTLINE_ELEMENTS = 3000;

/** GuiSessionInfo as the host reports it: which system, client, user and transaction. */
export interface SapSessionFacts {
  system: string | null;
  client: string | null;
  user: string | null;
  language: string | null;
  transaction: string | null;
  program: string | null;
  screen: string | null;
  /** sapgui/user_scripting_set_readonly: scripts may read and nothing else. */
  readOnly: boolean | null;
  recordingDisabled: boolean | null;
}

export interface SapGuiOutline {
  elements: OutlineElement[];
  session: SapSessionFacts;
  source: SapGuiSnapshot['source'];
}

/** Elements that cut what they hold to their own rectangle: what is scrolled away is not shown. */
const CLIPPING: ReadonlySet<string> = new Set([
  ...WINDOW_TYPES,
  'GuiUserArea',
  'GuiScrollContainer',
  'GuiTableControl',
]);
const MESSAGE_TYPE_SET: ReadonlySet<string> = new Set(MESSAGE_TYPES);

export function sessionFacts(info: SapGuiSnapshot['session']): SapSessionFacts {
  const text = (key: string) => {
    const v = (info[key] ?? '').trim();
    return v === '' ? null : v.slice(0, 100);
  };
  return {
    system: text('SystemName'),
    client: text('Client'),
    user: text('User'),
    language: text('Language'),
    transaction: text('Transaction'),
    program: text('Program'),
    screen: text('ScreenNumber'),
    readOnly: sapBool(info.ScriptingModeReadOnly),
    recordingDisabled: sapBool(info.ScriptingModeRecordingDisabled),
  };
}

interface WindowOutline {
  index: number;
  id: string;
  /** The window on the served screen; null when none of it is on it. */
  rect: Rect | null;
  elements: OutlineElement[];
  /** Its GuiTitlebar's element, or one made from the window's own text. */
  title: OutlineElement | null;
}

function windowIndex(id: string): number {
  const m = /wnd\[(\d+)\]$/.exec(id);
  return m ? Number(m[1]) : -1;
}

/** The status bar's element gets its text and type as read on their own, where they were. */
function withStatus(element: OutlineElement, status: SapStatus | null, node: SapNode): void {
  const own = status && shortId(status.id) === element.id ? status : null;
  const text = own ? own.text : (node.properties.Text ?? '');
  const type = (own ? own.messageType : (node.properties.MessageType ?? '')).trim().toUpperCase();
  element.name = text.replace(/\s+/g, ' ').trim().slice(0, 500);
  if (MESSAGE_TYPE_SET.has(type)) element.message_type = type as MessageType;
}

function outlineOfWindow(
  root: SapNode,
  placement: Placement,
  screen: Rect,
  snapshot: SapGuiSnapshot,
): WindowOutline {
  const id = shortId(root.properties.Id ?? '');
  const own = sapRect(root.properties);
  const rect = own ? intersect(place(own, placement), screen) : null;
  const focus = snapshot.focus === null ? null : shortId(snapshot.focus);
  const out: WindowOutline = { index: windowIndex(id), id, rect, elements: [], title: null };
  if (!rect) return out;
  const modal = root.properties.Type !== 'GuiMainWindow';

  const visit = (node: SapNode, where: Place, clip: Rect, siblings: readonly SapNode[]) => {
    const p = node.properties;
    const type = p.Type ?? '';
    const at = sapRect(p);
    const placed = at ? intersect(place(at, placement), clip) : null;
    const made = elementOf(node, where, siblings, focus);
    if (made && placed) {
      const { id: eid, role, name, ...rest } = made;
      const element: OutlineElement = { id: eid, role, name, rect: placed, ...rest };
      if (type === 'GuiStatusbar') withStatus(element, snapshot.status, node);
      if (type === 'GuiTitlebar') out.title = element;
      else out.elements.push(element);
    }
    // A status bar's panes (system, client, server) are not served; nor is what a window or
    // container with no place on the screen holds, when it clips.
    if (type === 'GuiStatusbar') return;
    let inner = clip;
    if (CLIPPING.has(type)) {
      if (!at) return;
      const cut = intersect(place(at, placement), clip);
      if (!cut) return;
      inner = cut;
    }
    const next: Place = {
      ...where,
      userArea: where.userArea || type === 'GuiUserArea',
      toolbar: where.toolbar || type === 'GuiToolbar',
      menu:
        type === 'GuiMenubar'
          ? 'bar'
          : type === 'GuiMenu' || type === 'GuiContextMenu'
            ? 'item'
            : where.menu,
    };
    for (const child of node.children) visit(child, next, inner, node.children);
  };
  visit(root, { window: id, modal, userArea: false, toolbar: false, menu: null }, rect, []);

  if (!out.title) {
    const text = (root.properties.Text ?? '').replace(/\s+/g, ' ').trim();
    // No GuiTitlebar (the classic design, a popup): the window's caption, with no rectangle of
    // its own, so that no click lands on it.
    if (text !== '') {
      out.title = {
        id: `${id}/titl`,
        role: 'title',
        name: text,
        rect: { x: rect.x, y: rect.y, width: 0, height: 0 },
      };
    }
  }
  return out;
}

/**
 * The outline of the snapshot's session on a screen of `size` (the coordinate space of the
 * host's screenshots and actions), or why there is none.
 */
export function sapGuiOutline(
  snapshot: SapGuiSnapshot,
  size: { width: number; height: number },
): SapGuiOutline | SapGuiRefusal {
  if (!snapshot.foreground) {
    return {
      refused: 'not_in_front',
      detail:
        'SAP GUI is not the window in front, so the screen shows something its outline does not describe',
    };
  }
  const screen: Rect = { x: 0, y: 0, width: size.width, height: size.height };
  const windows: WindowOutline[] = [];
  for (let n = 0; n < snapshot.windows.length; n++) {
    const facts = snapshot.windows[n];
    const tree = snapshot.trees[n];
    const root = tree.children.length === 1 ? tree.children[0] : null;
    if (!root || root.properties.Id !== facts.id || !WINDOW_TYPES.has(root.properties.Type ?? '')) {
      return {
        refused: 'unreadable',
        detail: `the tree read for ${shortId(facts.id)} is not that window's`,
      };
    }
    const own = sapRect(root.properties);
    const placement = placementOf(
      own ?? { x: 0, y: 0, width: 0, height: 0 },
      facts.windowRect,
      shortId(facts.id),
    );
    if ('refused' in placement) return placement;
    windows.push(outlineOfWindow(root, placement, screen, snapshot));
  }
  windows.sort((a, b) => a.index - b.index);
  const active = windows.find((w) => w.id === shortId(snapshot.activeWindow));
  if (!active) {
    return { refused: 'unreadable', detail: 'the active window is not among the windows read' };
  }
  if (!active.rect) {
    return {
      refused: 'not_in_front',
      detail: `SAP GUI's active window ${active.id} is not on the screen this host serves`,
    };
  }
  const elements: OutlineElement[] = [];
  for (const w of windows) {
    const above = windows.filter((o) => o.index > w.index && o.rect).map((o) => o.rect as Rect);
    for (const e of w.elements) {
      if (!above.some((r) => overlaps(e.rect, r))) elements.push(e);
    }
    if (w === active && w.title) elements.push(w.title);
  }
  if (elements.length > MAX_OUTLINE_ELEMENTS) {
    return {
      refused: 'too_large',
      detail: `the screen holds ${elements.length} elements, more than the ${MAX_OUTLINE_ELEMENTS} an outline takes`,
    };
  }
  const session = sessionFacts(snapshot.session);
  if (session.transaction) elements.push(transactionElement(session.transaction));
  return { elements, session, source: snapshot.source };
}
