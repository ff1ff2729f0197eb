import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from './metrics.service';
import {
  type ModelUsageRow,
  OperationsMetricsRepository,
  type StepCountRow,
} from './operations-metrics.repository';
import { sharedRead, StoredHistogram, type StoredValue } from './stored-series';

/** Seconds from a held write's approval request to a person's decision: minutes to a day. */
export const HELD_TO_DECIDED_BUCKETS = [
  10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 28800, 86400,
] as const;

/** Seconds from the decision to the host confirming the write: the operator's resume and the send. */
export const DECIDED_TO_SENT_BUCKETS = [
  0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600, 14400,
] as const;

/**
 * The operations metrics of docs/operations.md beyond HTTP (docs/operations.md, Metrics): runs, steps,
 * approval latency and model usage, each read from PostgreSQL when Prometheus scrapes, with tenant
 * and agent labels (never run ids).
 */
@Injectable()
export class OperationsMetrics implements OnModuleInit {
  private readonly logger = new Logger(OperationsMetrics.name);

  constructor(
    private readonly metrics: MetricsService,
    private readonly stored: OperationsMetricsRepository,
  ) {}

  onModuleInit(): void {
    const registry = this.metrics.tenantRegistry;
    const onError = (error: unknown) =>
      this.logger.warn(
        `metrics: a read from PostgreSQL failed, the last totals stay: ${String(error)}`,
      );
    const counter = <L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      read: () => Promise<Array<StoredValue<L>>>,
    ) =>
      new Counter<L>({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          let values: Array<StoredValue<L>>;
          try {
            values = await read();
          } catch (error) {
            onError(error);
            return;
          }
          // Totals replace totals: reset, then set each (inc from zero), all in one tick.
          this.reset();
          for (const v of values) this.inc(v.labels as never, v.value);
        },
      });

    const agent = ['tenant', 'agent'] as const;
    counter('warden_runs_started_total', 'Runs started, by tenant and agent', agent, () =>
      this.stored.runsStarted(),
    );
    counter(
      'warden_runs_ended_total',
      'Runs ended, by tenant, agent and end reason',
      [...agent, 'end_reason'] as const,
      () => this.stored.runsEnded(),
    );

    const steps = sharedRead(() => this.stored.settledSteps());
    counter(
      'warden_steps_total',
      'Settled steps, by tenant, agent, classification and outcome',
      [...agent, 'classification', 'outcome'] as const,
      async () => (await steps()).map(stepValue),
    );
    counter(
      'warden_screen_changed_total',
      'Steps whose action the screen host refused because the screen had changed (outcome screen_changed)',
      agent,
      async () => screenChanged(await steps()),
    );

    counter(
      'warden_rail_verdicts_total',
      "Steps of model planners by the injection rail's verdict on their screen (clean, suspect, injected)",
      [...agent, 'verdict'] as const,
      () => this.stored.railVerdicts(),
    );

    const pending = sharedRead(() => this.stored.pendingDeliveries());
    const pendingGauge = (name: string, help: string, field: 'pending' | 'oldest') =>
      new Gauge<'tenant'>({
        name,
        help,
        labelNames: ['tenant'] as const,
        registers: [registry],
        async collect() {
          let rows: Array<{ tenant: string; pending: number; oldest: number }>;
          try {
            rows = await pending();
          } catch (error) {
            onError(error);
            return;
          }
          this.reset();
          for (const r of rows) this.set({ tenant: r.tenant }, r[field]);
        },
      });
    pendingGauge(
      'warden_notification_deliveries_pending',
      'Notification deliveries queued and not yet delivered or given up, by tenant',
      'pending',
    );
    pendingGauge(
      'warden_notification_lag_seconds',
      'Age in seconds of the oldest notification delivery still pending, by tenant',
      'oldest',
    );

    const usage = sharedRead(() => this.stored.modelUsage());
    const usageCounter = (name: string, help: string, field: keyof ModelUsageRow) =>
      counter(name, help, agent, async () =>
        (await usage()).map((u) => ({
          labels: { tenant: u.tenant, agent: u.agent },
          value: Number(u[field]),
        })),
      );
    usageCounter('warden_model_calls_total', 'Answered model calls, by tenant and agent', 'calls');
    usageCounter(
      'warden_model_input_tokens_total',
      'Model input tokens (known usage), by tenant and agent',
      'input_tokens',
    );
    usageCounter(
      'warden_model_output_tokens_total',
      'Model output tokens (known usage), by tenant and agent',
      'output_tokens',
    );
    usageCounter(
      'warden_model_cost_usd_total',
      'Model cost in USD (calls with a known price), by tenant and agent',
      'cost_usd',
    );

    new StoredHistogram(
      'warden_held_to_decided_seconds',
      'Seconds from a write being held to a person approving or rejecting it',
      HELD_TO_DECIDED_BUCKETS,
      () => this.stored.heldToDecided(HELD_TO_DECIDED_BUCKETS),
      onError,
    ).register(registry);
    new StoredHistogram(
      'warden_decided_to_sent_seconds',
      'Seconds from a write being approved to the screen host confirming it was sent',
      DECIDED_TO_SENT_BUCKETS,
      () => this.stored.decidedToSent(DECIDED_TO_SENT_BUCKETS),
      onError,
    ).register(registry);
  }
}

function stepValue(
  row: StepCountRow,
): StoredValue<'tenant' | 'agent' | 'classification' | 'outcome'> {
  const { tenant, agent, classification, outcome } = row;
  return { labels: { tenant, agent, classification, outcome }, value: row.steps };
}

/** `screen_changed` steps per tenant and agent, whatever their classification. */
export function screenChanged(
  rows: readonly StepCountRow[],
): Array<StoredValue<'tenant' | 'agent'>> {
  const totals = new Map<string, StoredValue<'tenant' | 'agent'>>();
  for (const row of rows) {
    if (row.outcome !== 'screen_changed') continue;
    const key = JSON.stringify([row.tenant, row.agent]);
    const entry = totals.get(key) ?? { labels: { tenant: row.tenant, agent: row.agent }, value: 0 };
    entry.value += row.steps;
    totals.set(key, entry);
  }
  return [...totals.values()];
}
