/**
 * The actions a screen host performs (docs/rules.md, less `wait`, `done` and `fail`, which never reach
 * it) and their validation. The platform has checked the action already; the host checks again
 * because it is the last thing between a request and the desktop. The vocabulary, its limits and
 * the canonical keys are the protocol's (@warden/protocol); the host refuses anything else.
 */
import {
  ACTION_FIELDS,
  ACTION_LIMITS,
  type HostAction,
  isActionName,
  isHostActionName,
  isScrollAmount,
  isScrollDirection,
  parseKey,
  type ParsedKey,
  SCROLL_DIRECTIONS,
  textProblemInWords,
  typedTextProblem,
} from '@warden/protocol';

/** T's fields as an object type: unlike an interface, also a `Record<string, unknown>`. */
type Plain<T> = T extends unknown ? { [K in keyof T]: T[K] } : never;

/** An action as `POST /action` carries it. */
export type ScreenAction = Plain<HostAction>;

/** A validated action, with the key already parsed for the backend. */
export type CheckedAction =
  Plain<Exclude<HostAction, { action: 'key' }>> | { action: 'key'; key: string; parsed: ParsedKey };

export interface ScreenSize {
  width: number;
  height: number;
}

export type Checked = { ok: true; action: CheckedAction } | { ok: false; reason: string };

function refuse(reason: string): Checked {
  return { ok: false, reason };
}

function checkPoint(body: Record<string, unknown>, screen: ScreenSize): string | null {
  for (const [name, limit] of [
    ['x', screen.width],
    ['y', screen.height],
  ] as const) {
    const value = body[name];
    if (typeof value !== 'number' || !Number.isInteger(value)) return `${name} must be an integer`;
    if (value < 0 || value >= limit) return `${name} must be at least 0 and below ${limit}`;
  }
  return null;
}

/**
 * Text a keyboard can type, by the protocol's one rule for typed text (the same as Warden's): no
 * control characters but tab and newline, no unpaired surrogates (they cannot be sent as
 * keystrokes), no bidirectional controls or invisible format characters.
 */
function checkText(text: string): string | null {
  const problem = typedTextProblem(text);
  return problem ? `text ${textProblemInWords(problem)}` : null;
}

/** Validates a request body against the action vocabulary and the screen's size. Pure. */
export function checkAction(body: unknown, screen: ScreenSize): Checked {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse('the body must be a JSON object');
  }
  const record = body as Record<string, unknown>;
  const kind = record.action;
  if (typeof kind !== 'string') return refuse('action must be a string');
  if (isActionName(kind) && !isHostActionName(kind))
    return refuse(`action "${kind}" is handled by Warden and never sent to a screen host`);
  if (!isHostActionName(kind)) return refuse(`unknown action "${kind}"`);
  const fields = ACTION_FIELDS[kind];
  const allowed = new Set(['action', ...fields.required, ...fields.optional]);
  for (const name of Object.keys(record)) {
    if (!allowed.has(name)) return refuse(`unknown field "${name}" for action "${kind}"`);
  }
  for (const name of fields.required) {
    if (record[name] === undefined) return refuse(`missing field "${name}" for action "${kind}"`);
  }

  switch (kind) {
    case 'click':
    case 'double_click': {
      const problem = checkPoint(record, screen);
      if (problem) return refuse(problem);
      const target = record.target;
      if (
        target !== undefined &&
        (typeof target !== 'string' || target.length > ACTION_LIMITS.targetMax)
      ) {
        return refuse(`target must be a string of at most ${ACTION_LIMITS.targetMax} characters`);
      }
      const action: CheckedAction = { action: kind, x: record.x as number, y: record.y as number };
      if (target !== undefined) action.target = target;
      return { ok: true, action };
    }
    case 'type': {
      if (typeof record.text !== 'string') return refuse('text must be a string');
      const problem = checkText(record.text);
      if (problem) return refuse(problem);
      return { ok: true, action: { action: 'type', text: record.text } };
    }
    case 'key': {
      if (typeof record.key !== 'string') return refuse('key must be a string');
      const parsed = parseKey(record.key);
      if ('error' in parsed)
        return refuse(
          `${parsed.error}; keys are sent as Warden's canonical names, e.g. Enter, Shift+Tab, Ctrl+S`,
        );
      return { ok: true, action: { action: 'key', key: record.key, parsed } };
    }
    case 'scroll': {
      const problem = checkPoint(record, screen);
      if (problem) return refuse(problem);
      const direction = record.direction;
      if (!isScrollDirection(direction)) {
        return refuse(`direction must be one of ${SCROLL_DIRECTIONS.join(', ')}`);
      }
      const amount = record.amount ?? ACTION_LIMITS.amountDefault;
      if (!isScrollAmount(amount)) {
        return refuse(
          `amount must be an integer from ${ACTION_LIMITS.amountMin} to ${ACTION_LIMITS.amountMax}`,
        );
      }
      return {
        ok: true,
        action: {
          action: 'scroll',
          x: record.x as number,
          y: record.y as number,
          direction,
          amount,
        },
      };
    }
  }
}

/** The action as the JSON the platform sent (the parsed key dropped). */
export function plainAction(action: CheckedAction): ScreenAction {
  if (action.action === 'key') return { action: 'key', key: action.key };
  return { ...action };
}
