/**
 * Validation (docs/rules.md): may this action be sent to the screen the step saw? An invalid action
 * is refused with a reason, recorded, and counts toward the run's three.
 */
import type { Action, ActionResult, OutlineElement, ScreenContext } from './action.types';
import { completesCardNumber, containsCardNumber } from './card-number';
import { normaliseKey, keyKind } from './keys';
import { focusedFields } from './label-at';
import { ocrText } from './ocr-label';
import { checkShape } from './parse-action';
import type { Rules } from './rules';
import { focusMoves, moveInWords, reachOf } from './focus-reach';
import { findSecretFieldWord, type SecretFieldMatch } from './secret-fields';
import { clean, quote } from './text';

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

function validScreen(screen: ScreenContext): boolean {
  const { width, height } = screen ?? {};
  return Number.isSafeInteger(width) && Number.isSafeInteger(height) && width > 0 && height > 0;
}

function inside(x: number, y: number, screen: ScreenContext): string | null {
  if (x >= 0 && x < screen.width && y >= 0 && y < screen.height) return null;
  return `the point (${x}, ${y}) is outside the screenshot (${screen.width}×${screen.height})`;
}

/** The password field that has focus, if any: the caller's belief or the host's `focused` mark. */
function focusedPasswordField(screen: ScreenContext): OutlineElement | null {
  if (screen.focus?.password === true) return screen.focus;
  if (!Array.isArray(screen.outline)) return null;
  return screen.outline.find((e) => e?.focused === true && e.password === true) ?? null;
}

/** What the run typed into the focused field before, as far as the caller knows; fails closed. */
function typedBefore(screen: ScreenContext): readonly string[] {
  const typed = screen.typed;
  if (typed === undefined) return [];
  // A caller that says something but nothing readable: no piece can be left out.
  if (!Array.isArray(typed)) throw new TypeError('screen.typed must be a list of texts');
  return typed.filter((t): t is string => typeof t === 'string');
}

const NEVER_TYPED = 'Warden never types into a password, PIN, TAN, one-time code, OTP or CVV field';

function names(match: SecretFieldMatch): string {
  const read = match.near === undefined ? '' : ` (read as ${quote(match.near, 40)})`;
  return `names ${quote(match.spelling, 40)}${read}`;
}

/**
 * Why typing into the focused field is refused for its label (docs/rules.md, "Never typed"), or null:
 * the name the outline gives the focused field (the caller's belief or the host's `focused`
 * mark; both are looked at), else what OCR read beside it. Where neither gives a label, Warden
 * cannot tell, and typing stays what it always is: a write, held for a person (docs/rules.md).
 */
function secretFieldLabel(screen: ScreenContext, rules: Rules): string | null {
  for (const field of focusedFields(screen)) {
    const name = typeof field?.name === 'string' ? field.name : '';
    if (clean(name, Infinity) === '') continue;
    const match = findSecretFieldWord(name, rules.secretFields, false);
    if (match) return `the focused field ${quote(name, 40)} ${names(match)}; ${NEVER_TYPED}`;
  }
  const label = ocrText(screen.focusLabel);
  if (label === null) return null;
  const match = findSecretFieldWord(label, rules.secretFields, true);
  if (!match) return null;
  return `the focused field's label ${quote(label, 40)} (read from the screen by OCR) ${names(match)}; ${NEVER_TYPED}`;
}

/**
 * Why text that moves the focus (a Tab, a newline) is refused for where the rest of it lands
 * (docs/rules.md, "Never typed", focus-reach.ts), or null: a field it can reach is a password field
 * or its name names a secret field's word, or Warden cannot tell which fields it reaches. What
 * follows the focus move is withheld from the record: it may be a secret.
 */
