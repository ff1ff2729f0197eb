import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of this process; registries per app so tests can run several apps. `registry`
 * holds what names no tenant (HTTP, the process) and is served to anyone; `tenantRegistry` the
 * series labelled by tenant (operations, audit sinks), served only to the deployment's scraper
 * (METRICS_TOKEN_ENV): tenant and agent names and costs are no one else's business.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly tenantRegistry = new Registry();

  private readonly requests = new Counter({
    name: 'warden_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  private readonly latency = new Histogram({
    name: 'warden_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'warden_' });
  }

  /** `route` is the route's pattern (`/api/audit`), never the raw URL, so labels stay few. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }
}
