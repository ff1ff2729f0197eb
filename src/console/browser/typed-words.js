// @ts-check
/**
 * Typed text as the approver sees it: in full, every character a person could not see (controls,
 * format and bidirectional characters, unusual spaces) shown as a visible, named mark. What the
 * approver sees is what is sent. Pure functions of their inputs.
 */

/**
 * The characters a person could not see, or could not tell from others, in text that is typed:
 * controls (tab, newline and carriage return among them), format characters (bidirectional
 * controls, zero-width characters, tag characters), line and paragraph separators, characters
 * that are ignored when shown (variation selectors, Hangul fillers), surrogates, private-use and
 * unassigned code points, and every space but the plain one.
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]|[^\P{Zs} ]/gu;

/** Three marks a reader knows from keyboards and editors; every other character is named. */
const SHORT_MARKS = /** @type {Record<string, [string, string]>} */ ({
  '\t': ['⇥', 'tab'],
  '\n': ['↵', 'newline'],
  '\r': ['␍', 'carriage return'],
});

const C0 = [
  'NULL',
  'START OF HEADING',
  'START OF TEXT',
  'END OF TEXT',
  'END OF TRANSMISSION',
  'ENQUIRY',
  'ACKNOWLEDGE',
  'BELL',
  'BACKSPACE',
  'CHARACTER TABULATION',
  'LINE FEED',
  'LINE TABULATION',
  'FORM FEED',
  'CARRIAGE RETURN',
  'SHIFT OUT',
  'SHIFT IN',
  'DATA LINK ESCAPE',
  'DEVICE CONTROL ONE',
  'DEVICE CONTROL TWO',
  'DEVICE CONTROL THREE',
  'DEVICE CONTROL FOUR',
  'NEGATIVE ACKNOWLEDGE',
  'SYNCHRONOUS IDLE',
  'END OF TRANSMISSION BLOCK',
  'CANCEL',
  'END OF MEDIUM',
  'SUBSTITUTE',
  'ESCAPE',
  'INFORMATION SEPARATOR FOUR',
  'INFORMATION SEPARATOR THREE',
  'INFORMATION SEPARATOR TWO',
  'INFORMATION SEPARATOR ONE',
];

/** @type {Record<number, string>} */
const NAMES = {
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0xa0: 'NO-BREAK SPACE',
  0xad: 'SOFT HYPHEN',
  0x34f: 'COMBINING GRAPHEME JOINER',
  0x61c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x1680: 'OGHAM SPACE MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x2000: 'EN QUAD',
  0x2001: 'EM QUAD',
  0x2002: 'EN SPACE',
  0x2003: 'EM SPACE',
  0x2004: 'THREE-PER-EM SPACE',
  0x2005: 'FOUR-PER-EM SPACE',
  0x2006: 'SIX-PER-EM SPACE',
  0x2007: 'FIGURE SPACE',
  0x2008: 'PUNCTUATION SPACE',
  0x2009: 'THIN SPACE',
  0x200a: 'HAIR SPACE',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x202f: 'NARROW NO-BREAK SPACE',
  0x205f: 'MEDIUM MATHEMATICAL SPACE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x2800: 'BRAILLE PATTERN BLANK',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xe0001: 'LANGUAGE TAG',
  0xe007f: 'CANCEL TAG',
};

/**
 * A character's code point and, where known, its Unicode name: `U+200B ZERO WIDTH SPACE`. A tag
 * character says which ASCII character it copies, so a hidden message can be read.
 * @param {string} char
 */
export function charName(char) {
  const cp = char.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  let name = cp < 0x20 ? C0[cp] : NAMES[cp];
  if (!name && cp >= 0x80 && cp < 0xa0) name = 'CONTROL';
  if (!name && cp >= 0xfe00 && cp <= 0xfe0f) name = `VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (!name && cp === 0xe0020) name = 'TAG SPACE';
  if (!name && cp > 0xe0020 && cp <= 0xe007e) name = `TAG ${String.fromCodePoint(cp - 0xe0000)}`;
  return name ? `${hex} ${name}` : hex;
}

/**
 * @typedef {{ mark: string, name: string, char: string, newline: boolean }} Mark
 * A visible mark for a character a person could not see: what is shown, its name, the character
 * it stands for, and whether the text goes on on a new line after it (a newline).
 */

/**
 * Typed text cut into what is shown as it is and the marks for what is not, in order: nothing is
 * left out and nothing is shortened. Tab is `⇥`, newline `↵` (and the text goes on on the next
 * line), carriage return `␍`; every other such character is named, `⟨U+200B ZERO WIDTH SPACE⟩`.
 * @param {string} text
 * @returns {Array<string | Mark>}
 */
export function typedPieces(text) {
  /** @type {Array<string | Mark>} */
  const pieces = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const char = match[0];
    const index = match.index ?? 0;
    if (index > last) pieces.push(text.slice(last, index));
    const short = SHORT_MARKS[char];
    const name = charName(char);
    pieces.push(
      short
        ? { mark: short[0], name: short[1], char, newline: char === '\n' }
        : { mark: `⟨${name}⟩`, name, char, newline: false },
    );
    last = index + char.length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/**
 * Typed text in full on one line, its marks in place: for page titles and announcements. Where
 * the marks can be told from typed characters (a page), `typedText` in dom.js builds them.
 * @param {string} text
 */
export function marked(text) {
  return typedPieces(text)
    .map((p) => (typeof p === 'string' ? p : p.mark))
    .join('');
}

/**
 * Text for people that is not typed (a label, a summary): marked as typed text is, long text
 * shortened.
 * @param {string} text
 * @param {number} [max]
 */
export function shown(text, max = 80) {
  const chars = [...marked(text)];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/**
 * The characters of a text, counted as the screen host counts them (code points).
 * @param {string} text
 */
export function characters(text) {
  return [...text].length;
}

/**
 * An action as JSON, exactly, with every character `typedPieces` marks written as a `\\u` escape:
 * the same JSON, but nothing in it is invisible or turns the line around.
 * @param {unknown} value
 */
export function exactJson(value) {
  return (JSON.stringify(value) ?? 'null').replace(INVISIBLE, (char) =>
    [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}
