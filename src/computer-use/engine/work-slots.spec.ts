import { WorkSlots } from './work-slots';

/** Lets every promise callback queued so far run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkSlots', () => {
  it('lets `size` through and keeps the rest waiting, in order, until slots are given back', async () => {
    const slots = new WorkSlots(2);
    const started: number[] = [];
    for (const n of [1, 2, 3, 4]) void slots.take().then(() => started.push(n));
    await settle();
    expect(started).toEqual([1, 2]);
    expect(slots.load).toEqual({ busy: 2, waiting: 2 });
    slots.give();
    await settle();
    expect(started).toEqual([1, 2, 3]);
    expect(slots.load).toEqual({ busy: 2, waiting: 1 });
    slots.give();
    slots.give();
    await settle();
    expect(started).toEqual([1, 2, 3, 4]);
    expect(slots.load).toEqual({ busy: 1, waiting: 0 });
  });

  it('never holds more than `size` at once, however takes and gives interleave', async () => {
    const slots = new WorkSlots(3);
    let now = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        await slots.take();
        now++;
        most = Math.max(most, now);
        for (let k = 0; k < i % 4; k++) await settle();
        now--;
        slots.give();
      }),
    );
    expect(most).toBe(3);
    expect(slots.load).toEqual({ busy: 0, waiting: 0 });
  });

  it('once opened, lets every waiter and every later taker through', async () => {
    const slots = new WorkSlots(1);
    await slots.take();
    const later = [slots.take(), slots.take()];
    slots.open();
    await expect(Promise.all([...later, slots.take()])).resolves.toHaveLength(3);
  });
});
