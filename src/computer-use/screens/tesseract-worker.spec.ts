import { wordsOfTsv } from './tesseract-worker';

describe('wordsOfTsv', () => {
  it('reads words and confidences from tesseract TSV, ignoring anything else', () => {
    const tsv =
      '1\t1\t0\t0\t0\t0\t0\t0\t9\t9\t-1\t\n5\t1\t1\t1\t1\t1\t1\t1\t9\t9\t93.5\tSave\n5\t1\t1\t1\t1\t2\t1\t1\t9\t9\tx\tbad\n5\t1\n';
    expect(wordsOfTsv(tsv)).toEqual([{ text: 'Save', confidence: 93.5 }]);
    expect(wordsOfTsv(undefined)).toEqual([]);
  });
});
