/**
 * Card numbers are never typed by a planner (docs/rules.md): 13–19 digits passing the Luhn check,
 * spaces or dashes allowed between them, also split over consecutive `type` actions into one field.
 *
 * The text is split into groups of digits joined by separators (spaces and dashes of any kind).
 * Every run of consecutive groups is checked, so a card number is found even when more digits
 * follow it after a separator ("4111 1111 1111 1111 123"). A run of 20 or more digits with no
 * separator is not a card number. Full-width digits count (NFKC).
 */

/** Spaces (including no-break and thin spaces) and dashes (hyphen, en dash, minus …). */
const SEPARATOR = /^[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\-\u2010-\u2015\u2212\ufe63\uff0d]$/u;

export function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

interface Digit {
  /** 0–9 */
  value: string;
  /** Where the character is in the text, in UTF-16 units. */
  index: number;
  length: number;
}

/** The digit value of one character: ASCII, full-width and other compatibility digits (NFKC). */
function digitOf(ch: string): string | null {
  const d = ch.length === 1 && ch >= '0' && ch <= '9' ? ch : ch.normalize('NFKC');
  return d.length === 1 && d >= '0' && d <= '9' ? d : null;
}

/** Groups of digits joined by separators: "4111 1111-1111 x 22" → [[4111, 1111, 1111], [22]]. */
function digitChains(text: string): Digit[][][] {
  const chains: Digit[][][] = [];
  let chain: Digit[][] = [];
  let group: Digit[] = [];
  let pendingSeparator = false;
  const end = () => {
    if (group.length) chain.push(group);
    if (chain.length) chains.push(chain);
    chain = [];
    group = [];
    pendingSeparator = false;
  };
  let index = 0;
  for (const ch of text) {
    const value = digitOf(ch);
    if (value !== null) {
      if (pendingSeparator) {
        chain.push(group);
        group = [];
        pendingSeparator = false;
      }
      group.push({ value, index, length: ch.length });
    } else if (SEPARATOR.test(ch) && group.length > 0) {
      pendingSeparator = true;
    } else {
      end();
    }
    index += ch.length;
  }
  end();
  return chains;
}

/** Every card number in the text, as the digits that make it up. */
function cardNumbers(text: string): Digit[][] {
  const found: Digit[][] = [];
  for (const chain of digitChains(text)) {
    for (let i = 0; i < chain.length; i++) {
      let digits: Digit[] = [];
      for (let j = i; j < chain.length; j++) {
        digits = digits.concat(chain[j]);
        if (digits.length > 19) break;
        if (digits.length >= 13 && luhn(digits.map((d) => d.value).join(''))) {
          found.push(digits);
          break;
        }
      }
    }
  }
  return found;
}

/** True when the text contains something that looks like a payment card number. */
export function containsCardNumber(text: string): boolean {
  return cardNumbers(text).length > 0;
}

/**
 * True when typing `text` into a field that already holds `before` (the texts typed into it since
 * the focus last moved, oldest first: see typed-field.ts) leaves a card number in the field: the
 * pieces are read as the field holds them, one after the other. Pure.
 */
export function completesCardNumber(before: readonly string[], text: string): boolean {
  return before.length > 0 && containsCardNumber(before.join('') + text);
}

/**
 * The text with every card number's digits but the last four replaced by "•", for recording a
 * refused `type` action without the number in it. With `before` (as for `completesCardNumber`), a
 * text that completes a number split over earlier actions has every digit masked: the earlier
 * pieces are recorded already, and which digits are the number's last four depends on the cut.
 */
export function maskCardNumbers(text: string, before: readonly string[] = []): string {
  const masked = new Set<number>();
  const all = completesCardNumber(before, text);
  let index = 0;
  for (const ch of text) {
    if (all && digitOf(ch) !== null) masked.add(index);
    index += ch.length;
  }
  for (const digits of all ? [] : cardNumbers(text)) {
    for (const d of digits.slice(0, -4)) masked.add(d.index);
  }
  if (masked.size === 0) return text;
  let out = '';
  index = 0;
  for (const ch of text) {
    out += masked.has(index) ? '•' : ch;
    index += ch.length;
  }
  return out;
}

/**
 * A JSON value with every card number masked as `maskCardNumbers` does, in its strings, its keys
 * and its numbers: a number whose digits hold one becomes the masked text. Masked after parsing,
 * so the result is still a JSON value (masking the JSON text would turn `4111111111111111` into
 * `••••…1111`, which is no JSON).
 */
export function maskCardNumbersIn(value: unknown): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (typeof value === 'number') {
    const text = JSON.stringify(value);
    const masked = maskCardNumbers(text);
    return masked === text ? value : masked;
  }
  if (Array.isArray(value)) return value.map(maskCardNumbersIn);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [maskCardNumbers(key), maskCardNumbersIn(v)]),
    );
  }
  return value;
}
