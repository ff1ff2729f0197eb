/**
 * Card numbers are never typed by a planner (DESIGN §5): 13–19 digits passing the Luhn check,
 * spaces or dashes allowed between them.
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

/** Digit groups joined by separators: "4111 1111-1111 x 22" → [["4111","1111","1111"], ["22"]]. */
function digitChains(text: string): string[][] {
  const chains: string[][] = [];
  let chain: string[] = [];
  let group = '';
  let pendingSeparator = false;
  const end = () => {
    if (group) chain.push(group);
    if (chain.length) chains.push(chain);
    chain = [];
    group = '';
    pendingSeparator = false;
  };
  for (const ch of text.normalize('NFKC')) {
    if (ch >= '0' && ch <= '9') {
      if (pendingSeparator) {
        chain.push(group);
        group = '';
        pendingSeparator = false;
      }
      group += ch;
    } else if (SEPARATOR.test(ch) && group !== '') {
      pendingSeparator = true;
    } else {
      end();
    }
  }
  end();
  return chains;
}

/** True when the text contains something that looks like a payment card number. */
export function containsCardNumber(text: string): boolean {
  for (const chain of digitChains(text)) {
    for (let i = 0; i < chain.length; i++) {
      let digits = '';
      for (let j = i; j < chain.length; j++) {
        digits += chain[j];
        if (digits.length > 19) break;
        if (digits.length >= 13 && luhn(digits)) return true;
      }
    }
  }
  return false;
}
