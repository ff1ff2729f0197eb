/**
 * The title bar read from the pixels of the sim's screens (screen rules on a host without an
 * outline, docs/rules.md): the line `findTitleLine` takes, read by tesseract, is the screen's title.
 */
import { screenTitle } from '../../../screen-host/src/backends/sim/sim-layout';
import { go, SIM_SIZE as SIZE, simAfter } from '../../../test/support/sim-pixels';
import { loadRules, screenTitle as titleForRules } from '../actions';
import { OcrLabelReader } from './ocr-label-reader';
import { findTitleLine } from './title-line';

// What OCR reads, not how fast: two busy cores overran the product's deadlines (5 s, 10 s a
// screen). Speed is npm run bench:rules'; the deadlines have their own test in ocr-label-reader.spec.ts.
const UNHURRIED = { timeoutMs: 60_000, screenTimeoutMs: 60_000 };

jest.setTimeout(120_000);

const SCREENS: Array<[string, unknown[]]> = [
  ['SAP Easy Access', []],
  ['VA02, initial screen', go('VA02')],
  ['VA03, initial screen', go('VA03')],
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

describe('the title bar of the sim, read by OCR', () => {
  const reader = new OcrLabelReader(UNHURRIED);
  const rules = loadRules();
  beforeAll(() => reader.start());
  afterAll(() => reader.close());

  const cases = (['en', 'de'] as const).flatMap((lang) =>
    SCREENS.map(([name, actions]) => [lang, name, actions] as const),
  );

  it.each(cases)('%s: %s', async (lang, _name, actions) => {
    const { app, image } = simAfter(lang, actions);
    const title = screenTitle(app.state, app.labels);
    expect(findTitleLine(image)).not.toBeNull();
    const reading = await reader.readTitleBarPixels(image);
    expect(reading).not.toBeNull();
    // As the rules take it: a label OCR was sure of, with the title's words.
    const read = titleForRules(
      { width: 1280, height: 800, outline: null, titleBar: reading },
      rules,
    );
    expect(read).toEqual({ text: title, source: 'ocr' });
  });

  it('reads no title while a dialog is open over the screen: the title bar names the screen behind', async () => {
    const { image } = simAfter('en', go('VA02'), {
      title: 'Exit editing',
      message: 'Data will be lost.',
      buttons: ['Yes', 'No'],
    });
    // The line is there, as it is behind every dialog; the reader does not take it.
    expect(findTitleLine(image)).not.toBeNull();
    expect(await reader.readTitleBarPixels(image)).toBeNull();
    // The password change is a dialog over SAP Easy Access: no title either.
    for (const lang of ['en', 'de'] as const) {
      expect(await reader.readTitleBarPixels(simAfter(lang, go('PWD')).image)).toBeNull();
    }
  });

  it('finds no title on a screen without text', () => {
    const blank = { ...SIZE, data: new Uint8Array(SIZE.width * SIZE.height * 4).fill(255) };
    expect(findTitleLine(blank)).toBeNull();
  });
});
