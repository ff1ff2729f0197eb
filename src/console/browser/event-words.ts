/** An audit event's gist in one line, from the details Warden records. Pure. */
import { actionInWords, permissionInWords, receiptInWords, shown } from './words';
import type { Action, AuditEvent, Receipt } from './api-types';

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const quoted = (text: string) => `“${shown(text, 60)}”`;

/** A config value in an audit event, short: `"commit"`, `true`, `[2 rules]`, `null`. */
function valueInWords(v: unknown) {
  if (Array.isArray(v)) return `[${v.length} ${v.length === 1 ? 'entry' : 'entries'}]`;
  const text = JSON.stringify(v) ?? 'unset';
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** An audit event's gist in one line, from the details Warden records. */
export function eventInWords(event: Pick<AuditEvent, 'type' | 'details'>): string {
  const d = event.details;
  const parts = [];
  if (event.type === 'computer_use.write' || event.type === 'computer_use.write.unknown') {
    // Whose authority the write went on: a person's approval, or why none was needed.
    if (typeof d.approved_by === 'string') {
      parts.push(
        `approved by ${d.approved_by}${typeof d.resumed_by === 'string' ? `, resumed by ${d.resumed_by}` : ''}`,
      );
    } else if (d.staged === true) parts.push('staged, no approval (commit-point approval)');
    else if (typeof d.without_approval === 'string')
      parts.push(`no approval: ${d.without_approval}`);
  }
  if (event.type === 'governance.weaken' && typeof d.control === 'string') {
    // What was loosened, not only why: the control, from → to, and for screen rules each entry.
    const agent = typeof d.agent === 'string' ? `agent ${quoted(d.agent)}: ` : '';
    parts.push(`${agent}${d.control} ${valueInWords(d.from)} → ${valueInWords(d.to)}`);
    if (Array.isArray(d.entries)) parts.push(...d.entries.filter((e) => typeof e === 'string'));
  }
  if (event.type === 'token.created' && typeof d.subject === 'string') {
    const may = Array.isArray(d.permissions)
      ? d.permissions.map((p) => permissionInWords(String(p))).join(', ')
      : '';
    parts.push(`a token for ${quoted(d.subject)}${may ? `, who may ${may}` : ''}`);
  }
  if (d.action && typeof d.action === 'object')
    parts.push(actionInWords(d.action as Action, str(d.why)));
  if (typeof d.decision === 'string') {
    const screen = typeof d.screen_sha256 === 'string' ? d.screen_sha256.slice(0, 12) : null;
    parts.push(screen ? `${d.decision} on screen ${screen}…` : d.decision);
  }
  // A decision made, or refused, in a chat says which.
  if (d.via === 'slack' || d.via === 'teams')
    parts.push(`in ${d.via === 'slack' ? 'Slack' : 'Teams'}`);
  if (event.type === 'approval.chat_refused' && typeof d.message === 'string') {
    parts.push(`not decided (${str(d.refused)}): ${shown(d.message, 160)}`);
  }
  if (typeof d.goal === 'string') parts.push(`goal ${quoted(d.goal)}`);
  if (typeof d.end_reason === 'string') parts.push(`${str(d.status)} (${d.end_reason})`);
  if (typeof d.why === 'string' && !d.action) parts.push(d.why);
  if (typeof d.comment === 'string' && d.comment) parts.push(`comment ${quoted(d.comment)}`);
  if (typeof d.reason === 'string' && d.reason) parts.push(d.reason);
  if (d.receipt && typeof d.receipt === 'object') {
    const words = receiptInWords(d.receipt as Receipt);
    if (words) parts.push(`the application said: ${words}`);
  }
  return parts.join(' · ');
}
