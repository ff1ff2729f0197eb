/**
 * The action vocabulary of DESIGN §5: the planner answers exactly one of these, as JSON,
 * discriminated by `action`. Coordinates are in the screen host's coordinate space
 * (`X-Screen-Width` × `X-Screen-Height`), which is the space the step's screenshot was taken in.
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
  /** As the model wrote it after parsing; canonical (`Ctrl+S`) after `validate`. */
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

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One element of the screen host's accessibility outline (`GET /elements`, DESIGN §7). */
export interface OutlineElement {
  id: string;
  role: string;
  name: string;
  rect: Rect;
  password?: boolean;
  focused?: boolean;
}

/** What validation knows about the screen the step saw. */
export interface ScreenContext {
  /** The coordinate space actions use (`X-Screen-Width`). */
  width: number;
  /** The coordinate space actions use (`X-Screen-Height`). */
  height: number;
  /** The host's outline, or null when the host has none. */
  outline: OutlineElement[] | null;
  /** The element the caller believes has focus (e.g. the field last clicked). */
  focus?: OutlineElement | null;
}

export type Kind = 'read' | 'write';

export interface Classification {
  kind: Kind;
  /** One sentence a person understands, naming where the label came from. */
  why: string;
}

/** The labels found for a click, in DESIGN order; null or empty means "nothing read". */
export interface Labels {
  /** The name of the outline element at the point. */
  outline?: string | null;
  /** Text read from the pixels around the point. */
  ocr?: string | null;
  /** The planner's `target`. */
  target?: string | null;
}

export type ActionResult = { ok: true; action: Action } | { ok: false; reason: string };
