/** The outline element at a point: where a click's first label comes from (docs/rules.md, docs/screen-host.md). */
import { isSapCommandFieldId } from '@warden/protocol';
import type { Action, OutlineElement, Rect, ScreenContext } from './action.types';
import { loadRules, roleKey, type Rules } from './rules';
import { isTransactionCode } from './screen-rule-fields';
import { clean } from './text';

function contains(e: OutlineElement, x: number, y: number): boolean {
  const r = e?.rect;
  if (!r) return false;
  const { x: rx, y: ry, width, height } = r;
  if (![rx, ry, width, height].every(Number.isFinite) || width <= 0 || height <= 0) return false;
  return x >= rx && x < rx + width && y >= ry && y < ry + height;
}

/**
 * The smallest element whose rect contains the point (`x ≤ px < x + width`, same for y); of two
 * the same size, the later one in the outline (hosts list parents before children). Null when
 * none. Malformed elements (no rect, non-finite numbers, empty rects) never match.
 */
export function labelAt(outline: OutlineElement[], x: number, y: number): OutlineElement | null {
  let best: OutlineElement | null = null;
  let bestArea = Infinity;
  if (!Array.isArray(outline)) return null;
  for (const e of outline) {
    if (!contains(e, x, y)) continue;
    const area = e.rect.width * e.rect.height;
    if (area <= bestArea) {
      best = e;
      bestArea = area;
    }
  }
  return best;
}

/**
 * The element a click at a point lands on, as a label source: `labelAt`'s element, unless it is a
 * container (a window, pane, toolbar, table …: its name is a title, not what was clicked). Null
 * when there is no outline or no such element.
 */
export function controlAt(
  outline: OutlineElement[] | null,
  x: number,
  y: number,
  rules: Rules = loadRules(),
): OutlineElement | null {
  if (!outline) return null;
  const e = labelAt(outline, x, y);
  return !e || rules.containerRoles.has(roleKey(e.role)) ? null : e;
}

/**
 * Whether a click at the point lands under the agent's `redact_regions`: the point lies in one, or
 * the element there (the smallest, containers too) lost its texts to one.
 */
export function underRedaction(screen: ScreenContext, x: number, y: number): boolean {
  // Actions' points are whole pixels: the pixel at the point.
  const inRegion = underRegion({ x, y, width: 1, height: 1 }, screen.redacted ?? []);
  if (inRegion || !Array.isArray(screen.outline)) return inRegion;
  return labelAt(screen.outline, x, y)?.redacted === true;
}

/**
 * Whether what an action lands on lies under the agent's `redact_regions`, so that the person who
 * approves it cannot see it: a click's or scroll's point; for typing or a key, the focused field
 * (the host's mark or the field last clicked), else the point last clicked (`lastClick`).
 */
export function targetUnderRedaction(
  action: Action,
  screen: ScreenContext,
  lastClick: { x: number; y: number } | null,
): boolean {
  if ((screen.redacted ?? []).length === 0 && !screen.outline?.some((e) => e?.redacted)) {
    return false;
  }
  if ('x' in action && 'y' in action) return underRedaction(screen, action.x, action.y);
  if (action.action !== 'type' && action.action !== 'key') return false;
  const fields = focusedFields(screen);
  if (fields.length > 0) {
    return fields.some(
      (e) => e.redacted === true || (!!e.rect && underRegion(e.rect, screen.redacted ?? [])),
    );
  }
  return lastClick !== null && underRedaction(screen, lastClick.x, lastClick.y);
}

/** Whether a rectangle overlaps any of the regions (touching edges do not). */
export function underRegion(rect: Rect, regions: readonly Rect[]): boolean {
  return regions.some(
    (r) =>
      rect.x < r.x + r.width &&
      r.x < rect.x + rect.width &&
      rect.y < r.y + r.height &&
      r.y < rect.y + rect.height,
  );
}

/** An outline text as a label: trimmed, null when empty or invisible. */
export function labelText(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  return clean(trimmed, Infinity) === '' ? null : trimmed;
}

