/** Small text helpers shared by the parser, validation and classification. */

/** Length in code points, the unit docs/rules.md counts text in. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Line breaks and control characters become spaces. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]/gu;
/** Format characters (bidi overrides, zero-width spaces, soft hyphens) are dropped. */
const FORMAT = /\p{Cf}/gu;

/**
 * Makes untrusted text (a label from the screen, a key the model wrote) safe to put in a sentence
 * a person reads: no control or bidi characters, one line, at most `max` code points.
 */
export function clean(text: string, max = 60): string {
  const flat = text.replace(FORMAT, '').replace(BREAKS, ' ').replace(/\s+/gu, ' ').trim();
  const points = [...flat];
  return points.length <= max
    ? flat
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** `clean`, in typographic quotes. */
export function quote(text: string, max = 60): string {
  return `“${clean(text, max)}”`;
}
