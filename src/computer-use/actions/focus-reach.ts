/**
 * Where typed text lands when it moves the focus (docs/rules.md, "Never typed"): a Tab in the text
 * types Tab and a newline types Enter, so the text after one goes into whatever field has the
 * focus then, not the field focused when the typing began. Warden never types a secret, wherever
 * the keystrokes land: the text after such a character is judged for every field it can reach,
 * and where Warden cannot tell which fields those are, the text is refused at that character (the
 * planner sends the key as its own action, then types into the field it reached). Pure.
 *
 * What the text after a Tab can reach: no host serves its focus order, and a Tab may wrap round,
 * so every field of the screen the outline lists is taken as reachable, a set that holds whatever
 * the order is. Warden can tell only where the host serves an outline that marks the focus (else
 * the keyboard may be in a window the outline does not describe), and every reachable field has a
 * name its label rule can read (a field the outline names nothing would need its label read
 * beside it). A newline presses Enter: the application processes the screen, and what has the
 * focus after it is on a screen Warden has not seen, so the text after a newline is never judged
 * but refused.
 */
import type { OutlineElement, ScreenContext } from './action.types';
import { isTextField } from './label-at';
import type { Rules } from './rules';
import { clean } from './text';

/** The characters of typed text that press a key that moves the focus, and the key each presses. */
const MOVES: Readonly<Record<string, 'Tab' | 'Enter'>> = { '\t': 'Tab', '\n': 'Enter' };

/** More reachable fields than this are more than can be judged and recorded: Warden cannot tell. */
export const REACHABLE_MAX = 100;

/** A character of the text that moves the focus and has text after it. */
export interface FocusMove {
  /** Its place in the text, in code points from 1, as a person counts. */
  at: number;
  /** The key it presses. */
  key: 'Tab' | 'Enter';
}

/** Where the text after the first focus move can land. */
export type Reach =
  /** No text follows a focus move: everything typed goes into the focused field. */
  | { kind: 'focused' }
  /**
   * The fields the text after `move` can reach, each to be judged; `unjudged` says why not every
   * one of them can be (Warden then cannot tell, unless one already refuses the text), else null.
   */
  | { kind: 'fields'; move: FocusMove; fields: OutlineElement[]; unjudged: string | null }
  /** Warden cannot tell which field the text after `move` reaches, and why. */
  | { kind: 'unknown'; move: FocusMove; why: string };

/** Whether typed text holds a character that moves the focus (a Tab or a newline), anywhere. */
export function movesFocus(text: string): boolean {
  return /[\t\n]/.test(text);
}

/**
 * The first character of the text that moves the focus and is followed by something typed (not
 * only by more such characters), and the first newline that is; null when none is. A focus move
 * with nothing typed after it types nothing into another field.
 */
export function focusMoves(text: string): { first: FocusMove; newline: FocusMove | null } | null {
  let first: FocusMove | null = null;
  let newline: FocusMove | null = null;
  let pending: FocusMove[] = [];
  let i = 0;
  for (const ch of text) {
    i++;
    const key = MOVES[ch];
    if (key) {
      pending.push({ at: i, key });
      continue;
    }
    for (const move of pending) {
      first ??= move;
      if (move.key === 'Enter') newline ??= move;
    }
    pending = [];
  }
  return first === null ? null : { first, newline };
}

/** The outline's elements text can go into: text fields, password fields, editable elements. */
function typingTargets(outline: readonly OutlineElement[], rules: Rules): OutlineElement[] {
  return outline.filter(
    (e) =>
      e !== null &&
      typeof e === 'object' &&
      (e.password === true || isTextField(e, rules) || e.states?.includes('editable') === true),
  );
}

/** Where the text after its first focus move can land on this screen (see the file's comment). */
export function reachOf(text: string, screen: ScreenContext, rules: Rules): Reach {
  const moves = focusMoves(text);
  if (moves === null) return { kind: 'focused' };
  const { first, newline } = moves;
  const unknown = (why: string): Reach => ({ kind: 'unknown', move: first, why });
  if (newline !== null) {
    const which =
      newline === first
        ? 'it presses Enter'
        : `the newline (character ${newline.at}) presses Enter`;
    return unknown(
      `${which}: the application processes the screen, and the focus lands on a screen Warden has not seen`,
    );
  }
  if (!Array.isArray(screen.outline)) return unknown('the screen host serves no outline');
  if (!screen.outline.some((e) => e?.focused === true)) {
    return unknown('the screen host marks no field as focused');
  }
  const fields = typingTargets(screen.outline, rules);
  const unjudged =
    fields.length > REACHABLE_MAX
      ? `the screen has more than ${REACHABLE_MAX} fields`
      : fields.some((e) => typeof e.name !== 'string' || clean(e.name, Infinity) === '')
        ? 'a field it can reach has no name in the outline'
        : null;
  return { kind: 'fields', move: first, fields, unjudged };
}

/** `a Tab (character 3)` */
export function moveInWords(move: FocusMove): string {
  return `${move.key === 'Tab' ? 'a Tab' : 'a newline'} (character ${move.at})`;
}
