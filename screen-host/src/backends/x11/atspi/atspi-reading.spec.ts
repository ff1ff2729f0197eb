import type { AtspiNode } from './atspi-node';
import {
  cellRange,
  childrenPlan,
  MAX_LISTED_CHILDREN,
  selectionOf,
  MAX_TABLE_CELLS,
  TABLE_INTERFACE,
} from './atspi-reading';

function element(interfaces: string[] = []): AtspiNode {
  return {
    app: ':1.9',
    path: '/e',
    parent: '/w',
    index: 0,
    childCount: 0,
    name: '',
    description: '',
    role: 55,
    states: [0, 0],
    interfaces,
  };
}

describe("what is asked of an element's children", () => {
  it.each([
    ['none, when it has none', 0, [], 'none'],
    ['a list of those that show, when there are few', 12, [], 'list'],
    ['a list, up to the bound', MAX_LISTED_CHILDREN, [], 'list'],
    ['how many first, when it does not say', -1, [], 'count'],
    ['the cells it shows, when it is a large table', 2147483647, [TABLE_INTERFACE], 'cells'],
    ['nothing, when it is large and no table', MAX_LISTED_CHILDREN + 1, [], 'none'],
  ])('%s', (_what, count, interfaces, plan) => {
    expect(childrenPlan(element(interfaces), count)).toBe(plan);
  });
});

describe('the cells a table shows', () => {
  it('row by row between the corners, in either order', () => {
    const cells = [
      { row: 3, column: 1 },
      { row: 3, column: 2 },
      { row: 4, column: 1 },
      { row: 4, column: 2 },
    ];
    expect(cellRange({ row: 3, column: 1 }, { row: 4, column: 2 })).toEqual(cells);
    // A right-to-left sheet: its first column is on the right.
    expect(cellRange({ row: 3, column: 2 }, { row: 4, column: 1 })).toEqual(cells);
  });

  it('at most the bound, from the top left', () => {
    const cells = cellRange({ row: 0, column: 0 }, { row: 1_048_575, column: 16_383 });
    expect(cells).toHaveLength(MAX_TABLE_CELLS);
    expect(cells[0]).toEqual({ row: 0, column: 0 });
    expect(cellRange({ row: 0, column: 0 }, { row: 9, column: 9 }, 15)).toHaveLength(15);
  });
});

describe("what of a text field's text is selected", () => {
  it('all: one selection from the first character to the last', () => {
    expect(selectionOf(8, 1, [0, 8])).toBe('all');
    expect(selectionOf(8, 1, [8, 0])).toBe('all');
  });

  it('part: one selection that leaves some out, or several', () => {
    expect(selectionOf(8, 1, [0, 7])).toBe('part');
    expect(selectionOf(8, 1, [1, 8])).toBe('part');
    expect(selectionOf(8, 1, [5, 2])).toBe('part');
    expect(selectionOf(8, 2, [0, 8])).toBe('part');
  });

  it('none: no selection, an empty one (the caret), an empty field, or answers of another shape', () => {
    expect(selectionOf(8, 0, [0, 8])).toBe('none');
    expect(selectionOf(8, 1, [3, 3])).toBe('none');
    expect(selectionOf(0, 1, [0, 0])).toBe('none');
    expect(selectionOf(8, 1, null)).toBe('none');
    expect(selectionOf(8, 1, ['0', 8])).toBe('none');
    expect(selectionOf(8, null, null)).toBe('none');
  });
});
