/**
 * Idempotency-Key handling: Warden sends a step's id with every action, and a write must reach the
 * desktop exactly once even when Warden retries (a worker died, a response was lost). A key is
 * claimed before anything is performed; a second request with a key that is still in flight waits
 * for the first and gets its answer. A claim whose action was not performed (its frame
 * precondition failed, docs/screen-host.md) is released instead of settled: nothing is stored, and the key
 * may act later.
 */

export interface StoredAnswer {
  statusCode: number;
  body: unknown;
}

interface Entry {
  /** Hash of the action's body; null for keys remembered from the action log (any body replays). */
  fingerprint: string | null;
  /** null when the claim was released: nothing was stored (claim again). */
  answer: Promise<StoredAnswer | null>;
  settled: boolean;
}

export type Claim =
  | {
      kind: 'new';
      /** Stores the answer of the performed (or failed) action under the key. */
      settle: (answer: StoredAnswer) => void;
      /** Nothing was performed: the key is free again, and requests waiting on it claim it anew. */
      release: () => void;
    }
  /** The key's stored answer; null if the claim in flight was released (claim again). */
  | { kind: 'replay'; answer: Promise<StoredAnswer | null> }
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
    let resolve!: (answer: StoredAnswer | null) => void;
    const entry: Entry = {
      fingerprint,
      answer: new Promise<StoredAnswer | null>((r) => (resolve = r)),
      settled: false,
    };
    this.entries.set(key, entry);
    let done = false;
    return {
      kind: 'new',
      settle: (answer) => {
        if (done) return;
        done = true;
        entry.settled = true;
        resolve(answer);
        this.evict();
      },
      release: () => {
        if (done) return;
        done = true;
        if (this.entries.get(key) === entry) this.entries.delete(key);
        resolve(null);
      },
    };
  }

  /**
   * The answer stored for a key (waiting for it while it is in flight), or undefined when nothing
   * is stored: never performed here, or only refused.
   */
  async answerOf(key: string): Promise<StoredAnswer | undefined> {
    for (;;) {
      const entry = this.entries.get(key);
      if (!entry) return undefined;
      const answer = await entry.answer;
      if (answer !== null) return answer;
      // Released: the key may have been claimed again meanwhile; look again.
    }
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
