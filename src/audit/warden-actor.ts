/**
 * The actor of the audit events Warden records by itself, with no person or token behind them: a
 * step's, a run's end, an approval's expiry, reminder or escalation.
 */
export const WARDEN_ACTOR = 'warden';
