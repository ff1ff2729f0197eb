import fc from 'fast-check';
import { hiddenCharacterProblem, textProblemInWords, typedTextProblem } from './text';

const BIDI = [
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
];
const INVISIBLE = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x2062, 0xe0001, 0xe0041];
const hex = (cp: number) => cp.toString(16).padStart(4, '0');

describe('the typed text rule (docs/rules.md), shared by Warden and the screen host', () => {
  it.each([
    'Müller €5 ß',
    'a\tb\nc',
    '/nVA02',
    'שלום עולם',
    'مرحبا',
    '😀'.repeat(500),
    '👍🏽', // a skin-tone modifier is a visible character
    '\u00a0', // a no-break space is shown, not refused
  ])('accepts %j', (text) => {
    expect(typedTextProblem(text)).toBeNull();
  });

  it('counts in code points: 500 emoji pass, 501 do not', () => {
    expect(typedTextProblem('😀'.repeat(500))).toBeNull();
    expect(typedTextProblem('😀'.repeat(501))).toEqual({ kind: 'length', length: 501 });
    expect(typedTextProblem('')).toEqual({ kind: 'length', length: 0 });
  });

  it.each(BIDI.map((cp) => [hex(cp), cp]))('refuses the bidirectional control U+%s', (_, cp) => {
    const char = String.fromCodePoint(cp);
    expect(typedTextProblem(`Invoice ${char}4711`)).toEqual({ kind: 'bidi', char });
  });

  it.each(INVISIBLE.map((cp) => [hex(cp), cp]))('refuses the invisible character U+%s', (_, cp) => {
    const char = String.fromCodePoint(cp);
    expect(typedTextProblem(`Sa${char}ve`)).toEqual({ kind: 'invisible', char });
  });

  it.each([
    ['carriage return', '\r'],
    ['CR LF', 'a\r\nb'],
    ['NUL', '\u0000'],
    ['escape', '\u001b[2J'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
    ['vertical tab', '\u000b'],
    ['line separator', '\u2028'],
    ['paragraph separator', '\u2029'],
  ])('refuses a %s', (_, text) => {
    expect(typedTextProblem(text)).toMatchObject({ kind: 'control' });
  });

  it('refuses a lone surrogate, either half', () => {
    expect(typedTextProblem('a\ud800b')).toEqual({ kind: 'surrogate' });
    expect(typedTextProblem('a\udc00')).toEqual({ kind: 'surrogate' });
  });

  it('reports the first problem in the text', () => {
    expect(typedTextProblem('a\u200bb\u202ec')).toEqual({ kind: 'invisible', char: '\u200b' });
    expect(typedTextProblem('a\u202eb\u200bc')).toEqual({ kind: 'bidi', char: '\u202e' });
  });

  it('says what is wrong in words, naming the character', () => {
    const words = (text: string) => textProblemInWords(typedTextProblem(text)!);
    expect(words('x\u202e')).toBe(
      'must not contain bidirectional controls (it has U+202E RIGHT-TO-LEFT OVERRIDE): they change the order in which text is shown, so a person could read something other than what is typed',
    );
    expect(words('x\u200b')).toBe(
      'must not contain invisible characters (it has U+200B ZERO WIDTH SPACE): a person cannot see them on the approval page or the screen',
    );
    expect(words('a\r\nb')).toBe(
      'must not contain control characters or line breaks other than tab and newline (it has U+000D CARRIAGE RETURN); a line break is typed as a newline alone',
    );
    expect(words('\u001b')).toBe(
      'must not contain control characters or line breaks other than tab and newline (it has U+001B ESCAPE)',
    );
    expect(words('')).toBe('must be 1 to 500 characters (it has 0)');
    expect(words('\ud800')).toBe('is not valid Unicode (a lone surrogate)');
    // A tag character says which letter it copies (char-names.ts).
    expect(words('a\u{e0041}')).toBe(
      'must not contain invisible characters (it has U+E0041 TAG A): a person cannot see them on the approval page or the screen',
    );
  });

  it('refuses exactly the characters of its categories, whatever surrounds them (property)', () => {
    const refused = /[\p{Cf}\p{Cs}\p{Zl}\p{Zp}]|[^\P{Cc}\t\n]/u;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 500 }), (text) => {
        // One unit is one code point, so the length is always within the limit here.
        expect(typedTextProblem(text) === null).toBe(!refused.test(text));
      }),
    );
  });
});

describe('a character a person could not see, in any text (goals, parameters, typed text)', () => {
  it.each([
    ['\u061c', 'bidi'],
    ['\u200f', 'bidi'],
    ['\u2067', 'bidi'],
    ['\u00ad', 'invisible'],
    ['\u200b', 'invisible'],
    ['\u{e0041}', 'invisible'],
    ['\n', 'control'],
    ['\u2028', 'control'],
  ])('finds %j as %s', (char, kind) => {
    expect(hiddenCharacterProblem(`a${char}b`)).toEqual({ kind, char });
  });

  it('lets through the control characters allowed, and plain text of any script', () => {
    expect(hiddenCharacterProblem('a\tb\nc', new Set(['\t', '\n']))).toBeNull();
    expect(hiddenCharacterProblem('Müller – طلب ٤٧١٢ (№ 7) 注文')).toBeNull();
    expect(hiddenCharacterProblem('a\ud800b')).toEqual({ kind: 'surrogate' });
  });
});
