import type { Action } from '@warden/protocol';

/**
 * The action vocabulary of DESIGN §5 is the protocol's (@warden/protocol), shared with the screen
 * host; what follows is what Warden's own rules add around it.
 */
export {
  ACTION_NAMES,
  type Action,
  type ActionName,
  type ClickAction,
  type DoneAction,
  type FailAction,
  type KeyAction,
  type ScrollAction,
  type ScrollDirection,
  type TypeAction,
  type WaitAction,
} from '@warden/protocol';

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
  /**
   * What the run typed into the field that has focus since the focus last moved into it, oldest
   * first (`typedSinceFocus`): a card number split over several `type` actions is refused.
   */
  typed?: readonly string[];
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
