import type { MessageType, OutlineElement } from './action.types';

/** At most this many characters of an application's message are kept. */
export const RECEIPT_TEXT_MAX = 500;

/**
 * A message the application shows: its status bar (SAP GUI's `wnd[0]/sbar` with its type, an
 * accessibility status bar) or a message dialog (a modal window's title and text).
 */
export interface AppMessage {
  source: 'status' | 'dialog';
  type: MessageType | null;
  text: string;
  /**
   * It lies under the agent's `redact_regions`: its text was never read (`text` says so), and it
   * is never taken for the message before.
   */
  redacted?: true;
}

/** What a receipt says of a message whose text lies under a redaction. */
export const REDACTED_MESSAGE = "a message under this agent's redact_regions (not read)";

/**
 * What the application said after a write was sent (the write's receipt), kept on the step.
 * `before` is the message on the screen the write was decided on, so that a message left from an
 * earlier action is not taken for this write's answer: `fresh` says the message is this write's
 * answer, not that one. After a write the application processes (`processesScreen`), an error or
 * abort message is its answer even when the same text stood there before: refused twice, the
 * application says the same twice. Where there is nothing to read, `none` says why.
 */
export type Receipt =
  | { before: AppMessage | null; message: AppMessage; fresh: boolean }
  | { before: AppMessage | null; none: string };

/** What a write step keeps until its receipt is read: the message on its screen. */
export interface PendingReceipt {
  before: AppMessage | null;
}

/** Whether a step's receipt was read (a message or why none), not still pending. */
export function isReceipt(value: Receipt | PendingReceipt | null): value is Receipt {
  return value !== null && ('message' in value || 'none' in value);
}

/**
 * The application's message on a screen: a modal dialog first (it is what the user faces), else
 * the status bar's text; null when the outline has neither, or the status bar is empty.
 */
export function messageOf(outline: readonly OutlineElement[]): AppMessage | null {
  const dialog = outline.find(isDialog);
  if (dialog) {
    const inside = outline.filter(
      (e) => e !== dialog && (e.role === 'label' || e.role === 'text') && within(e, dialog),
    );
    if ([dialog, ...inside].some((e) => e.redacted)) return redacted('dialog', dialog);
    const text = [dialog.name, ...inside.map((e) => e.name)].map(clean).filter(Boolean).join(': ');
    if (text) return { source: 'dialog', type: dialog.message_type ?? null, text: cut(text) };
  }
  const status = outline.find((e) => e.role === 'status' || e.area === 'status');
  if (status?.redacted) return redacted('status', status);
  const text = status ? clean(status.name) : '';
  if (!status || !text) return null;
  return { source: 'status', type: status.message_type ?? null, text: cut(text) };
}

/**
 * Whether a write makes the application process the screen (SAP GUI's dialog step), so that the
 * message it shows after is its answer to it: a commit key (any key but Backspace, which edits
 * inside a field), a click that is no edit of a value (a button, a menu item), typed text holding
 * a newline (it presses Enter). Typing without one, Backspace and a click that changes a value
 * (`edit`: a checkbox, an option) leave the screen to the next commit. Anything else counts as
 * processed: the application's error then stands as its answer, and nothing it would have
 * stored is taken for stored.
 */
export function processesScreen(action: unknown, edit: boolean): boolean {
  if (typeof action !== 'object' || action === null) return true;
  const a = action as { action?: unknown; key?: unknown; text?: unknown };
  switch (a.action) {
    case 'type':
      return typeof a.text !== 'string' || a.text.includes('\n');
    case 'key':
      return a.key !== 'Backspace';
    case 'click':
    case 'double_click':
      return !edit;
    default:
      return true;
  }
}

/**
 * The receipt of a write: the message on the settled screen after it, compared with the one on
 * the screen it was decided on. `outline` null: the host serves none (or could not this time).
 * `processed`: the write made the application process the screen (`processesScreen`).
 */
export function receiptOf(
  pending: PendingReceipt | null,
  outline: readonly OutlineElement[] | null,
  processed = false,
): Receipt {
  const before = pending?.before ?? null;
  if (outline === null) {
    return {
      before,
      none: "the screen host serves no outline: the application's message was not read",
    };
  }
  const message = messageOf(outline);
  if (!message) return { before, none: 'the application showed no message' };
  // Without what the screen showed before (a step decided before receipts were kept), the
  // message cannot be told from one left by an earlier action: it counts as not fresh.
  if (pending === null) return { before, message, fresh: false };
  const answer = processed && (message.type === 'E' || message.type === 'A');
  return { before, message, fresh: answer || !sameMessage(before, message) };
}

/**
 * The application refused the write: a fresh error (E) or abort (A) message. Why, in the
 * application's words; null when it did not say so.
 */
export function refusalOf(receipt: Receipt): string | null {
  if (!('message' in receipt) || !receipt.fresh) return null;
  const { type, text } = receipt.message;
  if (type !== 'E' && type !== 'A') return null;
  return `the application answered with ${type === 'E' ? 'an error' : 'an abort'} message: ${text}`;
}

/** One line for the record: "S: Standard Order 4711 has been saved", or why there is none. */
export function receiptLine(receipt: Receipt): string {
  if (!('message' in receipt)) return `no receipt: ${receipt.none}`;
  const { type, text, source } = receipt.message;
  const said = `${type ? `${type}: ` : ''}${text}`;
  const where = source === 'dialog' ? 'a dialog' : 'the status bar';
  return receipt.fresh ? `${where} says ${said}` : `${where} still shows ${said} (from before)`;
}

function isDialog(e: OutlineElement): boolean {
  return e.role === 'dialog' && (e.states?.includes('modal') === true || e.area === 'dialog');
}

function within(e: OutlineElement, box: OutlineElement): boolean {
  const r = e.rect;
  const b = box.rect;
  return (
    r.x >= b.x && r.y >= b.y && r.x + r.width <= b.x + b.width && r.y + r.height <= b.y + b.height
  );
}

/**
 * A message whose text a redaction hid; its type (SAP GUI's S/I/W/E/A) is no screen text and stays,
 * so that an error message there still refuses its write.
 */
function redacted(source: AppMessage['source'], element: OutlineElement): AppMessage {
  return { source, type: element.message_type ?? null, text: REDACTED_MESSAGE, redacted: true };
}

/** Two hidden texts cannot be told apart: such a message is never the one before. */
function sameMessage(a: AppMessage | null, b: AppMessage): boolean {
  if (a?.redacted || b.redacted) return false;
  return a !== null && a.source === b.source && a.type === b.type && a.text === b.text;
}

/** One line of visible text: control and format characters (bidi overrides among them) go. */
function clean(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string): string {
  return [...text].slice(0, RECEIPT_TEXT_MAX).join('');
}
