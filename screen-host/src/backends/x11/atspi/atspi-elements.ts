/**
 * From a chosen element, its rectangle and its text to the outline element (pure): every string
 * bounded, the states the outline knows, and where each element shows by the rectangles AT-SPI
 * reports.
 */
import type { OutlineElement, Rect } from '@warden/protocol';
import { OUTLINE_BOUNDS, type OutlineBounds } from './atspi-node';
import type { Chosen } from './atspi-outline';
import { outlineStates } from './atspi-roles';

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
