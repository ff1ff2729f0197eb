/**
 * The word vectors' index over the package's JSON: a file in its format made here, and the file
 * the package ships (so a changed or missing package fails here, not in a run).
 */
import { indexWordVectors, shippedWordVectors, WordVectorsError } from './word-vectors';

const file = (vectors: string) =>
  Buffer.from(
    `{"precision":8,"l2NormIndex":3,"wordIndex":4,"size":4,"dimensions":3,"words":["a"],` +
      `"vectors":{${vectors}},"unkVector":[0,0,0,0,-1]}`,
  );

describe('indexWordVectors', () => {
  it('finds each word’s first numbers, leaving out its norm and index', async () => {
    const vectors = await indexWordVectors(
      file(
        '"sales":[0.5,-1.25,2e-3,1.4,0],"\\"":[1,2,3,3.7,1],"über":[-1,0,1,1.4,2],"a\\\\b":[4,5,6,8.7,3]',
      ),
    );
    expect(vectors.dimensions).toBe(3);
    expect([...vectors.vector('sales')!]).toEqual([0.5, -1.25, 0.002]);
    expect([...vectors.vector('"')!]).toEqual([1, 2, 3]);
    expect([...vectors.vector('über')!]).toEqual([-1, 0, 1]);
    expect([...vectors.vector('a\\b')!]).toEqual([4, 5, 6]);
    expect(vectors.vector('order')).toBeNull();
    // Asked again: the same numbers.
    expect([...vectors.vector('sales')!]).toEqual([0.5, -1.25, 0.002]);
  });

  it('has no vector for a word whose numbers are not numbers', async () => {
    const vectors = await indexWordVectors(file('"odd":[1,x,3,1,0]'));
    expect(vectors.vector('odd')).toBeNull();
  });

  it.each([
    ['no dimensions', Buffer.from('{"vectors":{}}'), /no "dimensions"/],
    ['no vectors', Buffer.from('{"dimensions":3,"words":[]}'), /no "vectors"/],
    ['a list that does not end', file('"a":[1,2,3'), /do not end/],
    ['a word without numbers', file('"a":1'), /a list of numbers was expected/],
  ])('refuses a file with %s', async (_what, bytes, message) => {
    await expect(indexWordVectors(bytes)).rejects.toThrow(WordVectorsError);
    await expect(indexWordVectors(bytes)).rejects.toThrow(message);
  });
});

describe('shippedWordVectors', () => {
  it('reads the package’s 100-dimensional vectors, once per process', async () => {
    const vectors = await shippedWordVectors();
    expect(vectors.dimensions).toBe(100);
    for (const word of ['sales', 'order', 'display', 'change', 'password', 'ledger']) {
      const v = vectors.vector(word);
      expect(v).toHaveLength(100);
      expect(v!.every(Number.isFinite)).toBe(true);
    }
    expect(vectors.vector('va03')).toBeNull();
    expect(await shippedWordVectors()).toBe(vectors);
  }, 30_000);
});
