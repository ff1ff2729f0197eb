/** What a probe answers while what it waits for has not happened yet. */
type NotYet = null | undefined | false | 0 | '';

/**
 * Polls `probe` every `every` ms until it gives something truthy, and returns it; throws naming
 * `what` after `ms`. The one "poll until" of the tests, the evals and the benches: `probe` answers
 * at once or as a promise, and an error it throws ends the wait with that error.
 */
export async function until<T>(
  what: string,
  probe: () => T | NotYet | Promise<T | NotYet>,
  ms = 15_000,
  every = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in ${ms} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}