function reachRefusal(text: string, screen: ScreenContext, rules: Rules): ActionResult | null {
  const reach = reachOf(text, screen, rules);
  if (reach.kind === 'focused') return null;
  // Before any screen, only text after a newline is known to go where nothing can judge it.
  if (screen.unseen === true && focusMoves(text)?.newline == null) return null;
  const { move } = reach;
  const holds = `the text holds ${moveInWords(move)} with more text after it`;
  const own = `send ${move.key} as its own key action, so that each text is judged for the field it goes into`;
  const refuse = (reason: string) => ({ ...fail(reason), withheldFrom: move.at });
  const unknown = (why: string) =>
    refuse(`${holds}, and Warden cannot tell which field that text reaches (${why}); ${own}`);
  if (reach.kind === 'unknown') return unknown(reach.why);
  const wherever = 'wherever the keystrokes land';
  for (const field of reach.fields) {
    const name = quote(String(field.name), 40);
    if (field.password === true) {
      return refuse(
        `${holds}, which can reach the field ${name}, a password field; Warden never types into password fields, ${wherever}: ${own}`,
      );
    }
    const match = findSecretFieldWord(String(field.name), rules.secretFields, false);
    if (match) {
      return refuse(
        `${holds}, which can reach the field ${name}, which ${names(match)}; ${NEVER_TYPED}, ${wherever}: ${own}`,
      );
    }
  }
  return reach.unjudged === null ? null : unknown(reach.unjudged);
}

/**
 * Checks an action against the screen and the rules, and returns it normalised (canonical key,
 * defaults filled in) or a refusal with the reason. It re-checks the shape, so anything that
 * claims to be an action (a stored scripted step, say) can be handed to it. Pure; never throws.
 */
export function validate(action: Action, screen: ScreenContext, rules: Rules): ActionResult {
  try {
    return check(action, screen, rules);
  } catch {
    // Only a hostile object (a throwing getter, a Proxy) gets here; it is refused, not thrown.
    return fail('the action could not be checked');
  }
}

function check(action: Action, screen: ScreenContext, rules: Rules): ActionResult {
  const shape = checkShape(action);
  if (!shape.ok) return shape;
  const a = shape.action;
  if (!validScreen(screen)) return fail('the screen size is unknown, so no action can be checked');

  switch (a.action) {
    case 'click':
    case 'double_click':
    case 'scroll': {
      const outside = inside(a.x, a.y, screen);
      return outside ? fail(outside) : { ok: true, action: a };
    }
    case 'type': {
      if (containsCardNumber(a.text)) {
        return fail(
          'the text looks like a card number (13–19 digits passing the Luhn check); Warden never types card numbers',
        );
      }
      if (completesCardNumber(typedBefore(screen), a.text)) {
        return fail(
          'with the text typed into this field before, the field would hold a card number (13–19 digits passing the Luhn check); Warden never types card numbers, not even in pieces',
        );
      }
      const field = focusedPasswordField(screen);
      if (field) {
        const name =
          typeof field.name === 'string' && field.name.trim() ? ` ${quote(field.name)}` : '';
        return {
          ...fail(
            `the focused field${name} is a password field; Warden never types into password fields`,
          ),
          withheldFrom: 0,
        };
      }
      const secret = secretFieldLabel(screen, rules);
      if (secret) return { ...fail(secret), withheldFrom: 0 };
      const reached = reachRefusal(a.text, screen, rules);
      if (reached) return reached;
      return { ok: true, action: a };
    }
    case 'key': {
      const key = normaliseKey(a.key, rules);
      if (key === null) return fail(`${quote(a.key, 40)} is not a key Warden knows`);
      if (keyKind(key, rules) === null) {
        return fail(
          `key ${key} is not allowed; the allowed keys are the navigation keys (${[...rules.navigationKeys].join(', ')}) and the commit keys (${[...rules.commitKeys].join(', ')})`,
        );
      }
      return { ok: true, action: { action: 'key', key } };
    }
    case 'wait':
    case 'done':
    case 'fail':
      return { ok: true, action: a };
  }
}
