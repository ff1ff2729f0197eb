/**
 * Idempotency-Key handling: Warden sends a step's id with every action, and a write must reach the
 * desktop exactly once even when Warden retries (a worker died, a response was lost). A key is
 * claimed before anything is performed; a second request with a key that is still in flight waits
 * for the first and gets its answer.
 */

export interface StoredAnswer {
  statusCode: number;
  body: unknown;
}

interface Entry {
  /** Hash of the action's body; null for keys remembered from the action log (any body replays). */
  fingerprint: string | null;
  answer: Promise<StoredAnswer>;
  settled: boolean;
}

export type Claim =
  | { kind: 'new'; settle: (answer: StoredAnswer) => void }
  | { kind: 'replay'; answer: Promise<StoredAnswer> }
  | { kind: 'mismatch' };

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 1000) {}

  /**
   * Claims `key` for an action whose body hashes to `fingerprint`. Synchronous, so that two
   * requests arriving together cannot both see the key as new.
   */
  claim(key: string, fingerprint: string): Claim {
    const existing = this.entries.get(key);
    if (existing) {
      if (existing.fingerprint !== null && existing.fingerprint !== fingerprint) {
        return { kind: 'mismatch' };
      }
      return { kind: 'replay', answer: existing.answer };
    }
    let resolve!: (answer: StoredAnswer) => void;
    const entry: Entry = {
      fingerprint,
      answer: new Promise<StoredAnswer>((r) => (resolve = r)),
      settled: false,
    };
    this.entries.set(key, entry);
    return {
      kind: 'new',
      settle: (answer) => {
        entry.settled = true;
        resolve(answer);
        this.evict();
      },
    };
  }

  /** The answer of a key performed here (waiting for it while it is in flight), or undefined. */
  lookup(key: string): Promise<StoredAnswer> | undefined {
    return this.entries.get(key)?.answer;
  }

  /**
   * Remembers a key performed before this process started (read back from the action log), so a
   * restarted host still answers it without acting again.
   */
  remember(key: string, answer: StoredAnswer): void {
    if (this.entries.has(key)) return;
    this.entries.set(key, { fingerprint: null, answer: Promise.resolve(answer), settled: true });
    this.evict();
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  clear(): void {
    for (const [key, entry] of this.entries) if (entry.settled) this.entries.delete(key);
  }

  /** Forgets the oldest settled keys beyond capacity; keys in flight are never forgotten. */
  private evict(): void {
    if (this.entries.size <= this.capacity) return;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.capacity) break;
      if (entry.settled) this.entries.delete(key);
    }
  }
}

/** Runs tasks one at a time, in the order they were queued. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
