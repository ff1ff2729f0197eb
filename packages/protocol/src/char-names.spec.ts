import { charName } from './char-names';

describe('the names of characters a person cannot see', () => {
  it('names controls, spaces and format characters by code point and Unicode name', () => {
    expect(charName('\u0000')).toBe('U+0000 NULL');
    expect(charName('\u001f')).toBe('U+001F INFORMATION SEPARATOR ONE');
    expect(charName('\u0085')).toBe('U+0085 NEXT LINE');
    expect(charName('\u0090')).toBe('U+0090 CONTROL');
    expect(charName('\u00a0')).toBe('U+00A0 NO-BREAK SPACE');
    expect(charName('\u202e')).toBe('U+202E RIGHT-TO-LEFT OVERRIDE');
    expect(charName('\ufe0f')).toBe('U+FE0F VARIATION SELECTOR-16');
  });

  it('says which ASCII character a tag copies, so that a hidden message reads', () => {
    expect([...'\u{e0048}\u{e0069}\u{e0020}'].map(charName)).toEqual([
      'U+E0048 TAG H',
      'U+E0069 TAG i',
      'U+E0020 TAG SPACE',
    ]);
    expect(charName('\u{e007f}')).toBe('U+E007F CANCEL TAG');
  });

  it('names a character it has no name for by its code point alone', () => {
    expect(charName('\u{e0100}')).toBe('U+E0100');
    expect(charName('\ue000')).toBe('U+E000');
  });
});
