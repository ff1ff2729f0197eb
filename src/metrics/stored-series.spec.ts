import { Registry } from 'prom-client';
import { histogramValues, sharedRead, StoredHistogram } from './stored-series';

describe('histogramValues', () => {
  it('writes cumulative buckets, +Inf, sum and count per label set', () => {
    const values = histogramValues(
      'x_seconds',
      [1, 5],
      [{ labels: { agent: 'a' }, cumulative: [1, 2], count: 3, sum: 12.5 }],
    );
    expect(values).toEqual([
      { metricName: 'x_seconds_bucket', labels: { agent: 'a', le: 1 }, value: 1 },
      { metricName: 'x_seconds_bucket', labels: { agent: 'a', le: 5 }, value: 2 },
      { metricName: 'x_seconds_bucket', labels: { agent: 'a', le: '+Inf' }, value: 3 },
      { metricName: 'x_seconds_sum', labels: { agent: 'a' }, value: 12.5 },
      { metricName: 'x_seconds_count', labels: { agent: 'a' }, value: 3 },
    ]);
  });

  it('writes nothing without rows', () => {
    expect(histogramValues('x_seconds', [1], [])).toEqual([]);
  });
});

describe('StoredHistogram', () => {
  it('is written by the registry in the exposition format, as a histogram', async () => {
    const registry = new Registry();
    new StoredHistogram(
      'x_seconds',
      'help text',
      [1],
      async () => [{ labels: { tenant: 't' }, cumulative: [2], count: 3, sum: 4 }],
      () => undefined,
    ).register(registry);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE x_seconds histogram');
    expect(text).toContain('x_seconds_bucket{tenant="t",le="1"} 2');
    expect(text).toContain('x_seconds_bucket{tenant="t",le="+Inf"} 3');
    expect(text).toContain('x_seconds_sum{tenant="t"} 4');
    expect(text).toContain('x_seconds_count{tenant="t"} 3');
  });

  it('keeps the last totals when a read fails, and says so', async () => {
    const registry = new Registry();
    const errors: unknown[] = [];
    let fail = false;
    new StoredHistogram(
      'x_seconds',
      'help',
      [1],
      async () => {
        if (fail) throw new Error('db down');
        return [{ labels: {}, cumulative: [1], count: 1, sum: 0.5 }];
      },
      (e) => errors.push(e),
    ).register(registry);
    await registry.metrics();
    fail = true;
    expect(await registry.metrics()).toContain('x_seconds_count 1');
    expect(errors).toHaveLength(1);
  });
});

describe('sharedRead', () => {
  it('runs one read for calls made while it is under way, and a new one after', async () => {
    let reads = 0;
    const read = sharedRead(async () => ++reads);
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    expect(await read()).toBe(2);
  });
});
