/**
 * The navigator's text encoder (docs/models.md): a text is the mean of the vectors of its words that
 * the vocabulary knows. Words are runs of letters and digits, compatibility-normalised and lower
 * case, as the vocabulary spells them ("G/L" is the words "g" and "l"; "VA03" one word, unknown).
 */
import type { WordVectors } from './word-vectors';

/** A text as the encoder sees it: its mean vector, and which of its words it knew. */
export interface Encoded {
  /** Null when the vocabulary knows none of its words: then the text cannot be compared. */
  vector: Float64Array | null;
  known: string[];
  unknown: string[];
}

/** The text's words, lower case, in order, repeats kept (a repeated word weighs more). */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Mean-pools the vectors of the text's known words. */
export function encode(text: string, vectors: WordVectors): Encoded {
  const sum = new Float64Array(vectors.dimensions);
  const known: string[] = [];
  const unknown: string[] = [];
  for (const word of wordsOf(text)) {
    const v = vectors.vector(word);
    if (!v) {
      unknown.push(word);
      continue;
    }
    for (let i = 0; i < sum.length; i++) sum[i] += v[i];
    known.push(word);
  }
  if (known.length === 0) return { vector: null, known, unknown };
  for (let i = 0; i < sum.length; i++) sum[i] /= known.length;
  return { vector: sum, known, unknown };
}
