/**
 * A pattern JavaScript accepts with the `u` flag, rewritten in RE2's syntax with the same meaning
 * (patterns.ts says why tenant patterns run on RE2): the few places where RE2 reads the same syntax
 * otherwise (`\s` and `.` see Unicode line ends and spaces, `\u…` escapes, `\p{Letter}`, `[]`) are
 * rewritten; what RE2 cannot run in linear time (lookaround, backreferences) is refused with
 * `Unsupported`. Also estimates how large a program RE2 makes of it. Pure.
 */
/** Thrown while rewriting: a construct RE2 cannot run, with why. */
export class Unsupported extends Error {}

const LINEAR =
  'Warden matches patterns with RE2, in time linear in the text, and RE2 has no such thing';

/** ECMAScript's WhiteSpace and LineTerminator code points: what `\s` matches in JavaScript. */
const SPACES: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const hex = (n: number) => `\\x{${n.toString(16).toUpperCase()}}`;
const ranges = (list: ReadonlyArray<readonly [number, number]>) =>
  list.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');

/** Class items (without brackets) for JavaScript's `\s`, and for its `\S`. */
const SPACE_ITEMS = ranges(SPACES);
const NON_SPACE_ITEMS = ranges(
  SPACES.reduce<Array<[number, number]>>((out, [a, b], i) => {
    const from = i === 0 ? 0 : SPACES[i - 1][1] + 1;
    if (a > from) out.push([from, a - 1]);
    if (i === SPACES.length - 1 && b < MAX_CODE_POINT) out.push([b + 1, MAX_CODE_POINT]);
    return out;
  }, []),
);
/** `.` in JavaScript: any code point but a line terminator; with the `s` modifier, any at all. */
const DOT = `[^${hex(0x0a)}${hex(0x0d)}${hex(0x2028)}${hex(0x2029)}]`;
const ANY = `[${hex(0)}-${hex(MAX_CODE_POINT)}]`;

/** General categories by their long names; RE2 knows only the short ones. */
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
};

/** `\p{…}` in RE2's words: `Script=Greek` is `Greek`, `Letter` is `L`. */
function property(name: string): string {
  const eq = name.indexOf('=');
  if (eq < 0) return CATEGORIES[name] ?? name;
  const key = name.slice(0, eq);
  const value = name.slice(eq + 1);
  if (key === 'General_Category' || key === 'gc') return CATEGORIES[value] ?? value;
  if (key === 'Script' || key === 'sc') return value;
  throw new Unsupported(`\\p{${name}}: RE2 knows no ${key}; use \\p{Script=${value}} instead`);
}

/** The code point of `\u…` at i (a surrogate pair of two `\uXXXX` is one), and where it ends. */
function unicodeEscape(source: string, i: number): [number, number] {
  if (source[i + 2] === '{') {
    const end = source.indexOf('}', i);
    return [parseInt(source.slice(i + 3, end), 16), end + 1];
  }
  const high = parseInt(source.slice(i + 2, i + 6), 16);
  const low = /^\\u([0-9a-fA-F]{4})/.exec(source.slice(i + 6, i + 12));
  if (high >= 0xd800 && high <= 0xdbff && low) {
    const l = parseInt(low[1], 16);
    if (l >= 0xdc00 && l <= 0xdfff)
      return [(high - 0xd800) * 0x400 + (l - 0xdc00) + 0x10000, i + 12];
  }
  return [high, i + 6];
}

/**
 * The escape at i in RE2's syntax, and where it ends. In a class (`inClass`) it is class items:
 * `\s` there is ranges, not a bracketed class.
 */
