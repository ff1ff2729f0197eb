/**
 * Committing verbs, matched as whole words, case- and accent-insensitively (docs/rules.md).
 *
 * Both the configured words and the label are folded the same way, then the label is split into
 * words; a verb (or a phrase of several words) matches when its words appear consecutively.
 * `Save (Ctrl+S)`, `SAVE`, `SaVe`, `&Save` and `btnSave` contain "save"; `Saved` and
 * `Posting Date` do not.
 */

/** Letters that NFKD does not decompose but that readers treat as the base letter. */
const EXTRA_FOLDS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const EXTRA = new RegExp(`[${Object.keys(EXTRA_FOLDS).join('')}]`, 'gu');

/**
 * Case- and accent-free form of one word or a whole label. German umlauts written out
 * (`Loeschen`) fold like the umlaut (`Löschen`, `Loschen`): ae/oe/ue → a/o/u on both sides.
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(EXTRA, (c) => EXTRA_FOLDS[c])
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/ue/g, 'u');
}

/**
 * The words of a label, folded. Format characters (zero-width spaces, soft hyphens) are removed
 * first so they cannot split a word, and `&` between letters is a Windows mnemonic (`Sa&ve`).
 */
export function words(label: string): string[] {
  const text = label.replace(/\p{Cf}+/gu, '').replace(/(?<=\p{L})&(?=\p{L})/gu, '');
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** A lower-to-upper case change starts a new word in identifiers: `btnSave` → `btn Save`. */
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})/gu;

/** Committing verbs indexed by their first folded word, so a label is checked in one pass. */
export interface CommitWordIndex {
  /** first word → [the configured spelling, all its folded words] */
  readonly byFirst: ReadonlyMap<string, readonly (readonly [string, readonly string[]])[]>;
}

export function indexCommitWords(list: readonly string[]): CommitWordIndex {
  const byFirst = new Map<string, (readonly [string, readonly string[]])[]>();
  const seen = new Set<string>();
  for (const spelling of list) {
    const ws = words(spelling);
    const key = ws.join(' ');
    if (ws.length === 0 || seen.has(key)) continue;
    seen.add(key);
    const bucket = byFirst.get(ws[0]) ?? [];
    bucket.push([spelling, ws]);
    byFirst.set(ws[0], bucket);
  }
  return { byFirst };
}

/**
 * The configured committing verb the label contains, or null. The label is read as written
 * (`SaVe` is one word) and, when its case changes inside a word, also split there (`btnSave`).
 */
export function findCommitWord(label: string, index: CommitWordIndex): string | null {
  const found = findIn(words(label), index);
  if (found !== null || !/\p{Ll}\p{Lu}/u.test(label)) return found;
  return findIn(words(label.replace(CAMEL, ' ')), index);
}

function findIn(ws: string[], index: CommitWordIndex): string | null {
  for (let i = 0; i < ws.length; i++) {
    const bucket = index.byFirst.get(ws[i]);
    if (!bucket) continue;
    for (const [spelling, phrase] of bucket) {
      if (phrase.every((w, j) => ws[i + j] === w)) return spelling;
    }
  }
  return null;
}
