/** What a probe answers while what it waits for has not happened yet. */
type NotYet = null | undefined | false | 0 | '';

export interface UntilOptions {
  /** How long to wait (default 15 s). */
  ms?: number;
  /** How often to ask (default every 50 ms). */
  every?: number;
  /** What was last seen, for the message when the wait runs out. */
  seen?: () => unknown;
}

/**
 * Polls `probe` every `every` ms until it gives something truthy, and returns it; throws naming
 * `what` (and, given `seen`, what was last seen) after `ms`. The one "poll until" of the tests, the
 * evals and the benches: `probe` answers at once or as a promise, and an error it throws ends the
 * wait with that error.
 */
export async function until<T>(
  what: string,
  probe: () => T | NotYet | Promise<T | NotYet>,
  within: number | UntilOptions = 15_000,
  every = 50,
): Promise<T> {
  const options = typeof within === 'number' ? { ms: within, every } : within;
  const ms = options.ms ?? 15_000;
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      const seen = options.seen ? `; last seen: ${await describe(options.seen)}` : '';
      throw new Error(`${what} did not happen in ${ms} ms${seen}`);
    }
    await new Promise((r) => setTimeout(r, options.every ?? 50));
  }
}

async function describe(seen: () => unknown): Promise<string> {
  try {
    const value = await seen();
    return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  } catch (error) {
    return `(could not be read: ${error instanceof Error ? error.message : String(error)})`;
  }
}
