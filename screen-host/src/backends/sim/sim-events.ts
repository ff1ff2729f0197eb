/** What the sim records for a test to read back (test route `GET /sim/events`). */
export type SimEvent =
  | { seq: number; type: 'action'; action: Record<string, unknown> }
  | { seq: number; type: 'transaction'; code: string }
  | { seq: number; type: 'saved'; order: string; fields: Record<string, string>; changed: string[] }
  | { seq: number; type: 'posted'; document: string; fields: Record<string, string> }
  | { seq: number; type: 'password_changed' }
  | { seq: number; type: 'poke'; message: string }
  | { seq: number; type: 'prefill'; field: string; value: string }
  | { seq: number; type: 'popup'; title: string; buttons: string[] }
  /** `button` is the one clicked or chosen with Enter; null when Escape closed the dialog. */
  | { seq: number; type: 'popup_closed'; button: string | null };

/** An event before the log numbers it. */
export type NewEvent = SimEvent extends infer E
  ? E extends { seq: number }
    ? Omit<E, 'seq'>
    : never
  : never;