function escape(source: string, i: number, inClass: boolean): [string, number] {
  const c = source[i + 1];
  switch (c) {
    case 's':
      return [inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`, i + 2];
    case 'S':
      return [inClass ? NON_SPACE_ITEMS : `[${NON_SPACE_ITEMS}]`, i + 2];
    case 'b':
      return [inClass ? hex(8) : '\\b', i + 2];
    case 'v':
      return [hex(0x0b), i + 2];
    case '0':
      return [hex(0), i + 2];
    case 'c':
      return [hex(source.charCodeAt(i + 2) % 32), i + 3];
    case 'x':
      return [hex(parseInt(source.slice(i + 2, i + 4), 16)), i + 4];
    case 'u': {
      const [code, end] = unicodeEscape(source, i);
      return [hex(code), end];
    }
    case 'p':
    case 'P': {
      const end = source.indexOf('}', i);
      return [`\\${c}{${property(source.slice(i + 3, end))}}`, end + 1];
    }
    case 'k':
      throw new Unsupported(`a backreference (\\k<…>) cannot be used: ${LINEAR}`);
    default:
      if (c >= '1' && c <= '9') {
        throw new Unsupported(`a backreference (\\${c}) cannot be used: ${LINEAR}`);
      }
      // \d \D \w \W \B \f \n \r \t and escaped syntax characters read the same in RE2.
      return [`\\${c}`, i + 2];
  }
}

/** The class that starts at i (`[…]`) in RE2's syntax, and where it ends. */
function charClass(source: string, i: number): [string, number] {
  let j = i + 1;
  const negated = source[j] === '^';
  if (negated) j++;
  let items = '';
  while (source[j] !== ']') {
    if (source[j] === '\\') {
      const [text, next] = escape(source, j, true);
      items += text;
      j = next;
    } else {
      // `[` is literal in a JavaScript class; RE2 would read `[:alpha:]` in it.
      items += source[j] === '[' ? '\\[' : source[j];
      j++;
    }
  }
  // `[]` matches nothing and `[^]` anything; RE2 reads a `]` right after `[` as a literal.
  if (items === '') return [negated ? ANY : `[^${hex(0)}-${hex(MAX_CODE_POINT)}]`, j + 1];
  return [`[${negated ? '^' : ''}${items}]`, j + 1];
}

/** The `(?…` group at i in RE2's syntax, whether `.` matches everything in it, and its end. */
function group(source: string, i: number, dotAll: boolean): [string, boolean, number] {
  if (source[i + 1] !== '?') return ['(', dotAll, i + 1];
  const rest = source.slice(i + 2, i + 4);
  if (rest.startsWith('=') || rest.startsWith('!')) {
    throw new Unsupported(`a lookahead ((?=…) or (?!…)) cannot be used: ${LINEAR}`);
  }
  if (rest === '<=' || rest === '<!') {
    throw new Unsupported(`a lookbehind ((?<=…) or (?<!…)) cannot be used: ${LINEAR}`);
  }
  // A named group: nothing reads what a group captured, and RE2 is stricter about names.
  if (rest.startsWith('<')) return ['(?:', dotAll, source.indexOf('>', i) + 1];
  // `(?:` and the modifiers `(?i:`, `(?-i:`, `(?s:`: `.` is rewritten here, so `s` is spent.
  const m = /^\(\?([a-z]*)(?:-([a-z]*))?:/.exec(source.slice(i, i + 12))!;
  const on = m[1] ?? '';
  const off = m[2] ?? '';
  if (on.includes('m') || off.includes('m')) {
    throw new Unsupported(
      "the m modifier cannot be used: RE2's multi-line ^ and $ see only \\n as a line end",
    );
  }
  const keepOn = on.replace('s', '');
  const keepOff = off.replace('s', '');
  const next = on.includes('s') ? true : off.includes('s') ? false : dotAll;
  return [`(?${keepOn}${keepOff ? `-${keepOff}` : ''}:`, next, i + m[0].length];
}

/**
 * What one piece of a pattern costs RE2: about one instruction per character, class or operator,
 * a repeat `{n,m}` copying its piece m times. RE2's time per character of text, and its time to
 * compile, grow with this size; a short pattern can hold a large one (`.{1000}` is 1,000).
 */
interface Cost {
  total: number;
  /** The last piece, which a quantifier repeats. */
  last: number;
}

/**
 * How often a quantifier at i must and may copy its piece (`{3,9}`: 3 and 9; `*`: 0 and 1), and
 * where it ends; null: none starts at i.
 */
function quantifier(source: string, i: number): [number, number, number] | null {
  const c = source[i];
  if (c === '*' || c === '+' || c === '?') return [0, 1, i + 1];
  if (c !== '{') return null;
  const braces = /\{(\d+)(,(\d*))?\}/y;
  braces.lastIndex = i;
  const m = braces.exec(source)!;
  const n = Number(m[1]);
  const most = m[2] === undefined ? n : m[3] === '' ? n + 1 : Number(m[3]);
  return [n, Math.max(most, 1), i + m[0].length];
}

/**
 * A pattern JavaScript accepts with the `u` flag, in RE2's syntax with the same meaning, and about
 * how large a program RE2 makes of it.
 */
export function toRe2Syntax(source: string): { re2: string; size: number } {
  let out = '';
  const dotAll: boolean[] = [false]; // per open group
  const costs: Cost[] = [{ total: 0, last: 0 }];
  const piece = (size: number) => {
    const cost = costs.at(-1)!;
    cost.total += size;
    cost.last = size;
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const q = quantifier(source, i);
    if (q) {
      // Each copy is the piece again; each optional one also a branch.
      const [least, most, next] = q;
      const cost = costs.at(-1)!;
      cost.total += cost.last * (most - 1) + (most - least) + 1;
      cost.last = 0;
      out += source.slice(i, next);
      i = next;
    } else if (c === '\\') {
      const [text, next] = escape(source, i, false);
      out += text;
      piece(1);
      i = next;
    } else if (c === '[') {
      const [text, next] = charClass(source, i);
      out += text;
      piece(1);
      i = next;
    } else if (c === '(') {
      const [text, inner, next] = group(source, i, dotAll.at(-1)!);
      dotAll.push(inner);
      costs.push({ total: 0, last: 0 });
      out += text;
      i = next;
    } else if (c === ')') {
      dotAll.pop();
      piece(costs.pop()!.total + 1);
      out += c;
      i++;
    } else {
      out += c === '.' ? (dotAll.at(-1) ? ANY : DOT) : c;
      if (c === '|') {
        costs.at(-1)!.total++;
        costs.at(-1)!.last = 0;
      } else {
        piece(1);
      }
      i++;
    }
  }
  return { re2: out, size: costs[0].total };
}
