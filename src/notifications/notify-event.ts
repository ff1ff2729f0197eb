import type { Action } from '@warden/protocol';

/**
 * What Warden tells an agent's channels about (docs/security.md): a write held, the decision on it, an
 * escalation or a reminder while it waits, and the end of a run. Each carries what a message
 * names; `Notifications.announce` renders and queues it.
 */

export interface RunFacts {
  id: string;
  goal: string;
}

/** The held write an approval is about. */
export interface ApprovalFacts {
  id: string;
  step: number;
  /** As it will be sent; typed text is left out of messages unless the agent allows it. */
  action: Action;
  why: string;
  /** ISO time after which the write is not sent any more. */
  expires_at: string;
  /** The screen it was held on: a decision from chat is bound to it. */
  screen_sha256: string;
  /** A held commit's change list (commit-point approval); null when nothing was staged. */
  changes: ChangeFacts[] | null;
}

/** One change of a held commit: the field, its value before, and what the commit stores. */
export interface ChangeFacts {
  field: string;
  before: string | null;
  after: string | null;
  read_back: string | null;
  kind?: 'navigation';
}

export type NotifyEvent =
  | { kind: 'held'; run: RunFacts; approval: ApprovalFacts }
  | {
      kind: 'decided';
      run: RunFacts;
      approval: ApprovalFacts;
      decision: 'approved' | 'rejected';
      by: string;
      /** Where the person decided: the console, the API, Slack or Teams. */
      via?: 'console' | 'api' | 'slack' | 'teams';
      comment: string | null;
    }
  | { kind: 'escalated'; run: RunFacts; approval: ApprovalFacts; to: string[] }
  | { kind: 'reminder'; run: RunFacts; approval: ApprovalFacts; waiting_seconds: number }
  | {
      kind: 'run_ended';
      run: RunFacts;
      status: string;
      end_reason: string;
      summary: string | null;
      steps: number;
    };

export type NotifyEventKind = NotifyEvent['kind'];

export const NOTIFY_EVENT_KINDS: readonly NotifyEventKind[] = [
  'held',
  'decided',
  'escalated',
  'reminder',
  'run_ended',
];
