// @ts-check
/**
 * How the console says things: actions, outcomes, statuses and times in words an approver reads
 * without knowing the API. Pure functions of their inputs.
 */

import { marked, shown } from './typed-words.js';

export { characters, charName, exactJson, marked, shown, typedPieces } from './typed-words.js';

/** @typedef {import('./api.js').Action} Action */
/** @typedef {import('./api.js').Step} Step */

/** @param {unknown} value */
const str = (value) => (typeof value === 'string' ? value : '');
/** @param {unknown} value */
const num = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** @param {string} text */
const quoted = (text) => `“${shown(text, 60)}”`;

/**
 * The label a click is about: the planner's target, or the label Warden itself read (the
 * classification's why quotes it: `click on “Save” (from the screen outline)`).
 * @param {Action} action
 * @param {string | null} [why]
 */
export function clickLabel(action, why) {
  const target = str(action.target).trim();
  if (target) return target;
  const match = /\bon “([^”]+)”/.exec(why ?? '');
  return match ? match[1] : '';
}

/**
 * One action in words: `Click “Save” at 812, 96`, `Type “15.12.2026”`, `Key Ctrl+S`.
 * @param {Action | null | undefined} action
 * @param {string | null} [why] the classification's why, for the label of a click
 */
export function actionInWords(action, why) {
  if (!action || typeof action !== 'object') return 'No action';
  const x = num(action.x);
  const y = num(action.y);
  const at = x !== null && y !== null ? ` at ${x}, ${y}` : '';
  switch (action.action) {
    case 'click':
    case 'double_click': {
      const verb = action.action === 'click' ? 'Click' : 'Double-click';
      const label = clickLabel(action, why);
      return `${verb}${label ? ` ${quoted(label)}` : ''}${at}`;
    }
    case 'type':
      // Never shortened: what is typed is what a person approves (DESIGN §6).
      return `Type “${marked(str(action.text))}”`;
    case 'key':
      return `Key ${str(action.key)}`;
    case 'scroll':
      return `Scroll ${str(action.direction) || 'down'} ${num(action.amount) ?? 3}${at}`;
    case 'wait':
      return `Wait ${num(action.seconds) ?? '?'} s`;
    case 'done':
      return `Done: ${shown(str(action.summary), 120)}`;
    case 'fail':
      return `Give up: ${shown(str(action.reason), 120)}`;
    default:
      return `Not an action Warden knows (${shown(JSON.stringify(action), 60)})`;
  }
}

/** @type {Record<string, string>} */
const OUTCOMES = {
  sent: 'sent',
  held: 'held for approval',
  sent_after_approval: 'sent after approval',
  staged: 'staged until the commit',
  stale: 'not sent: the screen had changed',
  rejected: 'rejected: not sent',
  refused: 'refused as invalid: not sent',
  ended: 'ended with the run',
  screen_changed: 'not sent: the screen changed before it could act; planned again',
  refused_by_application: 'sent; the application refused it',
};

/**
 * Who decided a held write, when, with which comment, and who resumed it: `approved by bob at
 * 10:02 (“checked the screen”); resumed by olga at 10:03`.
 * @param {import('./api.js').StepApproval | undefined | null} a
 * @returns {string | null}
 */
export function approvalInWords(a) {
  if (!a) return null;
  if (a.status === 'pending') return 'waiting for a decision';
  if (a.status === 'expired' && !a.decided_by) return 'expired: nobody decided in time';
  const verb = a.status === 'rejected' ? 'rejected' : 'approved';
  const when = a.decided_at ? ` at ${clock(a.decided_at)}` : '';
  const comment = a.comment ? ` (“${shown(a.comment, 120)}”)` : '';
  const decided = `${verb} by ${a.decided_by ?? '?'}${when}${comment}`;
  if (a.resumed_by) {
    const at = a.resumed_at ? ` at ${clock(a.resumed_at)}` : '';
    return `${decided}; resumed by ${a.resumed_by}${at}`;
  }
  return a.status === 'approved' ? `${decided}; not resumed yet` : decided;
}

/** @type {Record<string, string>} */
const MESSAGE_TYPES = { S: 'success', I: 'information', W: 'warning', E: 'error', A: 'abort' };

/**
 * A write's receipt in words: `saved: Standard Order 4711 has been saved` as the application put
 * it, with its message type; a message left from before the write says so; no receipt says why.
 * @param {import('./api.js').Receipt | undefined | null} receipt
 * @returns {string | null}
 */
export function receiptInWords(receipt) {
  if (!receipt) return null;
  if (!receipt.message) return `none: ${receipt.none ?? 'not read'}`;
  const { type, text, source } = receipt.message;
  const kind = type ? `${MESSAGE_TYPES[type] ?? type} (${type}) ` : '';
  const where = source === 'dialog' ? 'a dialog' : 'the status bar';
  const said = `“${shown(text, 200)}”`;
  if (!receipt.fresh) return `${where} still showed ${kind}${said} from before`;
  return `${kind}${said} in ${where}`;
}

