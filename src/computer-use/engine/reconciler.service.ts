import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { AppConfig } from '../../config/app-config';
import { DeliveriesRepository } from '../../notifications/deliveries.repository';
import { NotifyQueue } from '../../queue/notify-queue';
import { StepQueue } from '../../queue/step-queue';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { PlannerWorkRepository } from '../remote/planner-work.repository';
import { RunsRepository } from '../runs/runs.repository';

/** A remote planner's check this late is taken for lost. */
const OVERDUE_MS = 2000;

/**
 * PostgreSQL is the truth and Redis may lose everything (docs/operations.md). Every few seconds, and at
 * start, the reconciler re-adds the job of every run whose state says it should be moving (and of
 * a run that ended while a step was sending, for that step's outcome), starts
 * queued runs whose screen host is free, re-arms approval expiries, reminders and escalations,
 * and re-queues notification deliveries no try has touched for a while. Job ids deduplicate, so
 * a job that still exists is not added twice.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly runs: RunsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly lifecycle: RunLifecycle,
    private readonly queue: StepQueue,
    private readonly deliveries: DeliveriesRepository,
    private readonly notify: NotifyQueue,
    private readonly remoteWork: PlannerWorkRepository,
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
    // Steps waiting for a remote planner's worker: no job until its answer or its check (deadline,
    // heartbeat; docs/models.md). A check overdue (lost with Redis, or it met a busy lease) is re-armed.
    const waiting = await this.remoteWork.open();
    for (const work of waiting) {
      const due = work.nextCheckAt?.getTime() ?? 0;
      if (due + OVERDUE_MS > Date.now()) continue;
      await this.queue.stepLater(work.runId, work.step, `remote.${work.id}.late.${due}`);
    }
    const waits = new Set(waiting.map((w) => `${w.runId}.${w.step}`));
    // Running runs: the job of their current step (or the next one, if the current is done).
    for (const run of await this.runs.moving()) {
      if (waits.has(`${run.id}.${run.step_count}`)) continue;
      const lapsed = run.lease_until ?? undefined;
      if (lapsed && lapsed.getTime() > Date.now()) continue; // a live worker has it
      if (run.phase === 'approved') await this.queue.approved(run.id, run.step_count, lapsed);
      else if (run.phase === null || run.phase === 'done') {
        await this.queue.step(run.id, run.step_count + 1);
      } else await this.queue.step(run.id, run.step_count, lapsed);
    }
    // Runs that ended while a step was sending, whose worker is gone: the step's outcome.
    for (const run of await this.runs.endedWhileSending()) {
      const lapsed = run.lease_until ?? undefined;
      if (lapsed && lapsed.getTime() > Date.now()) continue;
      await this.queue.step(run.id, run.step_count, lapsed);
    }
    // Queued runs whose screen host is free.
    for (const leaseKey of await this.runs.queuedLeaseKeys())
      await this.lifecycle.promote(leaseKey);
    // Approvals still open: their expiry job (delayed until due).
    for (const approval of await this.approvals.open()) {
      await this.queue.expire(approval.id, approval.expires_at);
    }
    // Deliveries still pending long after their last try (a job that is still queued stays one).
    const idleMs = this.config.NOTIFY_TIMEOUT_MS + this.config.NOTIFY_BACKOFF_MS * 2 ** 6;
    for (const id of await this.deliveries.idlePending(Math.max(idleMs, 60_000), 200)) {
      await this.notify.deliver(id);
    }
    // Pending approvals: their reminder and escalation, where still to come.
    for (const timer of await this.approvals.timersDue()) {
      if (timer.remind_at) await this.queue.remind(timer.id, timer.remind_at);
      if (timer.escalate_at) await this.queue.escalate(timer.id, timer.escalate_at);
    }
  }
}
