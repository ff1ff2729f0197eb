import type { Action } from '@warden/protocol';
import type { ChangeFacts } from './notify-event';

/**
 * Deciding from a chat message (docs/notifications.md): what its buttons carry, and when it may
 * carry Approve. An approver must see what will be sent (docs/security.md): a message shows typed
 * text, and a commit's change list with its values, only when the agent allows text out
 * (`notify_include_screen`). Without that, Approve stays in the console; Reject, which sends
 * nothing, is offered all the same. Pure.
 */

/** The decision a message's buttons ask for; null on a message about no pending write. */
export interface ChatDecision {
  approval_id: string;
  screen_sha256: string;
  /** Whether the message shows enough to approve from it; Reject is always offered. */
  approve: boolean;
}

/** Why a message cannot carry Approve for this held write, or null when it can. */
export function approveInChatStops(
  approval: { action: Action; changes: readonly ChangeFacts[] | null },
  includeText: boolean,
): string | null {
  if (includeText) return null;
  if (approval.action.action === 'type') {
    return 'its message leaves out the typed text (the agent keeps text out of messages): approve it in the Warden console, where you see what will be typed';
  }
  if ((approval.changes ?? []).some((c) => c.kind !== 'navigation')) {
    return 'its message leaves out the values of its change list (the agent keeps text out of messages): approve it in the Warden console, where you see what it stores';
  }
  return null;
}

/** The `action_id`s of Slack's buttons; a link button has one too (Slack reports its press). */
export const SLACK_ACTION_IDS = {
  approve: 'warden.approve',
  reject: 'warden.reject',
  open: 'warden.open',
} as const;

/** What a button carries: a Slack button's `value` is this as JSON, a Teams card's `data` this. */
export function chatActionData(d: ChatDecision): { approval_id: string; screen_sha256: string } {
  return { approval_id: d.approval_id, screen_sha256: d.screen_sha256 };
}
