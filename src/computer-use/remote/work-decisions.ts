/**
 * What becomes of a step waiting for a remote planner each time the engine looks at it (docs/models.md
 * "Remote planners"), apart from the database and the clock. Pure.
 */
import type { WorkRow } from './planner-work.repository';
import type { RemoteFailure } from './remote-errors';

export type WorkNext =
  /** The worker decided: the engine judges the decision on the published screen. */
  | { go: 'decide'; decision: unknown }
  /** No decision will come: the step ends as a model error with this code and message. */
  | { go: 'fail'; code: RemoteFailure; message: string; close?: 'timed_out' | 'offline' }
  /** Still waiting: the engine looks again at `checkAt` (or sooner, when the answer comes). */
  | { go: 'wait'; checkAt: Date };

/**
 * The error codes a worker may answer that Warden keeps and shows (docs/planners.md "The worker's
 * side"). Anything else is kept as its length alone: a word-shaped text may still be data (a
 * lower-cased IBAN, a customer's name run together), so a code is kept only from this list.
 */
export const WORKER_ERROR_CODES = [
  'model_unreachable',
  'model_timeout',
  'model_refused',
  'model_no_action',
  'input_too_large',
  'worker_overloaded',
  'worker_error',
] as const;

/** `model_http_<status>`: the model's endpoint answered that HTTP status (100–599). */
const MODEL_HTTP = /^model_http_[1-5][0-9]{2}$/;

/** Whether a worker's error answer is a code of the documented list, which is kept and shown. */
export function isWorkerErrorCode(text: string): boolean {
  return (WORKER_ERROR_CODES as readonly string[]).includes(text) || MODEL_HTTP.test(text);
}

/**
 * `lastSeen` is the last heartbeat that counts: the claimer's for claimed work, any worker's of
 * the family for waiting work (null: none ever).
 */
export function workNext(
  work: Pick<
    WorkRow,
    'status' | 'deadlineAt' | 'family' | 'worker' | 'decision' | 'errorKind' | 'errorLength'
  >,
  now: Date,
  lastSeen: Date | null,
  heartbeatSeconds: number,
  deadlineSeconds: number,
): WorkNext {
  switch (work.status) {
    case 'answered':
      return { go: 'decide', decision: work.decision };
    case 'failed':
      return { go: 'fail', code: 'planner_failed', message: failedMessage(work) };
    case 'timed_out':
      return { go: 'fail', code: 'planner_timeout', message: timeoutMessage(deadlineSeconds) };
    case 'offline':
      return {
        go: 'fail',
        code: 'planner_offline',
        message: offlineMessage(work, heartbeatSeconds),
      };
  }
  if (now.getTime() >= work.deadlineAt.getTime()) {
    return {
      go: 'fail',
      code: 'planner_timeout',
      message: timeoutMessage(deadlineSeconds),
      close: 'timed_out',
    };
  }
  const silentUntil = lastSeen ? lastSeen.getTime() + heartbeatSeconds * 1000 : 0;
  if (silentUntil <= now.getTime()) {
    return {
      go: 'fail',
      code: 'planner_offline',
      message: offlineMessage(work, heartbeatSeconds),
      close: 'offline',
    };
  }
  return { go: 'wait', checkAt: new Date(Math.min(silentUntil, work.deadlineAt.getTime()) + 50) };
}

function failedMessage(work: Pick<WorkRow, 'worker' | 'errorKind' | 'errorLength'>): string {
  const who = `the worker ${JSON.stringify(work.worker ?? '?')} answered an error`;
  return work.errorKind
    ? `${who}: ${work.errorKind}`
    : `${who} of ${work.errorLength ?? 0} characters (its text is not kept: it could quote the step's input)`;
}

function timeoutMessage(deadlineSeconds: number): string {
  return `no decision within the planner's deadline of ${deadlineSeconds} s`;
}

function offlineMessage(
  work: Pick<WorkRow, 'family' | 'worker'>,
  heartbeatSeconds: number,
): string {
  return work.worker
    ? `the worker ${JSON.stringify(work.worker)} that claimed the step has not asked for work for ${heartbeatSeconds} s`
    : `no worker of remote planner family ${work.family} asked for work in the last ${heartbeatSeconds} s`;
}

/** Why a step is not published: no worker of the family asked within the heartbeat. */
export function notServingMessage(family: string, heartbeatSeconds: number): string {
  return `no worker of remote planner family ${family} asked for work in the last ${heartbeatSeconds} s`;
}

/** More than this many steps of one tenant waiting for remote planners: the next is refused. */
export const MAX_WAITING_STEPS = 8;

export function busyMessage(tenant: string): string {
  return `tenant ${tenant} has ${MAX_WAITING_STEPS} steps waiting for remote planners already (at most ${MAX_WAITING_STEPS})`;
}
