/**
 * How the console says things: actions, outcomes, statuses and times in words an approver reads
 * without knowing the API. Pure functions of their inputs.
 */
import { ACTION_LIMITS } from '@warden/protocol/actions';
import { marked, shown } from './typed-words';
import { summaryInWords } from './summary-words';
import type { Action, ModelUsage, Receipt, Step, StepApproval } from './api-types';

export { characters, charName, exactJson, marked, shown, typedPieces } from './typed-words';

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

const quoted = (text: string) => `“${shown(text, 60)}”`;

/**
 * The label a click is about: the planner's target, or the label Warden itself read (the
 * classification's why quotes it: `click on “Save” (from the screen outline)`).
 */
export function clickLabel(action: Action, why?: string | null) {
  const target = str(action.target).trim();
  if (target) return target;
  const match = /\bon “([^”]+)”/.exec(why ?? '');
  return match ? match[1] : '';
}

/**
 * One action in words: `Click “Save” at 812, 96`, `Type “15.12.2026”`, `Key Ctrl+S`.
 * @param why the classification's why, for the label of a click
 * @param o `where: false`: without the point on the screen, for a heading, a title or a list
 *   (`Click “Save”`; a click on nothing labelled, `Click a point on the screen`)
 */
export function actionInWords(
  action: Action | null | undefined,
  why?: string | null,
  o: { where?: boolean } = {},
) {
  if (!action || typeof action !== 'object') return 'No action';
  const x = num(action.x);
  const y = num(action.y);
  const at = x !== null && y !== null && o.where !== false ? ` at ${x}, ${y}` : '';
  switch (action.action) {
    case 'click':
    case 'double_click': {
      const verb = action.action === 'click' ? 'Click' : 'Double-click';
      const label = clickLabel(action, why);
      if (!label && o.where === false) return `${verb} a point on the screen`;
      return `${verb}${label ? ` ${quoted(label)}` : ''}${at}`;
    }
    case 'type':
      // Never shortened: what is typed is what a person approves (docs/security.md).
      return `Type “${marked(str(action.text))}”`;
    case 'key':
      return `Key ${str(action.key)}`;
    case 'scroll':
      return `Scroll ${str(action.direction) || 'down'} ${num(action.amount) ?? ACTION_LIMITS.amountDefault}${at}`;
    case 'wait':
      return `Wait ${num(action.seconds) ?? '?'} s`;
    case 'done':
      return `Done: ${shown(str(action.summary), 120)}`;
    case 'fail':
      return `Give up: ${shown(summaryInWords(str(action.reason)), 160)}`;
    default:
      return `Not an action Warden knows (${shown(JSON.stringify(action), 60)})`;
  }
}

