/**
 * A label read by OCR, judged (docs/rules.md, "Labels fail closed"). OCR's result reaches the rules as
 * data, an `OcrReading`; this decides, with no I/O, what it says:
 *
 * - the committing verb it names, looked for in every word read however unsure, exactly or (a
 *   verb of five letters or more) within one edit: a misread verb is still that verb;
 * - whether it is a label at all. Nothing could read it when OCR found no text, failed or timed
 *   out, was unsure of a word holding letters (confidence under `ocr_min_confidence`: the reading
 *   is only as sure as its least sure word), or read fewer than three letters in all (an icon
 *   read as `H`, a number, a date).
 */
import type { OcrFailure, OcrReading, OcrWord } from './action.types';
import { findCommitWord } from './commit-words';
import { findNearMiss } from './near-miss';
import type { Rules } from './rules';
import { clean, quote } from './text';

/** A label needs this many letters; fewer is an icon or a speck read as text. */
export const MIN_LABEL_LETTERS = 3;

export interface OcrLabel {
  /** Every word read, joined by spaces; null when OCR gave no words. */
  text: string | null;
  /** The committing verb the words name; `near` holds the words that missed it by one edit. */
  verb: { spelling: string; near?: string } | null;
  /** Why nothing could read a label here, for a `why`; null when the words are a label. */
  unreadable: string | null;
}

const FAILURES: Record<OcrFailure, string> = {
  no_text: 'no text there',
  failed: 'OCR failed',
  timed_out: 'OCR timed out',
};

const LETTER = /\p{L}/u;

/** The words of a reading, keeping only well-formed ones; a confidence that is not a number is 0. */
function wordsOf(reading: OcrReading | null | undefined): OcrWord[] | OcrFailure {
  if (typeof reading !== 'object' || reading === null) return 'no_text';
  if ('unreadable' in reading) return FAILURES[reading.unreadable] ? reading.unreadable : 'failed';
  if (!Array.isArray(reading.words)) return 'failed';
  const out: OcrWord[] = [];
  for (const w of reading.words as unknown[]) {
    const { text, confidence } = (w ?? {}) as Partial<OcrWord>;
    if (typeof text !== 'string' || clean(text, Infinity) === '') continue;
    out.push({ text, confidence: Number.isFinite(confidence) ? (confidence as number) : 0 });
  }
  return out.length === 0 ? 'no_text' : out;
}

/** What an OCR reading says, by the rules. Pure; never throws. */
export function judgeOcrReading(reading: OcrReading | null | undefined, rules: Rules): OcrLabel {
  const words = wordsOf(reading);
  if (typeof words === 'string') return { text: null, verb: null, unreadable: FAILURES[words] };
  const text = words.map((w) => w.text).join(' ');

  const exact = findCommitWord(text, rules.commitIndex);
  const near = exact === null ? findNearMiss(text, rules.commitNear) : null;
  const verb =
    exact !== null ? { spelling: exact } : near && { spelling: near.spelling, near: near.read };

  const unsure = words.find((w) => LETTER.test(w.text) && w.confidence < rules.ocrMinConfidence);
  if (unsure) {
    const confidence = Math.max(0, Math.round(unsure.confidence));
    return {
      text,
      verb,
      unreadable: `OCR was unsure of ${quote(unsure.text, 40)}: confidence ${confidence}, under ${rules.ocrMinConfidence}`,
    };
  }
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LABEL_LETTERS) {
    return {
      text,
      verb,
      unreadable: `OCR read only ${quote(text, 40)}, fewer than three letters`,
    };
  }
  return { text, verb, unreadable: null };
}

/** Every word of a reading joined by spaces, however unsure; null when OCR gave none. */
export function ocrText(reading: OcrReading | null | undefined): string | null {
  const words = wordsOf(reading);
  return typeof words === 'string' ? null : words.map((w) => w.text).join(' ');
}
