import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AuditService } from '../audit/audit.service';
import { AppConfig } from '../config/app-config';
import { AuditSinksRepository } from './audit-sinks.repository';
import { SinkDelivery } from './sink-delivery.service';
import { SinkError } from './sink-error';

/** Events per batch: one TLS write of frames, or one HEC POST. */
export const SINK_BATCH = 200;

/**
 * Streams every tenant's audit chain to its sinks, on every worker (docs/security.md). At least once and
 * in order: a sink's events are read from audit_events in seq order after its cursor, sent in
 * batches, and the cursor moves only past events the sink acknowledged (a whole batch, or over
 * RELP the events at its head that were acknowledged before it failed). One worker ships to a
 * sink at a time (the sink's lease in PostgreSQL); a sink that fails is tried again with backoff,
 * forever, so a sink that is down loses nothing, it only falls behind (its lag).
 */
@Injectable()
export class AuditShipper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditShipper.name);
  /** This worker, as a lease names it. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly shipping = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly sinks: AuditSinksRepository,
    private readonly audit: AuditService,
    private readonly delivery: SinkDelivery,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      if (this.stopped) return;
      this.ticking = this.tick()
        .catch((error: unknown) => this.logger.error({ err: error }, 'audit sinks: tick failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.config.AUDIT_SINK_INTERVAL_MS);
        });
    };
    tick();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.all(this.shipping.values());
  }

  /** Starts shipping to every due sink this worker is not already shipping to. */
  async tick(): Promise<void> {
    for (const { tenant, name } of await this.sinks.due(this.owner, 100)) {
      const key = `${tenant}\n${name}`;
      if (this.shipping.has(key) || this.stopped) continue;
      const shipping = this.ship(tenant, name)
        .catch((error: unknown) =>
          this.logger.error({ err: error, tenant, sink: name }, 'audit sink: shipping failed'),
        )
        .finally(() => this.shipping.delete(key));
      this.shipping.set(key, shipping);
    }
  }

  /** Ships the sink's events until it is caught up, a batch fails, or the lease is lost. */
  async ship(tenant: string, name: string): Promise<void> {
    const leaseMs = this.leaseMs();
    const sink = await this.sinks.lease(tenant, name, this.owner, leaseMs);
    if (!sink) return;
    let cursor = sink.deliveredSeq;
    while (!this.stopped) {
      const events = await this.audit.after(tenant, cursor, SINK_BATCH);
      if (events.length === 0) break;
      try {
        await this.delivery.send(tenant, sink.config, events);
      } catch (error) {
        const code = error instanceof SinkError ? error.code : 'error';
        const acknowledged = error instanceof SinkError ? error.acknowledged : 0;
        if (acknowledged > 0) {
          const last = events[Math.min(acknowledged, events.length) - 1].seq;
          if (!(await this.sinks.advance(tenant, name, this.owner, last, leaseMs))) return;
        }
        if (!(error instanceof SinkError)) {
          this.logger.error({ err: error, tenant, sink: name }, 'audit sink: unexpected error');
        } else this.logger.warn({ tenant, sink: name, error: code }, 'audit sink: batch failed');
        await this.sinks.fail(
          tenant,
          name,
          this.owner,
          code,
          this.config.AUDIT_SINK_INTERVAL_MS,
          this.config.AUDIT_SINK_BACKOFF_MAX_MS,
        );
        return;
      }
      const last = events[events.length - 1].seq;
      if (!(await this.sinks.advance(tenant, name, this.owner, last, leaseMs))) return;
      cursor = last;
    }
    await this.sinks.release(tenant, name, this.owner);
  }

  /** Long enough for a read, a batch at its timeout, and a write of the cursor. */
  private leaseMs(): number {
    return 2 * this.config.AUDIT_SINK_TIMEOUT_MS + this.config.AUDIT_SINK_INTERVAL_MS;
  }
}