const OUTCOMES: Record<string, string> = {
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
 */
export function approvalInWords(a: StepApproval | undefined | null): string | null {
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

const MESSAGE_TYPES: Record<string, string> = {
  S: 'success',
  I: 'information',
  W: 'warning',
  E: 'error',
  A: 'abort',
};

/**
 * A write's receipt in words: `saved: Standard Order 4711 has been saved` as the application put
 * it, with its message type; a message left from before the write says so; no receipt says why.
 */
export function receiptInWords(receipt: Receipt | undefined | null): string | null {
  if (!receipt) return null;
  if (!receipt.message) return `none: ${receipt.none ?? 'not read'}`;
  const { type, text, source } = receipt.message;
  const kind = type ? `${MESSAGE_TYPES[type] ?? type} (${type}) ` : '';
  const where = source === 'dialog' ? 'a dialog' : 'the status bar';
  const said = `“${shown(text, 200)}”`;
  if (!receipt.fresh) return `${where} still showed ${kind}${said} from before`;
  return `${kind}${said} in ${where}`;
}

/**
 * Whether the application answered a write, fresh, that it changed nothing (SAP GUI's “No data was
 * changed”, in English or German): sent, but nothing stored.
 */
export function saidNothingChanged(receipt: Receipt | undefined | null): boolean {
  const text = receipt?.fresh ? receipt.message?.text : undefined;
  return (
    typeof text === 'string' &&
    /\bno data (?:was |were )?changed\b|\bnothing (?:was )?changed\b|keine daten geändert/i.test(
      text,
    )
  );
}

export function outcomeInWords(outcome: string | null) {
  if (!outcome) return 'in progress';
  return OUTCOMES[outcome] ?? outcome;
}

/**
 * A step's outcome in words; a staged edit names its field: `staged into “Order” until the commit`.
 * A step that ended with no outcome (a screen host or model error, or an action whose outcome
 * nobody can tell) is not in progress: its error says why.
 */
export function stepOutcomeInWords(
  step: Pick<Step, 'outcome' | 'staged'> & { ended_at?: string | null },
) {
  if (step.outcome === 'staged' && step.staged) {
    return `staged into ${quoted(step.staged.field.label)} until the commit`;
  }
  if (!step.outcome && step.ended_at) return 'ended with no outcome: see its error';
  return outcomeInWords(step.outcome);
}

const STATUSES: Record<string, string> = {
  queued: 'queued: waiting for its screen host',
  running: 'running',
  awaiting_approval: 'waiting for approval',
  completed: 'completed',
  failed: 'failed',
  stopped: 'stopped',
};

const END_REASONS: Record<string, string> = {
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

export function statusInWords(run: { status: string; end_reason: string | null }) {
  const status = STATUSES[run.status] ?? run.status;
  if (!run.end_reason) return status;
  return `${status}: ${END_REASONS[run.end_reason] ?? run.end_reason}`;
}

export function isEnded(status: string) {
  return status === 'completed' || status === 'failed' || status === 'stopped';
}

const PERMISSIONS: Record<string, string> = {
  'agents.approve': 'approve held writes',
  'agents.operate': 'start, resume and cancel runs',
  'audit.read': 'read the audit log',
  'computer_use.admin': 'administer computer use',
  'governance.weaken': 'loosen controls',
};

export function permissionInWords(permission: string) {
  return PERMISSIONS[permission] ?? permission;
}

/** A duration in the largest sensible unit: `45 s`, `3 min`, `2 h 5 min`, `3 days`. */
export function duration(ms: number) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const hours = Math.floor(min / 60);
  if (hours < 48) return min % 60 ? `${hours} h ${min % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/** How long ago: `12 s ago`. */
export function ago(iso: string, now: number) {
  return `${duration(now - Date.parse(iso))} ago`;
}

/** When an approval runs out: `in 59 min`, or `expired 2 min ago`. */
export function expiry(iso: string, now: number) {
  const left = Date.parse(iso) - now;
  return left > 0 ? `in ${duration(left)}` : `expired ${duration(-left)} ago`;
}

/** A local date and time without the browser's locale guessing: `2026-05-01 14:03:22`. */
export function clock(iso: string | null) {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * A model call's usage: `anthropic claude-x · 1200 in / 80 out tokens · 1.4 s`; for a planner
 * that asks no model, its id, its time in ms and its notes.
 */
export function modelInWords(model: ModelUsage | undefined) {
  if (!model) return 'no model call (scripted planner)';
  // A planner that asks no model (the navigator): its name, its time and what it thought.
  if (model.calls === 0) {
    const said = [`${model.model ?? model.provider ?? '?'}, no model call`];
    if (typeof model.latency_ms === 'number') said.push(`${model.latency_ms} ms`);
    if (model.notes) said.push(model.notes);
    return said.join(' · ');
  }
  const tokens = (n: number | null | undefined) => (typeof n === 'number' ? String(n) : 'unknown');
  const parts = [`${model.provider ?? '?'} ${model.model ?? ''}`.trim()];
  parts.push(`${tokens(model.input_tokens)} in / ${tokens(model.output_tokens)} out tokens`);
  if (typeof model.latency_ms === 'number') parts.push(`${(model.latency_ms / 1000).toFixed(1)} s`);
  return parts.join(' · ');
}
