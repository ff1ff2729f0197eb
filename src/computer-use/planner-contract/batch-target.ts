/**
 * A batch (docs/step-flow.md, "A batch"): what the model saw where each of its actions lands, kept
 * when it answered, and whether the screen still shows it when the action's turn comes. The first
 * action of a turn is judged on the screen the model saw; every later one on the screen as it is
 * then, and it goes only where that screen still shows what the model saw there: the same outline
 * element (role, name and rect), or without one the same pixels around the point; and no dialog
 * opened that the model did not see. Anything else stops the batch. Pure.
 */
import { sha256Hex } from '../../common/sha256';
import { labelAt, type OutlineElement } from '../actions';
import { decodePng, type Decoded } from '../pixels/png-decoder';

/** The parts of a screen the comparison reads (an ObservedScreen has them). */
interface ScreenFacts {
  outline: OutlineElement[] | null;
  /** The host's coordinate space. */
  width: number;
  height: number;
  png: Buffer;
}

/** An outline element as the comparison keeps it. */
export interface SeenElement {
  role: string;
  name: string | null;
  rect: { x: number; y: number; width: number; height: number };
}

/** What the screen the model decided on showed for one of its actions. */
export interface TargetSeen {
  /**
   * The outline's element at the point (null: none there); absent when that screen had no
   * outline or the action has no point.
   */
  element?: SeenElement | null;
  /** SHA-256 of the pixels around the point, where no element names it. */
  pixels?: string;
  /** The dialogs that screen showed (`role|name|rect`). */
  dialogs: string[];
}

/** Pixels on each side of the point compared where no outline element names it. */
export const TARGET_BOX_RADIUS = 12;

function seenElement(e: OutlineElement): SeenElement {
  const { x, y, width, height } = e.rect;
  return {
    role: e.role,
    name: typeof e.name === 'string' ? e.name : null,
    rect: { x, y, width, height },
  };
}

function keyOf(e: SeenElement): string {
  const r = e.rect;
  return `${e.role}|${e.name ?? ''}|${r.x},${r.y},${r.width},${r.height}`;
}

/** A dialog over the screen: the outline's `dialog` area or a `modal` element. */
function dialogsOf(outline: OutlineElement[] | null): string[] {
  if (!Array.isArray(outline)) return [];
  return outline
    .filter((e) => e?.area === 'dialog' || (Array.isArray(e?.states) && e.states.includes('modal')))
    .filter((e) => e.rect)
    .map((e) => keyOf(seenElement(e)));
}

function describe(e: SeenElement | null): string {
  if (!e) return 'no element';
  return `${e.role}${e.name ? ` "${e.name.slice(0, 60)}"` : ''} at ${e.rect.x},${e.rect.y} (${e.rect.width}x${e.rect.height})`;
}

/** SHA-256 of the pixels in the box around a point given in the screen's coordinates. */
function boxHash(image: Decoded, space: { width: number; height: number }, x: number, y: number) {
  const px = Math.floor((x * image.width) / space.width);
  const py = Math.floor((y * image.height) / space.height);
  const x0 = Math.max(0, px - TARGET_BOX_RADIUS);
  const x1 = Math.min(image.width, px + TARGET_BOX_RADIUS + 1);
  const y0 = Math.max(0, py - TARGET_BOX_RADIUS);
  const y1 = Math.min(image.height, py + TARGET_BOX_RADIUS + 1);
  const rows: Buffer[] = [Buffer.from(`${x1 - x0}x${y1 - y0}`)];
  for (let row = y0; row < y1; row++) {
    const start = (row * image.width + x0) * 4;
    rows.push(image.rgba.subarray(start, start + (x1 - x0) * 4));
  }
  return sha256Hex(Buffer.concat(rows));
}

/** The point an action lands on, or null (typing, keys, waiting). */
export function pointOf(action: unknown): { x: number; y: number } | null {
  if (typeof action !== 'object' || action === null) return null;
  const a = action as Record<string, unknown>;
  return Number.isSafeInteger(a.x) && Number.isSafeInteger(a.y)
    ? { x: a.x as number, y: a.y as number }
    : null;
}

/**
 * What `screen` (the one the model decided on) shows for `action`. `decode` is called at most
 * once, and only where the pixels are compared.
 */
export function targetSeen(
  screen: Pick<ScreenFacts, 'outline' | 'width' | 'height'>,
  action: unknown,
  decode: () => Decoded,
): TargetSeen {
  const seen: TargetSeen = { dialogs: dialogsOf(screen.outline) };
  const point = pointOf(action);
  if (!point) return seen;
  if (screen.outline) {
    const e = labelAt(screen.outline, point.x, point.y);
    seen.element = e ? seenElement(e) : null;
    if (e) return seen;
  }
  seen.pixels = boxHash(decode(), screen, point.x, point.y);
  return seen;
}

/**
 * Whether the screen as it is now still shows, where `action` lands, what the model saw there:
 * null when it does, else why not in a sentence. Fails closed: an outline the model had and the
 * screen now lacks, or pixels that cannot be compared, stop the batch.
 */
export function targetChanged(
  seen: TargetSeen,
  now: ScreenFacts,
  action: unknown,
  decode: (png: Buffer) => Decoded = decodePng,
): string | null {
  const opened = dialogsOf(now.outline).filter((d) => !seen.dialogs.includes(d));
  if (opened.length > 0) {
    const name = opened[0].split('|')[1];
    return `a dialog${name ? ` "${name.slice(0, 60)}"` : ''} opened after the model saw the screen`;
  }
  const point = pointOf(action);
  if (!point) return null;
  if (seen.element !== undefined) {
    if (!now.outline)
      return 'the screen host serves no outline now, so what the action lands on cannot be told';
    const e = labelAt(now.outline, point.x, point.y);
    const current = e ? seenElement(e) : null;
    if (seen.element || current) {
      if (seen.element && current && keyOf(seen.element) === keyOf(current)) return null;
      return `where it lands the screen shows ${describe(current)}, where the model saw ${describe(seen.element ?? null)}`;
    }
  }
  if (seen.pixels === undefined) return 'what the model saw where it lands was not kept';
  try {
    if (boxHash(decode(now.png), now, point.x, point.y) === seen.pixels) return null;
  } catch {
    return 'the screen could not be decoded to compare what is where the action lands';
  }
  return 'the pixels where it lands are not those the model saw';
}
