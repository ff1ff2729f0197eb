import fc from 'fast-check';
import { findNearMiss, nearTargets, withinOneEdit } from './near-miss';
import { loadRules } from './rules';

/** Plain Levenshtein distance, the reference the OCR edit is checked against. */
function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = up;
    }
  }
  return row[b.length];
}

describe('withinOneEdit', () => {
  it.each([
    ['sichem', 'sichern', true], // rn read as m
    ['speichem', 'speichern', true],
    ['kornmen', 'kommen', true], // m read as rn
    ['vvrite', 'write', true], // w read as vv
    ['clelete', 'delete', true], // d read as cl
    ['genenmigen', 'genehmigen', true], // one letter replaced
    ['freigebn', 'freigeben', true], // one deleted
    ['freiigeben', 'freigeben', true], // one inserted
    ['sich ern', 'sichern', true], // split in two
    ['sichern', 'sichern', true],
    ['sichten', 'sichern', false], // two replaced
    ['suchn', 'sichern', false],
    ['stommeren', 'stornieren', false],
    ['', 'a', true],
    ['', 'ab', false],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
    expect(withinOneEdit(b, a)).toBe(expected);
  });

  it('holds for everything one Levenshtein edit apart, and never beyond two', () => {
    const word = fc.stringMatching(/^[a-z ]{0,10}$/);
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = levenshtein(a, b);
        if (d <= 1) expect(withinOneEdit(a, b)).toBe(true);
        if (withinOneEdit(a, b)) expect(d).toBeLessThanOrEqual(2);
        expect(withinOneEdit(a, b)).toBe(withinOneEdit(b, a));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('findNearMiss', () => {
  const verbs = nearTargets(loadRules().commitWords);

  it('finds the committing verb a label misses by one edit, in any word of it', () => {
    expect(findNearMiss('Sichem', verbs)).toEqual({
      spelling: 'Sichern',
      read: 'sichem',
    });
    expect(findNearMiss('Daten Speichem (F11)', verbs)?.spelling).toBe('Speichern');
    expect(findNearMiss('Frei geben', verbs)?.spelling).toBe('Freigeben');
    expect(findNearMiss('Ubemehmen', verbs)?.spelling).toBe('Übernehmen');
  });

  it('leaves verbs under five letters alone, and what is two edits away', () => {
    for (const label of ['Sane', 'Bock', 'Pax', 'Yez', 'Sichten', 'Anzeigen', 'Zurück', '']) {
      expect(findNearMiss(label, verbs)).toBeNull();
    }
  });

  it('matches phrases within one edit, joined or split', () => {
    const targets = nearTargets(['go live', 'Save']);
    expect(findNearMiss('Go lixe now', targets)?.spelling).toBe('go live');
    expect(findNearMiss('golive', targets)?.spelling).toBe('go live');
    expect(findNearMiss('Sane', targets)).toBeNull(); // four letters: whole words only
  });
});
