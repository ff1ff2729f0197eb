/**
 * Fields Warden never types into (docs/rules.md, "Never typed"): a field whose label names a password,
 * PIN, TAN, one-time code, OTP or CVV. The words are data (config `secret_field_words`), matched
 * like the committing verbs (commit-words.ts: whole words, case- and accent-insensitively), and a
 * word of six letters or more also inside a longer word, as German builds them (`Benutzerkennwort`,
 * `Kennwortwiederholung`). A label read by OCR also matches within one edit (near-miss.ts).
 */
import { type CommitWordIndex, findCommitWord, indexCommitWords, words } from './commit-words';
import { findNearMiss, type NearTargets, nearTargets } from './near-miss';

/** Single words at least this long (folded) also match inside a longer word. */
export const INSIDE_MIN_LETTERS = 6;

export interface SecretFieldWords {
  readonly list: readonly string[];
  readonly index: CommitWordIndex;
  readonly near: NearTargets;
  /** [spelling, folded] of the single words matched inside longer words too. */
  readonly inside: readonly (readonly [string, string])[];
}

export function indexSecretFieldWords(list: readonly string[]): SecretFieldWords {
  const inside = list
    .map((spelling) => [spelling, words(spelling)] as const)
    .filter(([, ws]) => ws.length === 1 && [...ws[0]].length >= INSIDE_MIN_LETTERS)
    .map(([spelling, ws]) => [spelling, ws[0]] as const);
  return { list, index: indexCommitWords(list), near: nearTargets(list), inside };
}

/** What a field's label names: the configured word, and what was read when it was near. */
export interface SecretFieldMatch {
  spelling: string;
  /** Set when an OCR-read label named the word within one edit: the words read. */
  near?: string;
}

/**
 * The secret-field word a label names, or null. `ocr`: the label was read by OCR, so it may miss a
 * word by one edit.
 */
export function findSecretFieldWord(
  label: string,
  secret: SecretFieldWords,
  ocr: boolean,
): SecretFieldMatch | null {
  const whole = findCommitWord(label, secret.index);
  if (whole !== null) return { spelling: whole };
  const ws = words(label);
  for (const [spelling, folded] of secret.inside) {
    if (ws.some((w) => w.includes(folded))) return { spelling };
  }
  if (!ocr) return null;
  const near = findNearMiss(label, secret.near);
  return near && { spelling: near.spelling, near: near.read };
}
