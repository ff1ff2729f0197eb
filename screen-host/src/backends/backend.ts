import type { CheckedAction } from '../actions';
import type { RawFrame } from '../frames';

/** The outline's shapes are the protocol's, shared with Warden (docs/screen-host.md). */
import type { OutlineElement } from '@warden/protocol';
export type { OutlineElement, Rect } from '@warden/protocol';

export interface Screenshot {
  png: Buffer;
  /** The coordinate space actions use; on a HiDPI screen it can differ from the PNG's pixels. */
  width: number;
  height: number;
  /**
   * The PNG's pixels, from a backend that holds them anyway (the sim draws them, x11 reads them),
   * so that the host need not decode its own PNG for the frame hash. They must be exactly what the
   * PNG decodes to. Without them the host decodes the PNG (windows).
   */
  frame?: RawFrame;
}

export interface BackendHealth {
  /** Whether GET /elements would serve an outline now (the capability `elements`). */
  elements: boolean;
  /** Further fields of GET /health, by name; they never replace the host's own. */
  facts?: Record<string, unknown>;
}

/** What a backend knows about where typed text goes, so the action log can leave secrets out. */
export type TypingTarget = 'password' | 'plain' | 'unknown';

export interface ScreenBackend {
  readonly name: string;
  /** The coordinate space of actions. */
  size(): { width: number; height: number };
  screenshot(): Promise<Screenshot>;
  /**
   * The screen's pixels now, without a PNG: what the frame precondition compares (docs/screen-host.md). A
   * backend without it is asked for a screenshot, whose frame is used (or its PNG decoded).
   */
  capture?(): Promise<RawFrame>;
  /** Performs one validated action; resolves when the input was delivered. */
  perform(action: CheckedAction): Promise<void>;
  /**
   * The outline, or null where this backend cannot read one now (the host answers 404). A
   * backend that asks another process for it (windows: SAP GUI Scripting) answers a promise.
   */
  elements(): OutlineElement[] | null | Promise<OutlineElement[] | null>;
  /**
   * What GET /health says of this backend's outline, where asking for a whole outline would be
   * too slow to say whether there is one: whether it serves one now, and facts about its source
   * (windows: `sap_gui`). Never throws. Without it, the host asks `elements()`.
   */
  health?(): Promise<BackendHealth>;
  /** Where the next typed text would go, asked before a `type` is performed. */
  typingTarget(): TypingTarget;
  close(): Promise<void>;
}
