/** Polls `probe` until it gives something truthy, and returns it; throws naming `what` after `ms`. */
export async function until<T>(what: string, probe: () => Promise<T>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
