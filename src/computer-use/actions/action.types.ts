import type { Action, OutlineElement as WireElement, Rect } from '@warden/protocol';

/**
 * The action vocabulary of docs/rules.md is the protocol's (@warden/protocol), shared with the screen
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

export type { MessageType, OutlineArea, OutlineState, Rect } from '@warden/protocol';

/**
 * One element of the screen host's accessibility outline (`GET /elements`, docs/screen-host.md), as Warden
 * keeps it once the host's answer is checked (host-client/host-answers.ts): the protocol's element,
 * with `focused` set where the host's `states` say so.
 */
export interface OutlineElement extends WireElement {
  focused?: boolean;
  /**
   * Its rect meets the agent's `redact_regions`: its name, description and value were left out
   * as it was read (host-client/redaction.ts). Nothing could read its label, and nothing may take
   * the missing label for a harmless one.
   */
  redacted?: true;
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
  /**
   * What OCR read beside the focused field, where the outline names no focused field (no outline,
   * or an unnamed one): the field's label, for the password rule (docs/rules.md, "Never typed").
   */
  focusLabel?: OcrReading | null;
  /**
   * What OCR read in the title bar, where the host serves no outline (`needsTitle`): the screen's
   * title for screen rules. With an outline the title is the outline's `title` element, and this
   * is not looked at.
   */
  titleBar?: OcrReading | null;
  /**
   * The agent's `redact_regions`: what lies under them is black in the screenshot and has no text
   * in the outline, so nothing read there may make a click a read.
   */
  redacted?: readonly Rect[];
  /**
   * No screen is known yet: a script checked as it is saved. Rules that depend on the screen (what
   * text after a Tab reaches) are left to each step it takes; the rest are checked.
   */
  unseen?: true;
  /**
   * The run's last step whose action may have reached the screen (`previousAction`): an Enter
   * right after typing a transaction code into the command field (a `command_field` screen rule).
   */
  previous?: EarlierStep | null;
}

/** One earlier step of the run, as the engine reads its history. */
export interface EarlierStep {
  action: unknown;
  outcome: string | null;
}

/** One word OCR read, with tesseract's confidence (0–100). */
export interface OcrWord {
  text: string;
  confidence: number;
}

/** Why OCR gave no words: nothing was there to read, it failed, or it took too long. */
export type OcrFailure = 'no_text' | 'failed' | 'timed_out';

/**
 * What OCR made of the pixels around a point, as the rules take it (docs/rules.md, "Labels fail
 * closed"): every word it read on the line, however unsure, and where the line is; or why it
 * read none. The rules decide what the words say (ocr-label.ts).
 */
export type OcrReading =
  | {
      words: readonly OcrWord[];
      /** Where the line read is, in the coordinate space of actions (kept as evidence). */
      box?: { x: number; y: number; width: number; height: number };
    }
  | { unreadable: OcrFailure };

export type Kind = 'read' | 'write';

export interface Classification {
  kind: Kind;
  /** One sentence a person understands, naming where the label came from. */
  why: string;
  /**
   * The weakening that made a read of what would otherwise be a write (docs/security.md): the send checks
   * it is still in force. Absent: the default rules made it a read, or it is a write.
   */
  loosenedBy?: Loosening;
  /** A click that changes a value (a checkbox, an option …): an edit, a write like typing. */
  edit?: true;
}

/**
 * A weakening that makes a read: `unlabelled_clicks: "read"`, screen rule `n` (1-based), or a word
 * of the agent's `navigation_words`.
 */
export type Loosening =
  { unlabelledClicks: 'read' } | { screenRule: number } | { navigationWords: true };

/** The labels found for a click, in the order docs/rules.md gives; null or empty means "nothing read". */
export interface Labels {
  /** The name of the outline element at the point. */
  outline?: string | null;
  /** Its description (tooltip), read as a label too: "Record the current transaction". */
  description?: string | null;
  /** Its role as the host said it, for the why. */
  role?: string | null;
  /** What a click on it does by its role (`control_roles`); null or absent: the role says nothing. */
  control?: 'command' | 'value' | 'navigation' | null;
  /** What OCR read from the pixels around the point; null or absent: nothing was read. */
  ocr?: OcrReading | null;
  /** The planner's `target`. */
  target?: string | null;
  /**
   * The name of the element at the point when the outline marks it as a text field (`""` when
   * unnamed): a click there focuses it (docs/rules.md). Absent or null: not a text field, or no outline.
   */
  textField?: string | null;
  /**
   * The screen host served an outline for this screen. `unlabelled_clicks: "read"` takes effect
   * only then (docs/rules.md); absent means it did not.
   */
  outlineServed?: boolean;
  /**
   * The outline was served and has no element at the point: the application draws what is there
   * without one (GnuCash's register cells). Said in the why of a click nothing could read.
   */
  noElement?: boolean;
  /**
   * The click lands under the agent's `redact_regions` (its point, or the element there): its
   * label was hidden from Warden, so no label and no missing label makes it a read.
   */
  redacted?: boolean;
}

export type ActionResult =
  | { ok: true; action: Action }
  | {
      ok: false;
      reason: string;
      /**
       * The text may be meant for a password or code field: it is not recorded, not even refused,
       * from this code point on (0: none of it; after a Tab, what follows the Tab).
       */
      withheldFrom?: number;
    };
