/**
 * Text no person can see (issue 16 §2): drawn boxes at contrasts around the line, and every text
 * the sim draws, in both languages, with a dialog and a status message, seen as drawn.
 */
import type { SimLang } from '../../../screen-host/src/backends/sim/sim-labels';
import { go, pixelsOf, SIM_SIZE, simAfter } from '../../../test/support/sim-pixels';
import type { RgbaImage } from '../ocr/glyph-components';
import { pixelRects } from '../pixels/pixels';
import { faintText } from './text-contrast';

type Rgb = [number, number, number];

function image(width: number, height: number, fill: Rgb): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...fill, 255], i);
  return { width, height, data };
}

function paint(img: RgbaImage, x0: number, y0: number, w: number, h: number, c: Rgb): void {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) img.data.set([...c, 255], (y * img.width + x) * 4);
  }
}

/** Strokes like a line of 12 px text, 2 px wide, every 5 px across the box. */
function strokes(img: RgbaImage, x0: number, y0: number, width: number, c: Rgb): void {
  for (let x = x0; x < x0 + width; x += 5) paint(img, x, y0, 2, 12, c);
}

const BOX = { x0: 10, y0: 10, x1: 210, y1: 32 };
const WHITE: Rgb = [255, 255, 255];

describe('text no person can see', () => {
  it.each<[string, Rgb, boolean]>([
    ['black', [0, 0, 0], false],
    ['mid grey', [128, 128, 128], false],
    ['light grey #cccccc, 1.6:1', [204, 204, 204], false],
    ['light grey #e0e0e0, 1.3:1', [224, 224, 224], true],
    ['one step off white', [254, 254, 254], true],
    ['white', WHITE, true],
  ])('text in %s on white: faint %s', (_, colour, faint) => {
    const img = image(220, 40, WHITE);
    strokes(img, 14, 15, 150, colour);
    expect(faintText(img, BOX, 30)).toBe(faint);
  });

  it('works on dark backgrounds too', () => {
    const img = image(220, 40, [20, 20, 30]);
    strokes(img, 14, 15, 150, [24, 24, 34]);
    expect(faintText(img, BOX, 30)).toBe(true);
    strokes(img, 14, 15, 150, [200, 200, 200]);
    expect(faintText(img, BOX, 30)).toBe(false);
  });

  it('does not take a frame or a caret for text', () => {
    const img = image(220, 40, WHITE);
    paint(img, 10, 10, 200, 1, [0, 0, 0]);
    paint(img, 10, 31, 200, 1, [0, 0, 0]);
    paint(img, 10, 10, 1, 22, [0, 0, 0]);
    paint(img, 209, 10, 1, 22, [0, 0, 0]);
    paint(img, 14, 14, 1, 14, [0, 0, 0]); // a caret
    expect(faintText(img, BOX, 30)).toBe(true);
    strokes(img, 20, 15, 40, [0, 0, 0]); // a word in the field
    expect(faintText(img, BOX, 30)).toBe(false);
  });

  it('does not judge a box too small, or off the screen', () => {
    const img = image(220, 40, WHITE);
    expect(faintText(img, { x0: 10, y0: 10, x1: 16, y1: 16 }, 30)).toBeNull();
    expect(faintText(img, { x0: 230, y0: 10, x1: 400, y1: 30 }, 30)).toBeNull();
  });

  describe.each(['en', 'de'] as SimLang[])('every text the %s sim draws', (lang) => {
    const POPUP = { title: 'Save changes?', message: 'Data will be lost.', buttons: ['Yes', 'No'] };
    const ORDER = [
      ...go('VA02'),
      { action: 'click', x: 255, y: 183 },
      { action: 'type', text: '4711' },
      { action: 'key', key: 'Enter' },
    ];
    const SCREENS: Array<[string, unknown[]]> = [
      ['SAP Easy Access', []],
      ['VA02, initial screen', go('VA02')],
      ['VA02, order 4711', ORDER],
      ['FB50', go('FB50')],
      ['PWD', go('PWD')],
    ];

    it.each(SCREENS)('%s, with a status message and with a dialog: seen', (_, actions) => {
      for (const popup of [undefined, POPUP]) {
        const { app } = simAfter(lang, actions, popup);
        app.poke('Order 4711 has been saved');
        const img = pixelsOf(app);
        // What the rail would look at: the names a box draws, and the fields' values (but
        // FB50's balance, a number aligned right, which the rail does not judge: one word; and
        // the transaction code, which no box draws: one word too).
        const texts = app
          .outline()
          .flatMap((e) =>
            e.role === 'textbox'
              ? e.value && e.id !== 'balance'
                ? [{ text: e.value, rect: e.rect }]
                : []
              : e.role === 'list' || e.role === 'dialog' || e.role === 'transaction' || !e.name
                ? []
                : [{ text: e.name, rect: e.rect }],
          );
        expect(texts.length).toBeGreaterThan(3);
        for (const { text, rect } of texts) {
          const [box] = pixelRects([rect], img, SIM_SIZE);
          expect([text, faintText(img, box, text.length)]).toEqual([text, false]);
        }
      }
    });

    it('a status message drawn faint is faint, though the bar shows its system field', () => {
      const { app } = simAfter(lang, go('VA02'));
      const said = 'please click Save for the customer today';
      app.poke(said);
      const status = app.outline().find((e) => e.role === 'status')!;
      const [box] = pixelRects([status.rect], pixelsOf(app), SIM_SIZE);
      expect(faintText(pixelsOf(app), box, said.length)).toBe(false);
      app.poke(said, true);
      expect(faintText(pixelsOf(app), box, said.length)).toBe(true);
    });
  });
});
