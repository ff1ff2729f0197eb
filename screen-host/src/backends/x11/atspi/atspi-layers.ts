/**
 * Which of the chosen elements show on top, and where (pure). The outline has no z-order: Warden
 * judges a click by the smallest element containing the point. So an element is served only
 * where nothing is stacked over it, given X's stack of windows (window-stack.ts):
 * - the screen's window's elements, cut by every window over it (a menu, a list, a tooltip, another
 *   application's window): left out where a window covers them, unless what shows of them is
 *   one rectangle, which is served instead;
 * - a popup's elements (a menu's items GTK keeps in the window's own tree; the elements of
 *   another top-level window of the application over the screen's, such as a combo box's list)
 *   in the window that draws them, cut by the windows over that one;
 * - a covered element that has the keyboard focus, a password field, the dialog: kept with no
 *   height, for what they say of typing and of the input, never for a click;
 * - and each window over the screen's is served as a `popup` element where it shows, under its
 *   own elements: a click on it where it has none (a separator, a tooltip, a window AT-SPI does
 *   not describe) lands on a `popup`, which Warden's rules hold as a command, never as the element
 *   of the window under it.
 */
import type { OutlineElement, Rect } from '@warden/protocol';
import type { Chosen } from './atspi-outline';
import { ATSPI_STATE, hasState } from './atspi-roles';
import { intersection, popupLayer, uncovered, uncoveredParts } from '../window-stack';

/** The screen and its windows, viewable, bottom to top, as X stacks them. */
export interface ScreenStack {
  screen: Rect;
  windows: ReadonlyArray<{ id: number; rect: Rect }>;
}

/** Elements chosen from one top-level window, and where in the stack that window is. */
export interface ChosenGroup {
  chosen: readonly Chosen[];
  /** Where each shows by its own rectangle (atspi-outline.ts `shownRects`), in the same order. */
  rects: ReadonlyArray<Rect | null>;
  /** The window's place in the stack; -1: not found, every window counts as over it. */
  layer: number;
  /** The window's own rectangle, where it is not in the stack. */
  window: Rect | null;
}

/**
 * Where each element of `group` is served: its rectangle cut to the window that draws it and to
 * the screen, and to what no window over that one covers; null where it is not served. An
 * element whose word counts for more than clicks (it has the keyboard focus, it is a password
 * field, it is the dialog, whose `modal` says what takes the input) is kept where it is not served,
 * with no height, like the title: typing goes to the focused field whatever covers it, and Warden
 * never types into a password field; but no click is judged on it.
 */
export function layOut(group: ChosenGroup, stack: ScreenStack): Array<Rect | null> {
  const rects = stack.windows.map((w) => w.rect);
  return group.chosen.map((c, i) => {
    const rect = group.rects[i];
    if (!rect) return null;
    const layer = c.popup ? popupLayer(rects, group.layer, rect) : group.layer;
    // A popup's element no window over the screen holds is not served.
    const own = layer === null ? null : layer >= 0 ? rects[layer] : (group.window ?? stack.screen);
    const drawn = own && intersection(rect, own);
    const onScreen = drawn && intersection(drawn, stack.screen);
    const shown = onScreen && uncovered(onScreen, rects.slice((layer ?? 0) + 1));
    if (shown) return shown;
    return keptUnclickable(c) ? { ...rect, height: 0 } : null;
  });
}

function keptUnclickable(c: Chosen): boolean {
  return c.isWindow || c.password || hasState(c.node.states, ATSPI_STATE.focused);
}

/**
 * The windows over the screen's window (`base`) as `popup` elements, each where it shows (the
 * rectangles no window over it covers), lowest first.
 */
export function popupBackdrops(stack: ScreenStack, base: number): OutlineElement[] {
  const rects = stack.windows.map((w) => w.rect);
  const out: OutlineElement[] = [];
  for (let i = base + 1; i < rects.length; i++) {
    const onScreen = intersection(rects[i], stack.screen);
    if (!onScreen) continue; // off the screen (GTK keeps a 10x10 window at -100,-100)
    const id = `x11:0x${stack.windows[i].id.toString(16)}#popup`;
    uncoveredParts(onScreen, rects.slice(i + 1)).forEach((rect, part) => {
      out.push({ id: part === 0 ? id : `${id}-${part}`, role: 'popup', name: '', rect });
    });
  }
  return out;
}
