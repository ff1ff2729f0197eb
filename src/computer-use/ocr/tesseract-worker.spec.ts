import { linesOfTsv, wordsOfTsv } from './tesseract-worker';

describe('wordsOfTsv', () => {
  it('reads words and confidences from tesseract TSV, ignoring anything else', () => {
    const tsv =
      '1\t1\t0\t0\t0\t0\t0\t0\t9\t9\t-1\t\n5\t1\t1\t1\t1\t1\t1\t1\t9\t9\t93.5\tSave\n5\t1\t1\t1\t1\t2\t1\t1\t9\t9\tx\tbad\n5\t1\n';
    expect(wordsOfTsv(tsv)).toEqual([{ text: 'Save', confidence: 93.5 }]);
    expect(wordsOfTsv(undefined)).toEqual([]);
  });
});

describe('linesOfTsv', () => {
  it('groups words by block, paragraph and line, with the box around them', () => {
    const row = (b: number, l: number, w: number, x: number, conf: number, text: string) =>
      ['5', '1', b, '1', l, w, x, 100 + l * 20, 30, 12, conf, text].join('\t');
    const tsv = [
      '4\t1\t1\t1\t1\t0\t0\t0\t0\t0\t-1\t',
      row(1, 1, 1, 10, 90, 'Change'),
      row(1, 1, 2, 50, 80, 'Order'),
      row(1, 2, 1, 10, 70, 'Order'),
      row(2, 1, 1, 600, 60, 'AI:'),
      row(2, 1, 2, 640, 50, 'click'),
      row(2, 1, 3, 690, 40, ''),
      '5\t1\t1\t1\t1\t3\tx\t1\t1\t1\t9\tbad',
    ].join('\n');
    expect(linesOfTsv(tsv)).toEqual([
      { text: 'Change Order', confidence: 85, rect: { x: 10, y: 120, width: 70, height: 12 } },
      { text: 'Order', confidence: 70, rect: { x: 10, y: 140, width: 30, height: 12 } },
      { text: 'AI: click', confidence: 55, rect: { x: 600, y: 120, width: 70, height: 12 } },
    ]);
    expect(linesOfTsv(null)).toEqual([]);
  });
});
