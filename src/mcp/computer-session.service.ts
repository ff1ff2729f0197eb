import { Injectable } from '@nestjs/common';
import type { ApprovalView } from '../computer-use/approvals/approval.view';
import type { Caller } from '../auth/caller';
import { conflict, DomainError, forbidden, invalid } from '../common/domain-error';
import { MCP_FAMILY_NAME } from '../computer-use/remote/mcp-family';
import {
  PlannerWorkRepository,
  type WorkRow,
} from '../computer-use/remote/planner-work.repository';
import { RemoteFamiliesRepository } from '../computer-use/remote/remote-families.repository';
import type { RunView, StepView } from '../computer-use/runs/run.view';
import { RunsService } from '../computer-use/runs/runs.service';
import { StepQueue } from '../queue/step-queue';

/** Where a governed-computer session stands after a tool call (docs/mcp.md). */
export type SessionState =
  /** A step waits for the calling agent's decision on this screen. */
  | { kind: 'screen'; run: RunView; work: WorkRow; last: StepView | null }
  /** A write waits for a person of the tenant. */
  | { kind: 'held'; run: RunView; approval: ApprovalView; last: StepView | null }
  /** The run ended. */
  | { kind: 'ended'; run: RunView; last: StepView | null }
  /** Warden is still observing or settling the screen: ask again. */
  | { kind: 'working'; run: RunView; last: StepView | null };

/** How long a tool call waits for the step it caused to end and the next screen to be published. */
const WAIT_MS = 25_000;
const POLL_MS = 100;

const ENDED = new Set(['completed', 'failed', 'stopped']);

/**
 * A governed computer over MCP (docs/mcp.md): the calling agent is the planner of a run of an agent
 * whose planner is `mcp`. Each step of such a run is published as waiting work (a remote planner's);
 * a tool call claims it for the caller and answers its action, then waits for the engine to judge,
 * hold or send it, and answers what became of it. Only the run's starter drives its session, and
 * nothing here approves: a held write is decided by a person through the approvals API or console.
 */
@Injectable()
export class ComputerSession {
  constructor(
    private readonly runs: RunsService,
    private readonly work: PlannerWorkRepository,
    private readonly families: RemoteFamiliesRepository,
    private readonly queue: StepQueue,
  ) {}

  /** The session's state now: the screen of the step waiting for the caller, a held write, its end. */
  async look(caller: Caller, runId: string): Promise<SessionState> {
    await this.ownRun(caller, runId);
    return this.next(caller, runId, 0);
  }

  /**
   * One decision of the calling agent, for the step waiting on the frame it names: answered as the
   * step's planner answer, then judged by the engine like any planner's. A frame that is not the
   * step's is refused `screen_changed` and nothing is answered.
   */
  async act(
    caller: Caller,
    runId: string,
    frameId: string,
    decision: Record<string, unknown>,
  ): Promise<SessionState> {
    const run = await this.ownRun(caller, runId);
    const open = await this.work.openOfRun(caller.tenant, runId);
    if (!open || open.family !== MCP_FAMILY_NAME) {
      if (run.status === 'awaiting_approval') {
        throw conflict(
          `screen_changed: run ${runId} has a write held for a person; call approval_status, not another action`,
        );
      }
      throw conflict(
        `no step of run ${runId} waits for a decision now (the run is ${run.status}): call screenshot`,
      );
    }
    const frame = frameOf(open);
    if (frameId !== frame) {
      throw new DomainError(
        'conflict',
        `screen_changed: step ${open.step} waits on frame ${frame}, not ${frameId.slice(0, 64)}: call screenshot and decide on the screen as it is`,
        'screen_changed',
      );
    }
    const worker = workerOf(caller);
    await this.families.heartbeat(caller.tenant, [MCP_FAMILY_NAME], worker, caller.tokenId);
    const claimed =
      open.status === 'waiting'
        ? await this.work.claim(caller.tenant, [MCP_FAMILY_NAME], open.id, worker, caller.tokenId)
        : open;
    if (!claimed || claimed.worker !== worker || claimed.claimedByToken !== caller.tokenId) {
      throw conflict(
        `step ${open.step} of run ${runId} is decided by another call of this session`,
      );
    }
    const answered = await this.work.answer(caller.tenant, open.id, worker, caller.tokenId, {
      decision,
    });
    if (!answered) throw conflict(`step ${open.step} of run ${runId} was answered already`);
    await this.queue.stepLater(runId, open.step, `remote.${open.id}.answer`);
    return this.next(caller, runId, open.step);
  }

  /**
   * Where a held write stands. Approved by a person: the approval is spent (the resume, as the run's
   * starter), the write is sent once onto the screen the approver saw, and the new screen is
   * answered. Rejected or expired: the run has ended, with the reason.
   */
  async approval(caller: Caller, runId: string): Promise<SessionState> {
    const run = await this.ownRun(caller, runId);
    const approval = run.pending_approval;
    if (run.status === 'awaiting_approval' && approval?.status === 'approved') {
      await this.runs.resume(caller, runId);
      return this.next(caller, runId, approval.step);
    }
    return this.next(caller, runId, 0);
  }

  /**
   * The run's state once its planner is asked for a step after `afterStep`, a write is held or the
   * run ends; `working` if none of these within the wait.
   */
  private async next(caller: Caller, runId: string, afterStep: number): Promise<SessionState> {
    const until = Date.now() + WAIT_MS;
    for (;;) {
      const run = await this.runs.get(caller, runId, false);
      if (ENDED.has(run.status))
        return { kind: 'ended', run, last: await this.lastStep(caller, runId) };
      if (run.status === 'awaiting_approval' && run.pending_approval) {
        return {
          kind: 'held',
          run,
          approval: run.pending_approval,
          last: await this.lastStep(caller, runId),
        };
      }
      const work = await this.work.openOfRun(caller.tenant, runId);
      if (work && work.family === MCP_FAMILY_NAME && work.step > afterStep) {
        return { kind: 'screen', run, work, last: await this.lastStep(caller, runId, work.step) };
      }
      if (Date.now() >= until) return { kind: 'working', run, last: null };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** The run's last step that has an outcome, before step `before` when given. */
  private async lastStep(caller: Caller, runId: string, before?: number): Promise<StepView | null> {
    const steps = (await this.runs.get(caller, runId, true)).steps ?? [];
    const done = steps.filter((s) => s.action !== null && (before === undefined || s.n < before));
    return done.length > 0 ? done[done.length - 1] : null;
  }

  /** The run, when it is of the caller's tenant, planned over MCP and started by the caller. */
  private async ownRun(caller: Caller, runId: string): Promise<RunView> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(runId)) {
      throw invalid('run_id must be a run id (a UUID)');
    }
    const run = await this.runs.get(caller, runId, false);
    if (run.created_by !== caller.subject) {
      throw forbidden(
        `run ${runId} was started by ${run.created_by}: only its starter drives its session`,
      );
    }
    return run;
  }
}

/** The frame id a step was published on (its planner input's `frame.id`). */
export function frameOf(work: WorkRow): string {
  const frame = work.input.frame as { id?: unknown } | undefined;
  return typeof frame?.id === 'string' ? frame.id : '';
}

/** The worker name a session's caller answers steps under. */
function workerOf(caller: Caller): string {
  return `mcp:${caller.subject}`.slice(0, 100);
}
