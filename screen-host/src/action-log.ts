import { createWriteStream, WriteStream } from 'node:fs';
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

  append(entry: ActionLogEntry): void {
    this.stream.write(`${JSON.stringify(entry)}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }
}
