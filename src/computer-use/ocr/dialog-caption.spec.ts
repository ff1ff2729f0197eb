/**
 * A dialog over the screen, seen from the pixels alone (screen rules on a host without an outline,
 * docs/rules.md): on every screen of the sim, in both languages, with and without a popup.
 */
import type { SimLang } from '../../../screen-host/src/backends/sim/sim-labels';
import { go, simAfter as simApp } from '../../../test/support/sim-pixels';
import { dialogCaptionBelow } from './dialog-caption';
import type { RgbaImage } from './glyph-components';

const POPUP = { title: 'Save changes?', message: 'Data will be lost.', buttons: ['Yes', 'No'] };
const simAfter = (lang: SimLang, actions: unknown[], popup = false): RgbaImage =>
  simApp(lang, actions, popup ? POPUP : undefined).image;

const SCREENS: Array<[string, unknown[]]> = [
  ['SAP Easy Access', []],
  ['VA02, initial screen', go('VA02')],
  [
    'VA02, order 4711',
    [
      ...go('VA02'),
      { action: 'click', x: 255, y: 183 },
      { action: 'type', text: '4711' },
      { action: 'key', key: 'Enter' },
    ],
  ],
  ['FB50', go('FB50')],
];

describe('a dialog over the screen, from its pixels', () => {
  describe.each(['en', 'de'] as SimLang[])('the %s sim', (lang) => {
    it.each(SCREENS)('%s: no dialog, then a popup over it', (_, actions) => {
      expect(dialogCaptionBelow(simAfter(lang, actions))).toBe(false);
      expect(dialogCaptionBelow(simAfter(lang, actions, true))).toBe(true);
    });

    it('sees the password change, which is a dialog', () => {
      expect(dialogCaptionBelow(simAfter(lang, go('PWD')))).toBe(true);
    });
  });

  describe('drawn shapes', () => {
    const image = (width: number, height: number, fill: [number, number, number]): RgbaImage => {
      const data = new Uint8Array(width * height * 4);
      for (let i = 0; i < data.length; i += 4) data.set([...fill, 255], i);
      return { width, height, data };
    };
    const paint = (img: RgbaImage, x0: number, y0: number, w: number, h: number, c: number[]) => {
      for (let y = y0; y < y0 + h; y++) {
        for (let x = x0; x < x0 + w; x++) img.data.set([...c, 255], (y * img.width + x) * 4);
      }
    };
    const CAPTION = [11, 58, 102];

    it('needs a bar as wide and as tall as a caption, in the caption colour (nearly)', () => {
      const screen = image(800, 600, [230, 237, 244]);
      paint(screen, 0, 0, 800, 24, CAPTION);
      expect(dialogCaptionBelow(screen)).toBe(false);
      paint(screen, 200, 300, 119, 30, CAPTION); // too narrow
      paint(screen, 200, 400, 300, 11, CAPTION); // too low
      paint(screen, 200, 450, 300, 20, [60, 110, 160]); // another blue
      expect(dialogCaptionBelow(screen)).toBe(false);
      paint(screen, 200, 200, 300, 24, [CAPTION[0] + 6, CAPTION[1] - 6, CAPTION[2] + 6]);
      expect(dialogCaptionBelow(screen)).toBe(true);
    });

    it('says nothing on a screen without a caption band at the top', () => {
      const screen = image(800, 600, [230, 237, 244]);
      paint(screen, 0, 0, 400, 24, CAPTION); // the right end is not the caption's
      paint(screen, 200, 200, 300, 24, CAPTION);
      expect(dialogCaptionBelow(screen)).toBe(false);
      expect(dialogCaptionBelow(image(8, 8, [0, 0, 0]))).toBe(false);
    });

    it('scales with a HiDPI screen', () => {
      const screen = image(1600, 1200, [230, 237, 244]);
      paint(screen, 0, 0, 1600, 48, CAPTION);
      paint(screen, 400, 400, 300, 20, CAPTION); // a caption at 1×, too small at 2×
      expect(dialogCaptionBelow(screen, 2)).toBe(false);
      expect(dialogCaptionBelow(screen, 1)).toBe(true);
    });
  });
});
