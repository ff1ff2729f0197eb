import type { Action } from '@warden/protocol';
import { actionInWords } from './action-words';
import { approveInChatStops, type ChatDecision } from './chat-buttons';
import type { ApprovalFacts, ChangeFacts, NotifyEvent, NotifyEventKind } from './notify-event';

/**
 * A notification in neutral form (docs/security.md): who, what, why, until when, and the console link.
 * Each channel's payload (channel-payloads.ts) is made from this; it is what a delivery stores.
 */
export interface NotificationMessage {
  event: NotifyEventKind;
  tenant: string;
  agent: string;
  run_id: string;
  approval_id: string | null;
  title: string;
  /** One or two sentences, plain text. */
  text: string;
  facts: Array<{ name: string; value: string }>;
  /** The console page of the approval (or of the run, when it ended). */
  link: string;
  /** The held screen (needs a token that may see it); only when the agent allows screens out. */
  screen_link: string | null;
  at: string;
  /** The same facts as data, for webhooks. */
  details: Record<string, unknown>;
  /**
   * What Approve and Reject buttons ask for, on a message about a write still waiting (held,
   * escalated, a reminder); null on any other. A channel set up to take decisions shows them.
   */
  decide?: ChatDecision | null;
}

export interface RenderContext {
  tenant: string;
  agent: string;
  includeScreen: boolean;
  /** PUBLIC_URL, or the API's own address; no trailing slash. */
  baseUrl: string;
  now: Date;
}

export function renderMessage(event: NotifyEvent, c: RenderContext): NotificationMessage {
  const base = c.baseUrl.replace(/\/+$/, '');
  const approval = event.kind === 'run_ended' ? null : event.approval;
  const action = approval ? actionInWords(approval.action, c.includeScreen) : null;
  const facts: Array<{ name: string; value: string }> = [
    { name: 'Agent', value: c.agent },
    { name: 'Goal', value: event.run.goal },
  ];
  if (approval && action) {
    facts.push(
      { name: 'Action', value: `step ${approval.step}: ${action}` },
      { name: 'Why', value: approval.why },
      { name: 'Waits until', value: waitsUntil(approval.expires_at, c.now) },
    );
    const changes = changesInWords(approval.changes, c.includeScreen);
    if (changes) facts.push({ name: 'Changes', value: changes });
  }
  const { title, text } = headline(event, c.agent, action);
  switch (event.kind) {
    case 'decided':
      facts.push({
        name: 'Decision',
        value: `${event.decision} by ${event.by}${event.via ? ` (${VIA_WORDS[event.via]})` : ''}`,
      });
      if (event.comment) facts.push({ name: 'Comment', value: event.comment });
      break;
    case 'escalated':
      facts.push({ name: 'Escalated to', value: event.to.join(', ') });
      break;
    case 'run_ended':
      facts.push({ name: 'Ended', value: `${event.status} (${event.end_reason})` });
      if (event.summary) facts.push({ name: 'Summary', value: event.summary });
      break;
  }
  return {
    event: event.kind,
    tenant: c.tenant,
    agent: c.agent,
    run_id: event.run.id,
    approval_id: approval?.id ?? null,
    title,
    text,
    facts,
    link: approval
      ? `${base}/console/approvals/${approval.id}`
      : `${base}/console/runs/${event.run.id}`,
    screen_link:
      approval && c.includeScreen
        ? `${base}/api/computer-use/runs/${event.run.id}/steps/${approval.step}/screen`
        : null,
    at: c.now.toISOString(),
    details: details(event, c.includeScreen),
    decide:
      approval && event.kind !== 'decided'
        ? {
            approval_id: approval.id,
            screen_sha256: approval.screen_sha256,
            approve: approveInChatStops(approval, c.includeScreen) === null,
          }
        : null,
  };
}

const VIA_WORDS = {
  console: 'in the console',
  api: 'through the API',
  slack: 'in Slack',
  teams: 'in Teams',
} as const;

/**
 * A held commit's change list in one line: each field `before → after`, values only when the
 * agent allows text out (else how many changes there are); null when nothing was staged.
 */
function changesInWords(changes: ChangeFacts[] | null, includeText: boolean): string | null {
  const stored = (changes ?? []).filter((change) => change.kind !== 'navigation');
  if (stored.length === 0) return null;
  if (!includeText) {
    return `${stored.length} change${stored.length === 1 ? '' : 's'} (values left out: open Warden to see them)`;
  }
  const value = (text: string | null) => (text === null ? '(not read)' : JSON.stringify(text));
  return stored
    .map(
      (change) =>
        `${change.field}: ${value(change.before)} → ${value(change.read_back ?? change.after)}`,
    )
    .join('; ');
}

function headline(
  event: NotifyEvent,
  agent: string,
  action: string | null,
): { title: string; text: string } {
  switch (event.kind) {
    case 'held':
      return {
        title: `Approval needed: ${agent}`,
        text: `${agent} wants to ${action}. The write waits for a person's approval.`,
      };
    case 'decided':
      return {
        title: `Write ${event.decision}: ${agent}`,
        text: `${event.by} ${event.decision} ${agent}'s write: ${action}.${
          event.decision === 'rejected' ? ' The run ends without acting.' : ''
        }`,
      };
    case 'escalated':
      return {
        title: `Approval escalated: ${agent}`,
        text: `${agent}'s write (${action}) has waited too long and is handed to ${event.to.join(', ')}.`,
      };
    case 'reminder':
      return {
        title: `Still waiting for approval: ${agent}`,
        text: `${agent}'s write (${action}) has waited ${minutes(event.waiting_seconds)}.`,
      };
    case 'run_ended':
      return {
        title: `Run ${event.status}: ${agent}`,
        text: `${agent}'s run ended ${event.status} (${event.end_reason}) after ${event.steps} step${event.steps === 1 ? '' : 's'}.`,
      };
  }
}

function waitsUntil(expiresAt: string, now: Date): string {
  const left = Math.max(0, Math.round((Date.parse(expiresAt) - now.getTime()) / 1000));
  return `${expiresAt} (${minutes(left)} from now)`;
}

function minutes(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} minutes`;
  return `${Math.round(seconds / 3600)} hours`;
}

/** The event as data; a typed text only as its length unless the agent allows it out. */
function details(event: NotifyEvent, includeText: boolean): Record<string, unknown> {
  const run = { id: event.run.id, goal: event.run.goal };
  if (event.kind === 'run_ended') {
    const { status, end_reason, summary, steps } = event;
    return { run, status, end_reason, summary, steps };
  }
  const approval = approvalDetails(event.approval, includeText);
  switch (event.kind) {
    case 'held':
      return { run, approval };
    case 'decided':
      return {
        run,
        approval,
        decision: event.decision,
        by: event.by,
        via: event.via ?? null,
        comment: event.comment,
      };
    case 'escalated':
      return { run, approval, to: event.to };
    case 'reminder':
      return { run, approval, waiting_seconds: event.waiting_seconds };
  }
}

function approvalDetails(a: ApprovalFacts, includeText: boolean): Record<string, unknown> {
  return {
    id: a.id,
    step: a.step,
    action: shownAction(a.action, includeText),
    action_words: actionInWords(a.action, includeText),
    why: a.why,
    expires_at: a.expires_at,
  };
}

function shownAction(action: Action, includeText: boolean): Record<string, unknown> {
  if (action.action === 'type' && !includeText) {
    return { action: 'type', characters: [...action.text].length };
  }
  return { ...action };
}
