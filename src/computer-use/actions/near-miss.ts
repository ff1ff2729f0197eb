/**
 * Words OCR missed by one edit (docs/rules.md, "Labels fail closed"): a label read from the pixels
 * that is within one edit of a listed word of five letters or more is that word. OCR reads
 * `Sichern` as `Sichem`, `Speichern` as `Speichem`, `Genehmigen` as `Genenmigen`.
 *
 * One edit is one letter inserted, deleted or replaced, or one of the confusions OCR makes
 * between a pair of letters and one letter (`rn` read as `m`, `vv` as `w`, `cl` as `d`, and
 * back). Words are compared folded (commit-words.ts: case, accents, umlauts written out), and a
 * space counts as a letter, so a word OCR split in two (`Sich ern`) or two it ran together is one
 * edit too. Only for labels read by OCR: an outline's name or the model's target is never misread.
 */
import { words } from './commit-words';

/** Listed words must have this many letters (folded) to match within one edit. */
export const NEAR_MISS_MIN_LETTERS = 5;

/** Pairs of letters OCR reads as one letter (and the other way round); each counts as one edit. */
export const OCR_CONFUSIONS: readonly (readonly [string, string])[] = [
  ['rn', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
];

interface NearTarget {
  /** As configured, for the `why`. */
  readonly spelling: string;
  /** Its folded words joined by single spaces. */
  readonly folded: string;
  /** How many words it has. */
  readonly words: number;
}

/** The listed words that may be matched within one edit, grouped by length for a quick lookup. */
export interface NearTargets {
  readonly byLength: ReadonlyMap<number, readonly NearTarget[]>;
  /** The most words a listed phrase has. */
  readonly maxWords: number;
}

function letters(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

export function nearTargets(list: readonly string[]): NearTargets {
  const byLength = new Map<number, NearTarget[]>();
  const seen = new Set<string>();
  let maxWords = 0;
  for (const spelling of list) {
    const ws = words(spelling);
    const folded = ws.join(' ');
    if (ws.length === 0 || seen.has(folded) || letters(folded) < NEAR_MISS_MIN_LETTERS) continue;
    seen.add(folded);
    maxWords = Math.max(maxWords, ws.length);
    const bucket = byLength.get(folded.length) ?? [];
    bucket.push({ spelling, folded, words: ws.length });
    byLength.set(folded.length, bucket);
  }
  return { byLength, maxWords };
}

/** True when `a` and `b` differ by at most one edit (see above). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < b.length) [a, b] = [b, a];
  const d = a.length - b.length;
  if (d === 0) {
    let diff = 0;
    for (let i = 0; i < a.length && diff < 2; i++) if (a[i] !== b[i]) diff++;
    return diff === 1;
  }
  if (d === 1 && oneInserted(a, b)) return true;
  // `a` is the longer: a pair of its letters where `b` has the one letter OCR confuses it with
  // (`sichern` and `sichem`, either of them the word read).
  for (const [pair, one] of OCR_CONFUSIONS) {
    if (d !== pair.length - one.length) continue;
    for (let i = a.indexOf(pair); i !== -1; i = a.indexOf(pair, i + 1)) {
      if (a.slice(0, i) + one + a.slice(i + pair.length) === b) return true;
    }
  }
  return false;
}

/** True when deleting one character of `long` gives `short` (`long` is one longer). */
function oneInserted(long: string, short: string): boolean {
  let i = 0;
  while (i < short.length && long[i] === short[i]) i++;
  return long.slice(i + 1) === short.slice(i);
}

/** Where a label names a listed word within one edit: the word as configured and what was read. */
export interface NearMiss {
  spelling: string;
  read: string;
}

/**
 * The listed word a label names within one edit, or null. The label's folded words are compared
 * in runs of the listed phrase's length, and one word shorter or longer (a split or a join).
 */
export function findNearMiss(label: string, targets: NearTargets): NearMiss | null {
  if (targets.byLength.size === 0) return null;
  const ws = words(label);
  const maxWords = targets.maxWords + 1;
  for (let i = 0; i < ws.length; i++) {
    let run = '';
    for (let k = 1; k <= maxWords && i + k <= ws.length; k++) {
      run = k === 1 ? ws[i] : `${run} ${ws[i + k - 1]}`;
      for (let len = run.length - 1; len <= run.length + 1; len++) {
        for (const t of targets.byLength.get(len) ?? []) {
          if (Math.abs(t.words - k) <= 1 && withinOneEdit(run, t.folded)) {
            return { spelling: t.spelling, read: run };
          }
        }
      }
    }
  }
  return null;
}