/** @param {string | null} outcome */
export function outcomeInWords(outcome) {
  if (!outcome) return 'in progress';
  return OUTCOMES[outcome] ?? outcome;
}

/**
 * A step's outcome in words; a staged edit names its field: `staged into “Order” until the commit`.
 * A step that ended with no outcome (a screen host or model error, or an action whose outcome
 * nobody can tell) is not in progress: its error says why.
 * @param {Pick<Step, 'outcome' | 'staged'> & {ended_at?: string | null}} step
 */
export function stepOutcomeInWords(step) {
  if (step.outcome === 'staged' && step.staged) {
    return `staged into ${quoted(step.staged.field.label)} until the commit`;
  }
  if (!step.outcome && step.ended_at) return 'ended with no outcome: see its error';
  return outcomeInWords(step.outcome);
}

/** @type {Record<string, string>} */
const STATUSES = {
  queued: 'queued: waiting for its screen host',
  running: 'running',
  awaiting_approval: 'waiting for approval',
  completed: 'completed',
  failed: 'failed',
  stopped: 'stopped',
};

/** @type {Record<string, string>} */
const END_REASONS = {
  done: 'the planner finished the goal',
  fail: 'the planner gave up',
  model_error: 'the model call failed',
  screen_host_error: 'the screen host did not answer properly',
  outcome_unknown:
    'it is unknown whether its last action was carried out: a person must check the screen',
  step_cap: 'it reached its step limit',
  time_cap: 'it reached its time limit',
  invalid_actions: 'the planner proposed three invalid actions',
  killed: "the agent's kill switch was engaged",
  cancelled: 'an operator cancelled it',
  stale_screen: 'the screen changed after approval, so the write was not sent',
  rejected: 'an approver rejected a write',
  approval_expired: 'nobody decided on a write in time',
  budget_exhausted: 'its model budget ran out',
  stalled: 'the screen stopped changing',
  not_granted: 'its screen host token or model key is no longer granted for where it goes',
  injection: 'the screen held instructions to the model, and the agent stops on those',
};

/** @param {{status: string, end_reason: string | null}} run */
export function statusInWords(run) {
  const status = STATUSES[run.status] ?? run.status;
  if (!run.end_reason) return status;
  return `${status}: ${END_REASONS[run.end_reason] ?? run.end_reason}`;
}

/** @param {string} status */
export function isEnded(status) {
  return status === 'completed' || status === 'failed' || status === 'stopped';
}

/** @type {Record<string, string>} */
const PERMISSIONS = {
  'agents.approve': 'approve held writes',
  'agents.operate': 'start, resume and cancel runs',
  'audit.read': 'read the audit log',
  'computer_use.admin': 'administer computer use',
  'governance.weaken': 'loosen controls',
};

/** @param {string} permission */
export function permissionInWords(permission) {
  return PERMISSIONS[permission] ?? permission;
}

/**
 * A duration in the largest sensible unit: `45 s`, `3 min`, `2 h 5 min`, `3 days`.
 * @param {number} ms
 */
export function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const hours = Math.floor(min / 60);
  if (hours < 48) return min % 60 ? `${hours} h ${min % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/**
 * How long ago: `12 s ago`.
 * @param {string} iso
 * @param {number} now
 */
export function ago(iso, now) {
  return `${duration(now - Date.parse(iso))} ago`;
}

/**
 * When an approval runs out: `in 59 min`, or `expired 2 min ago`.
 * @param {string} iso
 * @param {number} now
 */
export function expiry(iso, now) {
  const left = Date.parse(iso) - now;
  return left > 0 ? `in ${duration(left)}` : `expired ${duration(-left)} ago`;
}

/**
 * A local date and time without the browser's locale guessing: `2026-05-01 14:03:22`.
 * @param {string | null} iso
 */
export function clock(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  /** @param {number} n */
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * A model call's usage: `anthropic claude-x · 1200 in / 80 out tokens · 1.4 s`; for a planner
 * that asks no model, its id, its time in ms and its notes.
 * @param {import('./api.js').ModelUsage | undefined} model
 */
export function modelInWords(model) {
  if (!model) return 'no model call (scripted planner)';
  // A planner that asks no model (the navigator): its name, its time and what it thought.
  if (model.calls === 0) {
    const said = [`${model.model ?? model.provider ?? '?'}, no model call`];
    if (typeof model.latency_ms === 'number') said.push(`${model.latency_ms} ms`);
    if (model.notes) said.push(model.notes);
    return said.join(' · ');
  }
  /** @param {number | null | undefined} n */
  const tokens = (n) => (typeof n === 'number' ? String(n) : 'unknown');
  const parts = [`${model.provider ?? '?'} ${model.model ?? ''}`.trim()];
  parts.push(`${tokens(model.input_tokens)} in / ${tokens(model.output_tokens)} out tokens`);
  if (typeof model.latency_ms === 'number') parts.push(`${(model.latency_ms / 1000).toFixed(1)} s`);
  return parts.join(' · ');
}
