import { closeSync, existsSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import type { CheckedAction, ScreenAction } from './actions';
import { plainAction } from './actions';
import type { TypingTarget } from './backends/backend';

export interface ActionLogEntry {
  time: string;
  backend: string;
  idempotency_key: string | null;
  action: Record<string, unknown>;
  /**
   * `started` is written before an action with an Idempotency-Key touches the desktop. `refused`:
   * its frame precondition failed (`error` says how) and nothing was performed; such a line never
   * changes what the log says became of a key.
   */
  outcome: 'started' | 'performed' | 'failed' | 'refused';
  ms?: number;
  error?: string;
}

/** What the log says became of a key, by its last line. */
export type RecordedKey =
  | { key: string; outcome: 'performed'; ms: number }
  | { key: string; outcome: 'failed'; error: string }
  /** Started, and no outcome after it: the host stopped while performing. */
  | { key: string; outcome: 'unknown' };

/**
 * The action as it may be written down: typed text is kept only where the backend knows it went
 * to a plain field. Into a password field, or where the backend cannot tell (x11, windows), the log
 * keeps the length only.
 */
export function loggableAction(
  action: CheckedAction,
  typing: TypingTarget,
): Record<string, unknown> {
  const plain: ScreenAction = plainAction(action);
  if (plain.action === 'type' && typing !== 'plain') {
    return { action: 'type', text: '[redacted]', characters: [...plain.text].length, into: typing };
  }
  return { ...plain };
}

/**
 * Appends one JSON line per action to a local file (created 0600). Lines are written with a
 * synchronous write: once `started` returns, the line is with the operating system, and a host
 * that dies while acting finds it when it starts again.
 */
export class ActionLog {
  private fd: number | null;

  constructor(path: string) {
    this.fd = openSync(path, 'a', 0o600);
  }

  /**
   * What became of the Idempotency-Keys in this log, newest last (at most `limit`), read from its
   * tail: a host restarted on the same log keeps its promise to act at most once per key.
   */
  static recordedKeys(path: string, limit = 1000): RecordedKey[] {
    if (!existsSync(path)) return [];
    const size = statSync(path).size;
    const length = Math.min(size, 4 * 1024 * 1024);
    const buffer = Buffer.alloc(length);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buffer, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
    const keys = new Map<string, RecordedKey>();
    for (const line of buffer.toString('utf8').split('\n')) {
      let entry: Partial<ActionLogEntry>;
      try {
        entry = JSON.parse(line) as Partial<ActionLogEntry>;
      } catch {
        continue; // a torn first line (the tail cut it) or a line written half before a crash
      }
      const key = entry.idempotency_key;
      if (typeof key !== 'string' || entry.outcome === 'refused') continue;
      keys.delete(key); // the last line of a key says what became of it; newest last
      if (entry.outcome === 'performed') {
        keys.set(key, {
          key,
          outcome: 'performed',
          ms: typeof entry.ms === 'number' ? entry.ms : 0,
        });
      } else if (entry.outcome === 'failed') {
        keys.set(key, { key, outcome: 'failed', error: String(entry.error ?? 'unknown error') });
      } else if (entry.outcome === 'started') {
        keys.set(key, { key, outcome: 'unknown' });
      }
    }
    return [...keys.values()].slice(-limit);
  }

  /** The Idempotency-Keys this log says were performed (kept for callers of the first version). */
  static performedKeys(path: string, limit = 1000): Array<{ key: string; ms: number }> {
    return ActionLog.recordedKeys(path, limit).flatMap((k) =>
      k.outcome === 'performed' ? [{ key: k.key, ms: k.ms }] : [],
    );
  }

  append(entry: ActionLogEntry): void {
    if (this.fd === null) return;
    try {
      writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    } catch {
      // A full disk must not take the desktop agent down; the HTTP answer still says what happened.
    }
  }

  async close(): Promise<void> {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
