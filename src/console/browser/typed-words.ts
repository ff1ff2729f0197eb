/**
 * Typed text as the approver sees it: in full, every character a person could not see (controls,
 * format and bidirectional characters, unusual spaces) shown as a visible, named mark. What the
 * approver sees is what is sent. Pure functions of their inputs. A character is named as Warden
 * and the screen host name it in a refusal (the protocol's table, char-names.ts).
 */
import { charName } from '@warden/protocol/char-names';

export { charName };

/**
 * The characters a person could not see, or could not tell from others, in text that is typed:
 * controls (tab, newline and carriage return among them), format characters (bidirectional
 * controls, zero-width characters, tag characters), line and paragraph separators, characters
 * that are ignored when shown (variation selectors, Hangul fillers), surrogates, private-use and
 * unassigned code points, and every space but the plain one. A superset of what the protocol
 * refuses to type (text.ts): what is typed is marked, and so is what is only shown.
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]|[^\P{Zs} ]/gu;

/** Three marks a reader knows from keyboards and editors; every other character is named. */
const SHORT_MARKS: Readonly<Record<string, readonly [string, string]>> = {
  '\t': ['⇥', 'tab'],
  '\n': ['↵', 'newline'],
  '\r': ['␍', 'carriage return'],
};

/**
 * A visible mark for a character a person could not see: what is shown, its name, the character
 * it stands for, and whether the text goes on on a new line after it (a newline).
 */
export interface Mark {
  mark: string;
  name: string;
  char: string;
  newline: boolean;
}

/**
 * Typed text cut into what is shown as it is and the marks for what is not, in order: nothing is
 * left out and nothing is shortened. Tab is `⇥`, newline `↵` (and the text goes on on the next
 * line), carriage return `␍`; every other such character is named, `⟨U+200B ZERO WIDTH SPACE⟩`.
 */
export function typedPieces(text: string): Array<string | Mark> {
  const pieces: Array<string | Mark> = [];
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
 * the marks can be told from typed characters (a page), `typedText` in dom.ts builds them.
 */
export function marked(text: string): string {
  return typedPieces(text)
    .map((p) => (typeof p === 'string' ? p : p.mark))
    .join('');
}

/**
 * Text for people that is not typed (a label, a summary): marked as typed text is, long text
 * shortened.
 */
export function shown(text: string, max = 80): string {
  const chars = [...marked(text)];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** The characters of a text, counted as the screen host counts them (code points). */
export function characters(text: string): number {
  return [...text].length;
}

/**
 * An action as JSON, exactly, with every character `typedPieces` marks written as a `\\u` escape:
 * the same JSON, but nothing in it is invisible or turns the line around.
 */
export function exactJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(INVISIBLE, (char) =>
    [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}
