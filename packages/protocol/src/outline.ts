/**
 * The accessibility outline (`GET /elements`): what a screen host says about the elements on its
 * screen, defined once for the host and the service. Every field but id, role, name and rect is
 * optional: a host says what its platform tells it (SAP GUI Scripting, AT-SPI, UI Automation), and
 * what it does not say is unknown, never assumed.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What an element's platform says of its state. `editable`: text can be typed into it;
 * `changeable`: the application lets the user change it (SAP GUI Scripting's `Changeable`);
 * `modified`: the user changed it and the application has not taken it yet (SAP's `Modified`);
 * `modal`: a dialog that takes all input.
 */
export const OUTLINE_STATES = [
  'editable',
  'changeable',
  'modified',
  'focused',
  'checked',
  'selected',
  'disabled',
  'modal',
] as const;
export type OutlineState = (typeof OUTLINE_STATES)[number];

/**
 * Where on the screen the host places an element. `command_field`: the field that takes
 * transaction codes (SAP GUI's `wnd[0]/tbar[0]/okcd`); `input`: the screen's own fields, whose
 * content the application stores on a commit.
 */
export const OUTLINE_AREAS = [
  'command_field',
  'input',
  'toolbar',
  'menu',
  'status',
  'dialog',
] as const;
export type OutlineArea = (typeof OUTLINE_AREAS)[number];

/** A status message's type, as SAP GUI's status bar says it: success, info, warning, error, abort. */
export const MESSAGE_TYPES = ['S', 'I', 'W', 'E', 'A'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** One element of the outline, as a host serves it. */
export interface OutlineElement {
  id: string;
  role: string;
  name: string;
  rect: Rect;
  /** The element's description or tooltip ("Record the current transaction"). */
  description?: string;
  /** A field's content; never served for a password field. */
  value?: string;
  password?: boolean;
  states?: OutlineState[];
  area?: OutlineArea;
  /** The status bar's message type (role `status`). */
  message_type?: MessageType;
}

/**
 * The role of the element through which a host reports the session's transaction code (SAP GUI
 * Scripting's `GuiSessionInfo.Transaction`: `VA02`): its name is the code. It has no place on the
 * screen (a zero rect), so no click ever lands on it; a host that knows no transaction serves none.
 */
export const TRANSACTION_ROLE = 'transaction';

/** The element that reports the session's transaction code (`TRANSACTION_ROLE`). */
export function transactionElement(code: string): OutlineElement {
  return {
    id: 'ses[0]/info/transaction',
    role: TRANSACTION_ROLE,
    name: code,
    rect: { x: 0, y: 0, width: 0, height: 0 },
  };
}

/**
 * Whether an id is SAP GUI Scripting's id of a window's command field (`wnd[0]/tbar[0]/okcd`, also
 * as the tail of a full path `/app/con[0]/ses[0]/wnd[0]/tbar[0]/okcd`).
 */
export function isSapCommandFieldId(id: unknown): boolean {
  return typeof id === 'string' && /(?:^|\/)wnd\[\d+\]\/tbar\[0\]\/okcd$/.test(id);
}
