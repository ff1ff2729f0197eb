/**
 * The action vocabulary of docs/rules.md: a planner answers exactly one of these, as JSON,
 * discriminated by `action`, and the screen host performs the ones in `HOST_ACTION_NAMES`
 * (`POST /action`, docs/screen-host.md). Coordinates are in the screen host's coordinate space
 * (`X-Screen-Width` × `X-Screen-Height`), which is the space the step's screenshot was taken in.
 *
 * Each side checks bodies against this table with its own parser and its own words: Warden
 * normalises what a model wrote (src/computer-use/actions/parse-action.ts), the host takes only
 * what Warden sends (screen-host/src/actions.ts).
 */

export interface ClickAction {
  action: 'click' | 'double_click';
  x: number;
  y: number;
  /** The label the model thinks it clicks. It can only make a click stricter, never looser. */
  target?: string;
}

export interface TypeAction {
  action: 'type';
  /** 1–500 characters, counted in code points; typed verbatim. */
  text: string;
}

export interface KeyAction {
  action: 'key';
  /** As the model wrote it after parsing; canonical (`Ctrl+S`, see keys.ts) when it is sent. */
  key: string;
}

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export interface ScrollAction {
  action: 'scroll';
  x: number;
  y: number;
  direction: ScrollDirection;
  /** 1–10 notches, default 3. */
  amount: number;
}

export interface WaitAction {
  action: 'wait';
  /** 0.1–10. */
  seconds: number;
}

export interface DoneAction {
  action: 'done';
  summary: string;
}

export interface FailAction {
  action: 'fail';
  reason: string;
}

export type Action =
  ClickAction | TypeAction | KeyAction | ScrollAction | WaitAction | DoneAction | FailAction;

export type ActionName = Action['action'];

export const ACTION_NAMES: readonly ActionName[] = [
  'click',
  'double_click',
  'type',
  'key',
  'scroll',
  'wait',
  'done',
  'fail',
];

/** The actions that reach a screen host; `wait`, `done` and `fail` are Warden's own. */
export const HOST_ACTION_NAMES = ['click', 'double_click', 'type', 'key', 'scroll'] as const;
export type HostActionName = (typeof HOST_ACTION_NAMES)[number];

/** An action as `POST /action` carries it. */
export type HostAction = Extract<Action, { action: HostActionName }>;

export function isActionName(name: unknown): name is ActionName {
  return (ACTION_NAMES as readonly unknown[]).includes(name);
}

export function isHostActionName(name: unknown): name is HostActionName {
  return (HOST_ACTION_NAMES as readonly unknown[]).includes(name);
}

/** The fields of each action besides `action`; any other field is refused. */
export const ACTION_FIELDS: Readonly<
  Record<ActionName, { readonly required: readonly string[]; readonly optional: readonly string[] }>
> = Object.freeze({
  click: { required: ['x', 'y'], optional: ['target'] },
  double_click: { required: ['x', 'y'], optional: ['target'] },
  type: { required: ['text'], optional: [] },
  key: { required: ['key'], optional: [] },
  scroll: { required: ['x', 'y', 'direction'], optional: ['amount'] },
  wait: { required: ['seconds'], optional: [] },
  done: { required: ['summary'], optional: [] },
  fail: { required: ['reason'], optional: [] },
});

export const SCROLL_DIRECTIONS: readonly ScrollDirection[] = ['up', 'down', 'left', 'right'];

/** The field limits of the vocabulary. */
export const ACTION_LIMITS = Object.freeze({
  /** `type` text, in code points. */
  textMax: 500,
  /** a click's `target`. */
  targetMax: 200,
  /** `done` summary and `fail` reason, in code points. */
  messageMax: 2000,
  /** `scroll` amount, in notches (wheel clicks). */
  amountMin: 1,
  amountMax: 10,
  amountDefault: 3,
  /** `wait`, in seconds. */
  secondsMin: 0.1,
  secondsMax: 10,
});

export function isScrollDirection(direction: unknown): direction is ScrollDirection {
  return (SCROLL_DIRECTIONS as readonly unknown[]).includes(direction);
}

/** A `scroll` amount: an integer from 1 to 10. */
export function isScrollAmount(amount: unknown): amount is number {
  return (
    typeof amount === 'number' &&
    Number.isInteger(amount) &&
    amount >= ACTION_LIMITS.amountMin &&
    amount <= ACTION_LIMITS.amountMax
  );
}
