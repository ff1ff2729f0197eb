/**
 * A screen rule's `regions` (docs/rules.md): rectangles of the screen, in screen pixels, and what a
 * click there is. An application can draw part of its window without any element in the outline
 * (GnuCash's register: its cells are drawn, only the cell editor is published); a click there has
 * no label but what OCR reads, and an empty cell none at all, so it is held on every click. A
 * region that says "read" makes such a click navigation, only where the outline is served and has
 * no element at the point and nothing could read a label (a weakening); a click on an element there
 * is judged by the element, and a verb read there by OCR still makes a write. A region that says
 * "write" makes every click in it a write. Pure.
 */
import { isPlainObject } from '../../common/is-plain-object';
import type { Kind } from './action.types';

export interface ScreenRuleRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  /** What a click in it is. */
  click: Kind;
}

export const REGION_LIMITS = { regions: 50, coordinate: 100_000 } as const;

const FIELDS = ['x', 'y', 'width', 'height', 'click'];
const EXAMPLE = '{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}';

/** A rule's `regions`, checked: the valid ones, and a problem for each that is not. */
export function readRegions(v: unknown, path: string, problems: string[]): ScreenRuleRegion[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > REGION_LIMITS.regions) {
    problems.push(`${path} must be a list of at most ${REGION_LIMITS.regions} regions: ${EXAMPLE}`);
    return [];
  }
  const out: ScreenRuleRegion[] = [];
  v.forEach((item: unknown, i) => {
    const here = `${path}[${i}]`;
    if (!isPlainObject(item)) {
      problems.push(`${here} must be a region: ${EXAMPLE}`);
      return;
    }
    const before = problems.length;
    for (const key of Object.keys(item)) {
      if (!FIELDS.includes(key)) {
        problems.push(
          `${here}.${key.slice(0, 80)} is not a field of a region (${FIELDS.join(', ')})`,
        );
      }
    }
    const int = (name: 'x' | 'y' | 'width' | 'height', min: number): number => {
      const n = item[name];
      if (!Number.isInteger(n) || (n as number) < min || (n as number) > REGION_LIMITS.coordinate) {
        problems.push(
          `${here}.${name} must be an integer from ${min} to ${REGION_LIMITS.coordinate}`,
        );
        return 0;
      }
      return n as number;
    };
    const region = {
      x: int('x', 0),
      y: int('y', 0),
      width: int('width', 1),
      height: int('height', 1),
      click: item.click as Kind,
    };
    if (item.click !== 'read' && item.click !== 'write') {
      problems.push(`${here}.click must be "read" or "write"`);
    }
    if (problems.length === before) out.push(region);
  });
  return out;
}

/** Whether the point lies in the region. */
export function inRegion(region: ScreenRuleRegion, x: number, y: number): boolean {
  return (
    x >= region.x && y >= region.y && x < region.x + region.width && y < region.y + region.height
  );
}

/** The region as the why and the weakening's words name it: `0,130 800×300`. */
export function regionWords(region: ScreenRuleRegion): string {
  return `${region.x},${region.y} ${region.width}×${region.height}`;
}
