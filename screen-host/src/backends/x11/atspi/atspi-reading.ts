/**
 * How the host reads a window's elements without ever asking an application for an unbounded
 * amount of work (pure). An application answers AT-SPI on its own main thread: a question whose
 * answer grows with the document (Collection.GetMatches over a whole window, which visits every
 * descendant, shown or not; GetChildren of LibreOffice Calc's sheet, 2,147,483,647 cells) holds
 * the application itself up, long after the host's deadline has given up on it. So the host walks
 * the window level by level, asks for an element's children only when it knows there are few,
 * and reads a large table (an element that manages its descendants) by the cells it shows.
 */
import type { AtspiNode } from './atspi-node';

/** Children asked for at most; an element with more is read by the cells it shows, or not at all. */
export const MAX_LISTED_CHILDREN = 500;
/**
 * Cells of one large table read at most: its visible range, row by row from the top left. Each
 * costs the application about a millisecond (LibreOffice makes the cell's accessible object when
 * asked), so a whole screen of a spreadsheet (435 cells at 1280x800) would be half a second.
 */
export const MAX_TABLE_CELLS = 200;
export const TABLE_INTERFACE = 'org.a11y.atspi.Table';

/**
 * What to do for an element's children:
 * - `none`: it has none, or too many and no table to read them by (what is inside is unlabelled);
 * - `count`: how many is not known (an element that manages its descendants does not say in its
 *   properties): ask that first;
 * - `list`: ask for those that show;
 * - `cells`: a large table: read the cells it shows.
 */
export type ChildrenPlan = 'none' | 'count' | 'list' | 'cells';

/** The plan for `node`'s children, given how many it has (`count`, -1 when not known). */
export function childrenPlan(node: AtspiNode, count: number): ChildrenPlan {
  if (!Number.isInteger(count) || count < 0) return 'count';
  if (count === 0) return 'none';
  if (count > MAX_LISTED_CHILDREN) {
    return node.interfaces.includes(TABLE_INTERFACE) ? 'cells' : 'none';
  }
  return 'list';
}

export interface CellPlace {
  row: number;
  column: number;
}

/**
 * The cells between two corners of what a table shows (either order: a right-to-left sheet puts
 * its first column on the right), row by row, at most `max`.
 */
export function cellRange(a: CellPlace, b: CellPlace, max = MAX_TABLE_CELLS): CellPlace[] {
  const cells: CellPlace[] = [];
  const [r0, r1] = [Math.min(a.row, b.row), Math.max(a.row, b.row)];
  const [c0, c1] = [Math.min(a.column, b.column), Math.max(a.column, b.column)];
  for (let row = r0; row <= r1 && cells.length < max; row++) {
    for (let column = c0; column <= c1 && cells.length < max; column++) {
      cells.push({ row, column });
    }
  }
  return cells;
}

/**
 * What of a text field's text (`length` characters) is selected, from Text's GetNSelections and
 * GetSelection(0) (either order of the ends):
 * - `all`: one selection holds all of it: typing replaces what is there, and the outline says
 *   `selected`;
 * - `part`: some of it (one selection that does not hold all of it, or several): typing replaces
 *   that part only, which the outline cannot say, so the field is served without its value (the
 *   approval then says the typing replaces or is added to it, never that it is added at the
 *   cursor beside all that is there);
 * - `none`: nothing, an empty field, or answers of another shape (nothing says otherwise: as
 *   before).
 */
export function selectionOf(
  length: number,
  selections: unknown,
  first: unknown,
): 'all' | 'part' | 'none' {
  if (!Number.isInteger(length) || length <= 0 || !Number.isInteger(selections)) return 'none';
  if ((selections as number) > 1) return 'part';
  if (selections !== 1 || !Array.isArray(first) || first.length !== 2) return 'none';
  const [a, b] = first as unknown[];
  if (!Number.isInteger(a) || !Number.isInteger(b) || a === b) return 'none';
  const [start, end] = [Math.min(a as number, b as number), Math.max(a as number, b as number)];
  return start <= 0 && end >= length ? 'all' : 'part';
}
