/** Finding the text line on real pixels: buttons drawn with real TrueType fonts, no OCR. */
import { centre, layout, render } from '../../../test/support/rendered-screen';
import { findTextLine } from './text-line';

describe('findTextLine (no OCR)', () => {
  it('finds the glyphs of the button under the point, and nothing beyond its frame', () => {
    const buttons = layout(
      ['Save', 'Post'].map((text) => ({ text, size: 13, font: 'sans' })),
      400,
    );
    const s = render(400, 100, buttons);
    for (const b of buttons) {
      const { x, y } = centre(b);
      const line = findTextLine(s.rgba, x, y)!;
      expect(line).not.toBeNull();
      const { x0, y0 } = line.analysis.window;
      expect(line.minX + x0).toBeGreaterThan(b.x);
      expect(line.maxX + x0).toBeLessThan(b.x + b.width);
      expect(line.top + y0).toBeGreaterThan(b.y);
      expect(line.bottom + y0).toBeLessThan(b.y + b.height);
    }
  });
});
