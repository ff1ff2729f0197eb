import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';
import { AuditSinksRepository, type SinkState } from './audit-sinks.repository';
import { sinkStatus } from './sink-status';

/** A scrape reads the sinks' state once, for both gauges. */
const FRESH_MS = 1000;

/**
 * `warden_audit_sink_lag_events{tenant,sink}` and `warden_audit_sink_lag_seconds{tenant,sink}`,
 * read from PostgreSQL at each scrape: the cursor there is the truth, whichever worker ships.
 */
@Injectable()
export class AuditSinkMetrics implements OnModuleInit {
  private readonly logger = new Logger(AuditSinkMetrics.name);
  private snapshot?: { at: number; states: Promise<SinkState[]> };

  constructor(
    private readonly metrics: MetricsService,
    private readonly sinks: AuditSinksRepository,
  ) {}

  onModuleInit(): void {
    const states = () => this.states();
    new Gauge({
      name: 'warden_audit_sink_lag_events',
      help: "Audit events of the sink's tenant not yet acknowledged by the sink",
      labelNames: ['tenant', 'sink'] as const,
      registers: [this.metrics.registry],
      async collect() {
        this.reset();
        const now = new Date();
        for (const s of await states()) {
          this.set({ tenant: s.tenant, sink: s.name }, sinkStatus(s, now).lag_events);
        }
      },
    });
    new Gauge({
      name: 'warden_audit_sink_lag_seconds',
      help: 'Seconds since the oldest audit event the sink has not acknowledged was recorded',
      labelNames: ['tenant', 'sink'] as const,
      registers: [this.metrics.registry],
      async collect() {
        this.reset();
        const now = new Date();
        for (const s of await states()) {
          this.set({ tenant: s.tenant, sink: s.name }, sinkStatus(s, now).lag_seconds);
        }
      },
    });
  }

  private async states(): Promise<SinkState[]> {
    if (!this.snapshot || Date.now() - this.snapshot.at > FRESH_MS) {
      this.snapshot = { at: Date.now(), states: this.sinks.states() };
    }
    try {
      return await this.snapshot.states;
    } catch (error) {
      this.logger.warn({ err: error }, 'audit sink lag: cannot read the sinks');
      return [];
    }
  }
}
