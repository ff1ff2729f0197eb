/**
 * The inbox's state, and what each of its parts shows of it, as data: inbox.ts and inbox-item.ts
 * turn these into nodes. No DOM here, so the specs check every view without a browser (the
 * console e2e tests check the nodes in Chromium).
 */
import { typingFocus } from './typing-focus';
import { actionInWords, ago, expiry } from './words';
import type { Approval, ListPage, Run, Step } from './api-types';

/** How often the inbox asks: well inside the two seconds an approver may wait to see a new write. */
export const POLL_MS = 1000;
/** An approval closer than this to its expiry is marked. */
export const SOON_MS = 5 * 60 * 1000;
/** How many waiting actions one poll asks for. */
export const LIMIT = 200;

/** A waiting action's run as the inbox read it: the run, or why it could not be read. */
export type RunRead = { run: Run } | { error: string };

/** Everything the inbox shows is drawn from this. */
export interface InboxState {
  tenant: string;
  /** May open a run's page (agents.operate or audit.read). */
  canReadRuns: boolean;
  /** The waiting actions of the last poll, oldest first; null until one answered. */
  page: ListPage<Approval> | null;
  /** Why the last poll failed; empty: it did not. */
  problem: string;
  /** The runs read so far, by approval id; none yet: still being read (or no run). */
  runs: Map<string, RunRead>;
}

export function inboxState(tenant: string, canReadRuns: boolean): InboxState {
  return { tenant, canReadRuns, page: null, problem: '', runs: new Map() };
}

export function leadText(tenant: string) {
  return `Held writes in tenant ${tenant} that you may decide, oldest first (an agent may name who decides its writes). The list updates by itself every second. Open one to see the screen it would hit and decide.`;
}

/** The line over the list: how many wait; null until a poll answered. */
export function statusText(state: InboxState): string | null {
  if (!state.page) return null;
  const count = state.page.items.length;
  return count === 0
    ? 'Nothing is waiting for approval.'
    : `${count} ${count === 1 ? 'action waits' : 'actions wait'} for a decision.`;
}

/** The line under the list, when more wait than one poll reads. */
export function moreText(state: InboxState) {
  return state.page?.next_cursor
    ? `Showing the oldest ${LIMIT}; decide on these to see the rest.`
    : '';
}

export function problemText(message: string) {
  return `Could not refresh the inbox (${message}). Trying again.`;
}

/** What is announced when waiting actions were added; null: none. @param added their words */
export function newsText(added: string[]): string | null {
  return added.length ? `New waiting action: ${added.join('; ')}` : null;
}

/** Which rows go (not waiting any more) and which waiting actions are new, against those shown. */
export function rowsChange(shown: Iterable<string>, items: Approval[]) {
  const ids = new Set(items.map((a) => a.id));
  const had = new Set(shown);
  return {
    gone: [...had].filter((id) => !ids.has(id)),
    added: items.filter((a) => !had.has(a.id)),
  };
}

/** The action in words, as an announcement says it. */
export function itemWords(approval: Approval) {
  return actionInWords(approval.action, approval.why, { where: false });
}

/** The run's step: its number, and the run's page for whoever may read it. */
export function stepView(approval: Approval, canReadRuns: boolean) {
  return {
    n: approval.step,
    href: canReadRuns && approval.run_id ? `/console/runs/${approval.run_id}` : null,
  };
}

/**
 * The goal line: a waiting action with no run says its goal itself; otherwise the run's, once
 * read.
 */
export function goalText(approval: Approval, read: RunRead | undefined) {
  if (approval.run_id === null) return `“${approval.goal ?? ''}”`;
  if (!read) return '…';
  return 'run' in read ? `“${read.run.goal}”` : `(not available: ${read.error})`;
}

/** The step that proposed the held write, once the run is known. */
export function heldStepOf(approval: Approval, run: Run): Step | undefined {
  return run.steps?.find((st) => st.n === approval.step);
}

/** The text a held typing types; null: not a typing. */
export function typedText(approval: Approval): string | null {
  const { action } = approval;
  return action.action === 'type' && typeof action.text === 'string' ? action.text : null;
}

/** The thumbnail of the held screen, the action drawn on it, once the run is known. */
export function thumbView(approval: Approval, run: Run) {
  const held = heldStepOf(approval, run);
  return {
    runId: run.id,
    n: approval.step,
    width: held?.width ?? null,
    height: held?.height ?? null,
    action: approval.action,
    why: approval.why,
    focus: approval.action.action === 'type' ? typingFocus(run.steps ?? [], approval.step) : null,
    size: 'thumb' as const,
    alt: `Screen at step ${approval.step}, action marked`,
  };
}

/** How long it has waited and when it expires, and whether that is soon. */
export function timesView(approval: Approval, now: number) {
  return {
    waiting: ago(approval.created_at, now),
    expires: expiry(approval.expires_at, now),
    expiring: Date.parse(approval.expires_at) - now < SOON_MS,
  };
}
