import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';
import { AuditSinksRepository, type SinkState } from './audit-sinks.repository';
import { sinkStatus } from './sink-status';

/**
 * `warden_audit_sink_lag_events{tenant,sink}` and `warden_audit_sink_lag_seconds{tenant,sink}`,
 * read from PostgreSQL at each scrape: the cursor there is the truth, whichever worker ships.
 */
@Injectable()
export class AuditSinkMetrics implements OnModuleInit {
  private readonly logger = new Logger(AuditSinkMetrics.name);
  /** The read in flight: a scrape collects both gauges at once and reads the sinks once. */
  private reading?: Promise<SinkState[]>;

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
      registers: [this.metrics.tenantRegistry],
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
      registers: [this.metrics.tenantRegistry],
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
    this.reading ??= this.sinks.states().finally(() => (this.reading = undefined));
    try {
      return await this.reading;
    } catch (error) {
      this.logger.warn({ err: error }, 'audit sink lag: cannot read the sinks');
      return [];
    }
  }
}
