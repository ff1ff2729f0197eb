import { PNG } from 'pngjs';
import type { OutlineElement } from '../actions';
import { decodePng } from '../pixels/png-decoder';
import { targetChanged, targetSeen } from './batch-target';

const field = (name: string, x = 100): OutlineElement => ({
  id: name,
  role: 'textbox',
  name,
  rect: { x, y: 100, width: 200, height: 20 },
});
const dialog: OutlineElement = {
  id: 'popup',
  role: 'dialog',
  name: 'Information',
  rect: { x: 0, y: 0, width: 640, height: 400 },
  states: ['modal'],
  area: 'dialog',
};

function png(paint: (x: number, y: number) => number): Buffer {
  const image = new PNG({ width: 64, height: 40 });
  for (let y = 0; y < 40; y++) {
    for (let x = 0; x < 64; x++) {
      const i = (y * 64 + x) * 4;
      image.data.fill(paint(x, y), i, i + 3);
      image.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(image);
}

const screen = (outline: OutlineElement[] | null, bytes = png(() => 200)) => ({
  outline,
  width: 640,
  height: 400,
  png: bytes,
});
const click = { action: 'click', x: 150, y: 110 };

describe('what the model saw where an action of a batch lands', () => {
  it('the same element by role, name and rect: the action goes', () => {
    const seen = targetSeen(screen([field('Order')]), click, () => decodePng(png(() => 0)));
    expect(seen).toEqual({
      dialogs: [],
      element: { role: 'textbox', name: 'Order', rect: { x: 100, y: 100, width: 200, height: 20 } },
    });
    expect(targetChanged(seen, screen([field('Order')]), click)).toBeNull();
  });

  it.each([
    ['another name', [field('Sold-to party')]],
    ['another rect', [field('Order', 120)]],
    ['no element', []],
  ])('%s there: the batch stops', (_what, now) => {
    const seen = targetSeen(screen([field('Order')]), click, () => decodePng(png(() => 0)));
    expect(targetChanged(seen, screen(now), click)).toMatch(/where the model saw textbox "Order"/);
  });

  it('an outline the model had and the screen now lacks stops it (fails closed)', () => {
    const seen = targetSeen(screen([field('Order')]), click, () => decodePng(png(() => 0)));
    expect(targetChanged(seen, screen(null), click)).toMatch(/no outline now/);
  });

  it('a dialog opened since stops any screen action, with or without a point', () => {
    const seen = targetSeen(screen([field('Order')]), click, () => decodePng(png(() => 0)));
    expect(targetChanged(seen, screen([field('Order'), dialog]), click)).toMatch(
      /a dialog "Information" opened/,
    );
    const typing = targetSeen(screen([field('Order')]), { action: 'type', text: 'x' }, () => {
      throw new Error('no pixels needed');
    });
    expect(targetChanged(typing, screen([field('Order'), dialog]), { action: 'type' })).toMatch(
      /opened after the model saw/,
    );
    // A dialog the model saw is no change.
    const withDialog = targetSeen(screen([dialog]), { action: 'type' }, () =>
      decodePng(png(() => 0)),
    );
    expect(targetChanged(withDialog, screen([dialog]), { action: 'type' })).toBeNull();
  });

  it('without an outline, the pixels around the point are compared', () => {
    const before = png(() => 200);
    const seen = targetSeen(screen(null, before), click, () => decodePng(before));
    expect(seen.pixels).toMatch(/^[0-9a-f]{64}$/);
    expect(
      targetChanged(
        seen,
        screen(
          null,
          png(() => 200),
        ),
        click,
      ),
    ).toBeNull();
    // A change far from the point is no change there; one under it is.
    const far = png((x, y) => (x > 50 && y > 30 ? 0 : 200));
    expect(targetChanged(seen, screen(null, far), click)).toBeNull();
    const under = png((x, y) => (x === 15 && y === 11 ? 0 : 200));
    expect(targetChanged(seen, screen(null, under), click)).toMatch(/pixels where it lands/);
  });
});
