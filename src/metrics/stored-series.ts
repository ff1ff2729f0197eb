import type { Metric, MetricValueWithName, Registry } from 'prom-client';

/** One labelled value read from PostgreSQL: a counter's total so far. */
export interface StoredValue<L extends string> {
  labels: Record<L, string>;
  value: number;
}

/** One labelled histogram read from PostgreSQL: cumulative counts at each bucket's upper bound. */
export interface StoredHistogramRow<L extends string> {
  labels: Record<L, string>;
  /** `cumulative[i]`: observations ≤ `buckets[i]`; same length as the histogram's buckets. */
  cumulative: number[];
  count: number;
  sum: number;
}

/**
 * A histogram's exposition values (`_bucket` per bound and `+Inf`, `_sum`, `_count`) from totals
 * PostgreSQL computed, the way prom-client writes its own histograms.
 */
export function histogramValues<L extends string>(
  name: string,
  buckets: readonly number[],
  rows: ReadonlyArray<StoredHistogramRow<L>>,
): Array<MetricValueWithName<string>> {
  const values: Array<MetricValueWithName<string>> = [];
  for (const row of rows) {
    buckets.forEach((le, i) =>
      values.push({
        metricName: `${name}_bucket`,
        labels: { ...row.labels, le },
        value: row.cumulative[i] ?? 0,
      }),
    );
    values.push({
      metricName: `${name}_bucket`,
      labels: { ...row.labels, le: '+Inf' },
      value: row.count,
    });
    values.push({ metricName: `${name}_sum`, labels: row.labels, value: row.sum });
    values.push({ metricName: `${name}_count`, labels: row.labels, value: row.count });
  }
  return values;
}

/**
 * A histogram whose observations are rows in PostgreSQL: each scrape reads the bucket counts with
 * one aggregate statement instead of observing in this process. prom-client's Histogram cannot be
 * given bucket counts, so this is a metric of its own that the registry writes like any other.
 */
export class StoredHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private last: Array<StoredHistogramRow<L>> = [];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
    private readonly read: () => Promise<Array<StoredHistogramRow<L>>>,
    private readonly onError: (error: unknown) => void,
  ) {}

  register(registry: Registry): this {
    registry.registerMetric(this as unknown as Metric);
    return this;
  }

  /** Nothing is kept here to reset: the rows are in PostgreSQL. */
  reset(): void {}

  async get() {
    try {
      this.last = await this.read();
    } catch (error) {
      // A failed read keeps the last totals: the scrape still answers, with HTTP metrics and all.
      this.onError(error);
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: histogramValues(this.name, this.buckets, this.last),
    };
  }
}

/**
 * Shares one in-flight read between the metrics a single statement feeds (a scrape collects every
 * metric at once): the statement runs once per scrape, and the next scrape reads afresh.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
