/**
 * The text of a `type` action (docs/rules.md, docs/security.md): one rule for what Warden lets a planner type and
 * what the screen host agrees to type, so that text a person approved is never refused by the host
 * afterwards, nor the other way round.
 *
 * - 1–500 characters, counted in code points;
 * - valid Unicode: no unpaired surrogate (it cannot be sent as a keystroke);
 * - no control character but tab and newline (they type Tab and Enter). Carriage return is refused
 *   too: newline is the one way to type a line break, and `\r\n` would press Enter twice. So are
 *   the line and paragraph separators (U+2028, U+2029), line breaks a keyboard does not have;
 * - no bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): they change
 *   the order in which the text around them is shown, so a person could read something other than
 *   what is typed;
 * - no other invisible format character (Unicode category Cf): zero-width space, non-joiner and
 *   joiner (U+200B–U+200D), word joiner (U+2060), byte order mark (U+FEFF), soft hyphen, invisible
 *   operators, tag characters (U+E0000–U+E007F, invisible copies of ASCII) and the rest. A person
 *   sees none of them on the approval page's screenshot or on the screen, yet they are typed.
 *
 * Each side words a problem its own way (`“text” must …` in Warden, `text must …` on the host) from
 * `textProblemInWords`, naming the character as char-names.ts does.
 */
import { ACTION_LIMITS } from './actions';
import { charName } from './char-names';

export type TextProblem =
  | { kind: 'length'; length: number }
  | { kind: 'surrogate' }
  | { kind: 'control'; char: string }
  | { kind: 'bidi'; char: string }
  | { kind: 'invisible'; char: string };

/** The bidirectional controls: embeddings, overrides, isolates and the implicit marks. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** Format characters (bidi controls among them), control characters, line/paragraph separators. */
const REFUSED = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** Line breaks besides newline: carriage return, vertical tab, form feed, next line, the separators. */
const LINE_BREAKS = /[\r\v\f\u0085\u2028\u2029]/u;

function kindOf(char: string): 'surrogate' | 'bidi' | 'invisible' | 'control' {
  if (/\p{Cs}/u.test(char)) return 'surrogate';
  if (BIDI.test(char)) return 'bidi';
  if (/\p{Cf}/u.test(char)) return 'invisible';
  return 'control';
}

/**
 * What is wrong with a `type` text, or null when it may be typed. The first problem in the text
 * is reported. Pure; counts in code points.
 */
export function typedTextProblem(text: string): TextProblem | null {
  let length = 0;
  for (const _ of text) length++;
  if (length < 1 || length > ACTION_LIMITS.textMax) return { kind: 'length', length };
  return hiddenCharacterProblem(text, TYPED_BREAKS);
}

/** What a `type` text may hold of the characters hiddenCharacterProblem refuses: Tab and Enter. */
const TYPED_BREAKS: ReadonlySet<string> = new Set(['\t', '\n']);

/**
 * The first character of `text` a person could not see as it is, or null: a bidirectional control
 * (U+061C among them), any other format character (Unicode category Cf: soft hyphen U+00AD,
 * zero-width characters, tag characters …), a control character or line separator, an unpaired
 * surrogate. `allowed` are control characters the text may hold (a `type` text: tab and newline).
 * The one check of typed text, a run's goal and a routine run's parameters (docs/rules.md).
 */
export function hiddenCharacterProblem(
  text: string,
  allowed: ReadonlySet<string> = new Set(),
): Exclude<TextProblem, { kind: 'length' }> | null {
  for (const [char] of text.matchAll(REFUSED)) {
    if (allowed.has(char)) continue;
    const kind = kindOf(char);
    return kind === 'surrogate' ? { kind } : { kind, char };
  }
  return null;
}

/** The problem as the end of a sentence about the text: `“text” ${words}`. */
export function textProblemInWords(problem: TextProblem): string {
  switch (problem.kind) {
    case 'length':
      return `must be 1 to ${ACTION_LIMITS.textMax} characters (it has ${problem.length})`;
    case 'surrogate':
      return 'is not valid Unicode (a lone surrogate)';
    case 'control': {
      const found = `it has ${charName(problem.char)}`;
      const breaks = LINE_BREAKS.test(problem.char)
        ? '; a line break is typed as a newline alone'
        : '';
      return `must not contain control characters or line breaks other than tab and newline (${found})${breaks}`;
    }
    case 'bidi':
      return `must not contain bidirectional controls (it has ${charName(problem.char)}): they change the order in which text is shown, so a person could read something other than what is typed`;
    case 'invisible':
      return `must not contain invisible characters (it has ${charName(problem.char)}): a person cannot see them on the approval page or the screen`;
  }
}
