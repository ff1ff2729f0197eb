import {
  contains,
  intersection,
  placeInStack,
  popupLayer,
  uncovered,
  uncoveredParts,
} from './window-stack';

const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const area = (rects: Array<{ width: number; height: number }>) =>
  rects.reduce((sum, p) => sum + p.width * p.height, 0);

describe('what of a window shows under the windows over it', () => {
  it('intersections and containment', () => {
    expect(intersection(r(0, 0, 10, 10), r(5, 5, 10, 10))).toEqual(r(5, 5, 5, 5));
    expect(intersection(r(0, 0, 10, 10), r(10, 0, 5, 5))).toBeNull(); // touching is not overlapping
    expect(contains(r(0, 0, 10, 10), r(2, 2, 8, 8))).toBe(true);
    expect(contains(r(0, 0, 10, 10), r(2, 2, 9, 8))).toBe(false);
  });

  it('an element a window covers on one side shows as the rest; in a corner or the middle, as no rectangle', () => {
    // GnuCash's toolbar (0,25 800x63) under its File menu (0,25 249x330): the toolbar's right part.
    expect(uncovered(r(0, 25, 800, 63), [r(0, 25, 249, 330)])).toEqual(r(249, 25, 551, 63));
    // A cell wholly under the menu: not served.
    expect(uncovered(r(57, 152, 163, 21), [r(0, 25, 249, 330)])).toBeNull();
    // The tab bar (0,88 800x475): the menu covers its top-left corner, what shows is an L.
    expect(uncovered(r(0, 88, 800, 475), [r(0, 25, 249, 330)])).toBeNull();
    // A tooltip inside a table: a hole.
    expect(uncovered(r(0, 0, 100, 100), [r(40, 40, 10, 10)])).toBeNull();
    // Nothing over it, or a window elsewhere: itself.
    expect(uncovered(r(1, 2, 3, 4), [])).toEqual(r(1, 2, 3, 4));
    expect(uncovered(r(1, 2, 3, 4), [r(100, 100, 5, 5)])).toEqual(r(1, 2, 3, 4));
  });

  it('what shows is split into rectangles that do not overlap and make up the rest', () => {
    const rect = r(0, 0, 100, 80);
    const holes = [r(40, 40, 10, 10), r(90, -5, 20, 20), r(-10, 70, 30, 30)];
    const parts = uncoveredParts(rect, holes);
    expect(area(parts)).toBe(100 * 80 - 100 - 10 * 15 - 20 * 10);
    for (const [i, a] of parts.entries()) {
      expect(contains(rect, a)).toBe(true);
      for (const h of holes) expect(intersection(a, h)).toBeNull();
      for (const b of parts.slice(i + 1)) expect(intersection(a, b)).toBeNull();
    }
  });
});

describe('where the screen’s window is in the stack', () => {
  // Xvfb with GnuCash: an offscreen helper, the main window, its File menu over it.
  const stack = [r(10, 10, 10, 10), r(0, 0, 800, 600), r(0, 25, 249, 330)];

  it('the window with exactly its rectangle; of two, the lower', () => {
    expect(placeInStack(stack, r(0, 0, 800, 600))).toBe(1);
    expect(placeInStack([...stack, r(0, 0, 800, 600)], r(0, 0, 800, 600))).toBe(1);
  });

  it('else the smallest that contains it (a frame with a shadow); of equal ones the lower', () => {
    const framed = [r(0, 0, 1280, 800), r(90, 90, 820, 620), r(90, 90, 820, 620)];
    expect(placeInStack(framed, r(100, 100, 800, 600))).toBe(1);
  });

  it('none: -1, every window counts as over it', () => {
    expect(placeInStack(stack, r(900, 700, 100, 50))).toBe(-1);
    expect(placeInStack(stack, null)).toBe(-1);
  });

  it("a popup's element is in the lowest window over the screen's that holds it", () => {
    const menus = [...stack, r(248, 75, 200, 100)]; // a submenu beside the File menu
    expect(popupLayer(menus, 1, r(0, 101, 249, 25))).toBe(2); // Save, in the File menu
    expect(popupLayer(menus, 1, r(248, 80, 200, 25))).toBe(3); // in the submenu
    expect(popupLayer(menus, 1, r(0, 700, 10, 10))).toBeNull(); // in no window over it
    // The window itself is not over itself.
    expect(popupLayer(menus, 2, r(0, 101, 249, 25))).toBeNull();
  });
});
