import type { OutlineElement } from '../actions';
import type {
  ObservedScreen,
  Planner,
  PlanningContext,
  PlanResult,
} from '../planner-contract/planner';
import type { RemoteFamily } from './remote-families.repository';
import type { NewWork, PublishedScreen, WorkRow } from './planner-work.repository';
import { publishedInput } from './published-input';
import { RemotePlannerError } from './remote-errors';
import { busyMessage, MAX_WAITING_STEPS, notServingMessage, workNext } from './work-decisions';

/** What the remote planner needs of Warden: its work table, heartbeats, the queue, the screens. */
export interface RemoteWorkPort {
  heartbeatSeconds: number;
  ofStep(runId: string, step: number): Promise<WorkRow | null>;
  publish(work: NewWork, maxOpen: number): Promise<WorkRow | 'busy'>;
  close(id: string, status: 'timed_out' | 'offline'): Promise<boolean>;
  /** The family's last heartbeat; with `claimer`, that worker's under that token only. */
  lastSeen(
    tenant: string,
    family: string,
    claimer?: { worker: string; tokenId: string } | null,
  ): Promise<Date | null>;
  /** Queues the step again at `at`: its next look at the work. */
  lookAgain(work: WorkRow, at: Date): Promise<void>;
  /** The PNG of a stored screen of the tenant. */
  png(tenant: string, sha256: string): Promise<Buffer | null>;
}

/**
 * A remote planner (docs/models.md): the decision comes from a worker outside Warden. A step's first
 * look publishes its input as waiting work and answers `waits` (the job ends, no worker slot is
 * held); the worker's answer, or a check at the deadline or the heartbeat's end, queues the step
 * again, and the next look answers the decision, on the screen it was published for, or fails as
 * a model error (planner_offline, planner_busy, planner_failed, planner_timeout).
 */
export class RemotePlanner implements Planner {
  constructor(
    readonly id: string,
    private readonly family: RemoteFamily,
    private readonly port: RemoteWorkPort,
  ) {}

  async plan(context: PlanningContext): Promise<PlanResult> {
    const work = await this.port.ofStep(context.runId, context.step);
    if (!work) return this.publish(context);
    // A claimed step lives on its claimer's heartbeat: its name under the token that claimed it
    // (a claim that names no token has none: offline).
    const lastSeen =
      work.status !== 'claimed'
        ? await this.port.lastSeen(context.tenant, work.family)
        : work.worker !== null && work.claimedByToken !== null
          ? await this.port.lastSeen(context.tenant, work.family, {
              worker: work.worker,
              tokenId: work.claimedByToken,
            })
          : null;
    const next = workNext(
      work,
      new Date(),
      lastSeen,
      this.port.heartbeatSeconds,
      this.family.deadlineSeconds,
    );
    if (next.go === 'wait') {
      await this.port.lookAgain(work, next.checkAt);
      return { action: null, state: context.state, waits: true };
    }
    if (next.go === 'fail') {
      // Answered meanwhile: look at it again.
      if (next.close && !(await this.port.close(work.id, next.close))) return this.plan(context);
      throw new RemotePlannerError(next.code, next.message);
    }
    return {
      action: next.decision,
      state: context.state,
      screen: await this.screenOf(context.tenant, work.screen, context.screen),
      model: {
        provider: 'remote',
        model: this.id,
        input_tokens: null,
        output_tokens: null,
        latency_ms: Math.max(
          0,
          (work.answeredAt ?? new Date()).getTime() - work.createdAt.getTime(),
        ),
        calls: 1,
        cost_usd: null,
        notes: `decided by worker ${JSON.stringify(work.worker ?? '?')} of ${work.family}`,
      },
    };
  }

  private async publish(context: PlanningContext): Promise<PlanResult> {
    const { family } = this.family;
    const lastSeen = await this.port.lastSeen(context.tenant, family);
    const heartbeat = this.port.heartbeatSeconds;
    if (!lastSeen || lastSeen.getTime() + heartbeat * 1000 <= Date.now()) {
      throw new RemotePlannerError('planner_offline', notServingMessage(family, heartbeat));
    }
    const { screen } = context;
    const published = await this.port.publish(
      {
        tenant: context.tenant,
        family,
        planner: this.id,
        runId: context.runId,
        step: context.step,
        input: publishedInput(
          this.id,
          { ...context, maxSteps: context.maxSteps ?? context.step },
          this.family.pixels,
        ) as unknown as Record<string, unknown>,
        screen: {
          sha256: screen.sha256,
          pixelSha256: screen.pixelSha256,
          width: screen.width,
          height: screen.height,
          frameSha256: screen.frameSha256 ?? null,
          hiddenSha256: screen.hiddenSha256 ?? null,
          outline: screen.outline,
        },
        deadlineAt: new Date(Date.now() + this.family.deadlineSeconds * 1000),
      },
      MAX_WAITING_STEPS,
    );
    if (published === 'busy') {
      throw new RemotePlannerError('planner_busy', busyMessage(context.tenant));
    }
    // Published by an earlier try of this job: carry on from that row.
    if (published.status !== 'waiting') return this.plan(context);
    const checkAt = Math.min(Date.now() + heartbeat * 1000, published.deadlineAt.getTime());
    await this.port.lookAgain(published, new Date(checkAt + 50));
    return { action: null, state: context.state, waits: true };
  }

  /** The screen the step was published on: the decision is judged (and framed) on it. */
  private async screenOf(
    tenant: string,
    published: PublishedScreen,
    now: ObservedScreen,
  ): Promise<ObservedScreen> {
    if (published.sha256 === now.sha256 && published.frameSha256 === (now.frameSha256 ?? null)) {
      return now;
    }
    const png = await this.port.png(tenant, published.sha256);
    if (!png)
      throw new RemotePlannerError('planner_failed', 'the published screen is no longer kept');
    return {
      sha256: published.sha256,
      pixelSha256: published.pixelSha256,
      width: published.width,
      height: published.height,
      png,
      frameSha256: published.frameSha256,
      ...(published.hiddenSha256 ? { hiddenSha256: published.hiddenSha256 } : {}),
      outline: published.outline as OutlineElement[] | null,
    };
  }
}
