import type { OcrReading } from './action.types';
import { judgeOcrReading, ocrText } from './ocr-label';
import { loadRules } from './rules';

const rules = loadRules();
const words = (...ws: [string, number][]): OcrReading => ({
  words: ws.map(([text, confidence]) => ({ text, confidence })),
});

describe('judgeOcrReading', () => {
  it('takes sure words of three letters or more as a label', () => {
    expect(judgeOcrReading(words(['Posting', 91], ['Date', 96]), rules)).toEqual({
      text: 'Posting Date',
      verb: null,
      unreadable: null,
    });
  });

  it.each<[string, OcrReading | null | undefined, string]>([
    ['no reading', undefined, 'no text there'],
    ['null', null, 'no text there'],
    ['a blank spot', { unreadable: 'no_text' }, 'no text there'],
    ['an OCR error', { unreadable: 'failed' }, 'OCR failed'],
    ['a timeout', { unreadable: 'timed_out' }, 'OCR timed out'],
    ['no words', { words: [] }, 'no text there'],
    ['only blank words', words([' ', 90], ['\u200b', 90]), 'no text there'],
    ['an icon read as H', words(['H', 89]), 'OCR read only “H”, fewer than three letters'],
    ['two letters', words(['db', 78]), 'OCR read only “db”, fewer than three letters'],
    ['a date', words(['15.03.2026', 96]), 'OCR read only “15.03.2026”, fewer than three letters'],
    [
      'a word it was unsure of',
      words(['[J', 44], ['Hauptbuch', 91]),
      'OCR was unsure of “[J”: confidence 44, under 60',
    ],
    [
      'a confidence that is no number',
      words(['Display', NaN]),
      'OCR was unsure of “Display”: confidence 0, under 60',
    ],
  ])('%s: nothing could read it (%j)', (_name, reading, why) => {
    expect(judgeOcrReading(reading, rules).unreadable).toBe(why);
  });

  it('ignores unsure specks without letters', () => {
    expect(judgeOcrReading(words(['[7', 46], ['SAP', 95], ['Menu', 96]), rules)).toEqual({
      text: '[7 SAP Menu',
      verb: null,
      unreadable: null,
    });
  });

  it('finds a verb in any word, however unsure, and within one edit', () => {
    expect(judgeOcrReading(words(['Post', 12], ['Document', 96]), rules).verb).toEqual({
      spelling: 'Post',
    });
    expect(judgeOcrReading(words(['Sıchem', 90]), rules).verb).toEqual({
      spelling: 'Sichern',
      near: 'sichem',
    });
    // Unreadable and a verb: both are said; a verb makes the click a write either way.
    expect(judgeOcrReading(words(['OK', 40]), rules)).toMatchObject({
      verb: { spelling: 'OK' },
      unreadable: expect.stringContaining('unsure'),
    });
  });

  it('never throws on malformed readings', () => {
    for (const bad of [
      { words: [null, 3, { text: 7 }] },
      { words: {} },
      { unreadable: 'x' },
      'x',
    ]) {
      expect(judgeOcrReading(bad as never, rules).unreadable).toEqual(expect.any(String));
    }
  });
});

describe('ocrText', () => {
  it('joins every word, however unsure, or answers null', () => {
    expect(ocrText(words(['Altes', 30], ['Kennwort', 90]))).toBe('Altes Kennwort');
    expect(ocrText({ unreadable: 'failed' })).toBeNull();
    expect(ocrText(undefined)).toBeNull();
  });
});