/**
 * The label the outline gives a point: the name of the element `controlAt` finds, or else its
 * description (an icon button's tooltip). Null when neither says anything: then the pixels are
 * read (docs/rules.md).
 */
export function outlineLabelAt(
  outline: OutlineElement[] | null,
  x: number,
  y: number,
  rules: Rules = loadRules(),
): string | null {
  const e = controlAt(outline, x, y, rules);
  return e ? (labelText(e.name) ?? labelText(e.description)) : null;
}

/**
 * The focused fields the caller knows of: the host's `focused` mark first (the host knows where the
 * keyboard is: a dialog opened since the last click has the focus), then the caller's own belief
 * (`focus`, the element under the point last clicked). A check that looks at one field looks at
 * the first; one that must hold for the focus looks at all.
 */
export function focusedFields(screen: ScreenContext): OutlineElement[] {
  const marked = Array.isArray(screen.outline)
    ? screen.outline.filter((e) => e?.focused === true)
    : [];
  return [...marked, ...(screen.focus ? [screen.focus] : [])];
}

/**
 * The screen's title from its outline (for screen rules): the name of its `title` element. Null
 * when there is none, its name is blank, or the outline has titles that differ: nothing tells
 * which is the screen's. A host that shows a dialog should name the dialog's title, not the
 * screen's behind it (the sim does).
 */
export function outlineTitle(outline: readonly OutlineElement[]): string | null {
  const names = new Set<string>();
  for (const e of outline) {
    if (roleKey(e?.role) !== 'title' || typeof e.name !== 'string') continue;
    const name = clean(e.name, Infinity);
    if (name !== '') names.add(name);
  }
  return names.size === 1 ? [...names][0] : null;
}

/**
 * The session's transaction code the host reports in the outline (an element of role
 * `transaction`, SAP GUI Scripting's `GuiSessionInfo.Transaction`), in upper case, for screen
 * rules. Null when the host reports none, reports codes that differ or one that is not a code, or
 * while a modal dialog is open: the dialog is the window that takes the input, and a rule for
 * the transaction's screens says nothing about a dialog's buttons (as the screen's title gives way
 * to the dialog's).
 */
export function outlineTransaction(outline: readonly OutlineElement[]): string | null {
  const codes = new Set<string>();
  for (const e of outline) {
    if (!e || typeof e !== 'object') continue;
    if (Array.isArray(e.states) && e.states.includes('modal')) return null;
    if (roleKey(e.role) !== 'transaction') continue;
    const code = typeof e.name === 'string' ? e.name.trim().toUpperCase() : '';
    if (!isTransactionCode(code)) return null;
    codes.add(code);
  }
  return codes.size === 1 ? [...codes][0] : null;
}

/** Whether the outline marks the element as a text field (a role of `text_field_roles`). */
export function isTextField(e: OutlineElement | null | undefined, rules: Rules): boolean {
  return !!e && rules.textFieldRoles.has(roleKey(e.role));
}

/**
 * Whether the host marks the element as the command field (docs/rules.md): its area `command_field`,
 * or SAP GUI Scripting's id `wnd[0]/tbar[0]/okcd`. Never guessed from a name in one language.
 */
export function isCommandField(e: OutlineElement | null | undefined): boolean {
  return !!e && (e.area === 'command_field' || isSapCommandFieldId(e.id));
}

/**
 * Whether the outline locates the focus in the command field: the host marks an element focused,
 * and every focused field the caller knows of (the host's marks and its own belief, the field last
 * clicked) is a text field the host marks as the command field. The belief alone is not enough: a
 * dialog that opened since the click has the focus, and a host marks nothing behind it. Without an
 * outline nothing locates it.
 */
export function focusInCommandField(screen: ScreenContext, rules: Rules): boolean {
  if (!Array.isArray(screen.outline)) return false;
  if (!screen.outline.some((e) => e?.focused === true)) return false;
  return focusedFields(screen).every(
    (e) => isTextField(e, rules) && e.password !== true && isCommandField(e),
  );
}
