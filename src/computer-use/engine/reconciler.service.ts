import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { StepQueue } from './step-queue';

/**
 * PostgreSQL is the truth and Redis may lose everything (DESIGN §2). Every few seconds, and at
 * start, the reconciler re-adds the job of every run whose state says it should be moving, starts
 * queued runs whose screen host is free, and re-arms approval expiries. Job ids deduplicate, so
 * a job that still exists is not added twice.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly lifecycle: RunLifecycle,
    private readonly queue: StepQueue,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running = this.reconcile()
        .catch((error: unknown) => this.logger.error({ err: error }, 'reconcile failed'))
        .finally(() => {
          this.timer = setTimeout(tick, this.config.RECONCILE_INTERVAL_MS);
        });
    };
    tick();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    await this.running;
    clearTimeout(this.timer);
  }

  async reconcile(): Promise<void> {
    // Running runs: the job of their current step (or the next one, if the current is done).
    const running = await this.dataSource.query<
      Array<{ id: string; step_count: number; phase: string | null; lease_until: Date | null }>
    >(
      `SELECT r.id, r.step_count, s.phase, s.lease_until
         FROM runs r LEFT JOIN steps s ON s.run_id = r.id AND s.n = r.step_count
        WHERE r.status = 'running'`,
    );
    for (const run of running) {
      const lapsed = run.lease_until ?? undefined;
      if (lapsed && lapsed.getTime() > Date.now()) continue; // a live worker has it
      if (run.phase === 'approved') await this.queue.approved(run.id, run.step_count, lapsed);
      else if (run.phase === null || run.phase === 'done') {
        await this.queue.step(run.id, run.step_count + 1);
      } else await this.queue.step(run.id, run.step_count, lapsed);
    }
    // Queued runs whose screen host is free.
    const hosts = await this.dataSource.query<Array<{ lease_key: string }>>(
      `SELECT DISTINCT lease_key FROM runs WHERE status = 'queued'`,
    );
    for (const { lease_key } of hosts) await this.lifecycle.promote(lease_key);
    // Approvals still open: their expiry job (delayed until due).
    const open = await this.dataSource.query<Array<{ id: string; expires_at: Date }>>(
      `SELECT id, expires_at FROM approvals WHERE status IN ('pending', 'approved')`,
    );
    for (const approval of open) await this.queue.expire(approval.id, approval.expires_at);
  }
}
