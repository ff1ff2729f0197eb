import {
  closeSync,
  createWriteStream,
  existsSync,
  openSync,
  readSync,
  statSync,
  WriteStream,
} from 'node:fs';
import type { CheckedAction, ScreenAction } from './actions';
import { plainAction } from './actions';
import type { TypingTarget } from './backends/backend';

export interface ActionLogEntry {
  time: string;
  backend: string;
  idempotency_key: string | null;
  action: Record<string, unknown>;
  outcome: 'performed' | 'failed';
  ms: number;
  error?: string;
}

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

/** Appends one JSON line per performed action to a local file (created 0600). */
export class ActionLog {
  private readonly stream: WriteStream;

  constructor(path: string) {
    this.stream = createWriteStream(path, { flags: 'a', mode: 0o600 });
    this.stream.on('error', () => {
      // A full disk must not take the desktop agent down; the HTTP answer still says what happened.
    });
  }

  /**
   * The Idempotency-Keys this log says were performed, newest last (at most `limit`), read from
   * its tail: a host restarted on the same log keeps its promise to act once per key.
   */
  static performedKeys(path: string, limit = 1000): Array<{ key: string; ms: number }> {
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
    const keys: Array<{ key: string; ms: number }> = [];
    for (const line of buffer.toString('utf8').split('\n')) {
      try {
        const entry = JSON.parse(line) as Partial<ActionLogEntry>;
        if (entry.outcome === 'performed' && typeof entry.idempotency_key === 'string') {
          keys.push({
            key: entry.idempotency_key,
            ms: typeof entry.ms === 'number' ? entry.ms : 0,
          });
        }
      } catch {
        // a torn first line (the tail cut it) or a line written half before a crash
      }
    }
    return keys.slice(-limit);
  }

  append(entry: ActionLogEntry): void {
    this.stream.write(`${JSON.stringify(entry)}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }
}
