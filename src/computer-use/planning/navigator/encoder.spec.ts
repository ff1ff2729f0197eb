/** The navigator's encoder: words of a text, and the mean of the known ones. */
import { encode, wordsOf } from './encoder';
import type { WordVectors } from './word-vectors';

function tinyVectors(table: Record<string, number[]>): WordVectors {
  const dimensions = Object.values(table)[0]?.length ?? 1;
  return {
    dimensions,
    vector: (word) => (table[word] ? Float64Array.from(table[word]) : null),
  };
}

describe('wordsOf', () => {
  it.each([
    ['VA03 - Display Sales Order', ['va03', 'display', 'sales', 'order']],
    ['FB50 - Enter G/L Account Document', ['fb50', 'enter', 'g', 'l', 'account', 'document']],
    ['Zurück', ['zurück']],
    ['ＳＡＬＥＳ order', ['sales', 'order']],
    ['  ', []],
    ['order, order', ['order', 'order']],
  ])('%j → %j', (text, words) => {
    expect(wordsOf(text)).toEqual(words);
  });
});

describe('encode', () => {
  const vectors = tinyVectors({ sales: [1, 0], order: [0, 1], display: [1, 1] });

  it('mean-pools the vectors of the words it knows and lists the rest', () => {
    const e = encode('VA03 - Display Sales Order', vectors);
    expect([...e.vector!]).toEqual([2 / 3, 2 / 3]);
    expect(e.known).toEqual(['display', 'sales', 'order']);
    expect(e.unknown).toEqual(['va03']);
  });

  it('weighs a repeated word as often as it is written', () => {
    expect([...encode('sales sales order', vectors).vector!]).toEqual([2 / 3, 1 / 3]);
  });

  it('has no vector when it knows none of the words', () => {
    expect(encode('VA03', vectors)).toEqual({ vector: null, known: [], unknown: ['va03'] });
    expect(encode('', vectors).vector).toBeNull();
  });
});
