import { IdempotencyStore, SerialQueue } from './idempotency';

describe('IdempotencyStore', () => {
  it('claims a new key once; later claims replay the stored answer', async () => {
    const store = new IdempotencyStore();
    const first = store.claim('step-1', 'f');
    expect(first.kind).toBe('new');
    const second = store.claim('step-1', 'f');
    expect(second.kind).toBe('replay');
    if (first.kind === 'new') first.settle({ statusCode: 200, body: { ok: true, ms: 1 } });
    if (second.kind === 'replay')
      await expect(second.answer).resolves.toEqual({ statusCode: 200, body: { ok: true, ms: 1 } });
  });

  it('a replay of a key in flight waits for the first request', async () => {
    const store = new IdempotencyStore();
    const first = store.claim('k', 'f');
    const replay = store.claim('k', 'f');
    if (first.kind !== 'new' || replay.kind !== 'replay') throw new Error('unexpected claims');
    let settled = false;
    const waiting = replay.answer.then((a) => {
      settled = true;
      return a;
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    first.settle({ statusCode: 500, body: { message: 'failed' } });
    await expect(waiting).resolves.toEqual({ statusCode: 500, body: { message: 'failed' } });
  });

  it('a released claim stores nothing: the key is new again, and a waiting replay learns it', async () => {
    const store = new IdempotencyStore();
    const first = store.claim('k', 'f');
    const waiting = store.claim('k', 'f');
    if (first.kind !== 'new' || waiting.kind !== 'replay') throw new Error('unexpected claims');
    const lookup = store.answerOf('k');
    first.release();
    expect(store.has('k')).toBe(false);
    // Claimed again before the lookup that waited looks again: it waits for the new claim.
    const again = store.claim('k', 'f');
    if (again.kind !== 'new') throw new Error('the released key should be new again');
    await expect(waiting.answer).resolves.toBeNull();
    again.settle({ statusCode: 200, body: { ok: true, ms: 2 } });
    await expect(lookup).resolves.toEqual({ statusCode: 200, body: { ok: true, ms: 2 } });
    // Settling or releasing twice changes nothing.
    again.release();
    expect(store.has('k')).toBe(true);
  });

  it('answerOf: undefined for a key never stored, the answer for one that was', async () => {
    const store = new IdempotencyStore();
    await expect(store.answerOf('none')).resolves.toBeUndefined();
    const claim = store.claim('x', 'f');
    if (claim.kind === 'new') claim.release();
    await expect(store.answerOf('x')).resolves.toBeUndefined();
    store.remember('y', { statusCode: 500, body: { message: 'failed' } });
    await expect(store.answerOf('y')).resolves.toEqual({
      statusCode: 500,
      body: { message: 'failed' },
    });
  });

  it('refuses a key reused for a different action', () => {
    const store = new IdempotencyStore();
    store.claim('k', 'a');
    expect(store.claim('k', 'b').kind).toBe('mismatch');
  });

  it('remembers the last keys up to its capacity, oldest forgotten first', () => {
    const store = new IdempotencyStore(3);
    for (const key of ['a', 'b', 'c', 'd']) {
      const claim = store.claim(key, 'f');
      if (claim.kind === 'new') claim.settle({ statusCode: 200, body: {} });
    }
    expect(store.size).toBe(3);
    expect(store.has('a')).toBe(false);
    expect(store.has('d')).toBe(true);
  });

  it('never forgets a key in flight', () => {
    const store = new IdempotencyStore(1);
    const inFlight = store.claim('a', 'f');
    const done = store.claim('b', 'f');
    if (done.kind === 'new') done.settle({ statusCode: 200, body: {} });
    expect(store.has('a')).toBe(true);
    expect(inFlight.kind).toBe('new');
  });
});

describe('SerialQueue', () => {
  it('runs tasks one at a time in order, also after a failure', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running += 1;
        expect(running).toBe(1);
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${name}`);
        running -= 1;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run(task('a')),
      queue.run(task('b', true)),
      queue.run(task('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});
