import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { conflict, gone, notFound } from '../../common/domain-error';
import { StepQueue } from '../../queue/step-queue';
import { ScreensService } from '../screens/screens.service';
import type { ListRunsDto } from './dto/list-runs.dto';
import type { StartRunDto } from './dto/start-run.dto';
import { goalWithParams } from '../planning/script-params';
import { RunAdmission } from './run-admission.service';
import { Run } from './run.entity';
import { RunLifecycle } from './run-lifecycle.service';
import { runView, RunView } from './run.view';
import { RunsRepository } from './runs.repository';
import { StepDoneListener } from './step-done.listener';
import { StepsRepository } from './steps.repository';

/** How long a resume waits for the worker to carry out the approved write before answering. */
const RESUME_WAIT_MS = 15_000;

/** The screen host a run needs: one run at a time per host (docs/step-flow.md). */
export function leaseKeyOf(screenUrl: string): string {
  const url = new URL(screenUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

@Injectable()
export class RunsService {
  private readonly logger = new Logger(RunsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly runs: RunsRepository,
    private readonly steps: StepsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly lifecycle: RunLifecycle,
    private readonly queue: StepQueue,
    private readonly stepDone: StepDoneListener,
    private readonly audit: AuditService,
    private readonly admission: RunAdmission,
    private readonly screens: ScreensService,
  ) {}

  /** Starts a run, or refuses it with a reason (RunAdmission, audited `computer_use.refused`). */
  async start(caller: Caller, body: StartRunDto): Promise<RunView> {
    const { version, agent, params } = await this.admission.admit(caller, body);
    // The goal names the values a run of a script is started with.
    const goal = params ? goalWithParams(body.goal, params) : body.goal;
    const run = await this.dataSource.transaction(async (manager) => {
      const saved = await this.runs.create(manager, {
        tenant: caller.tenant,
        agent: body.agent,
        goal,
        params,
        status: 'queued',
        createdBy: caller.subject,
        createdByToken: caller.tokenId,
        configVersion: version,
        agentConfig: agent,
        leaseKey: leaseKeyOf(agent.screen_url),
        maxSteps: agent.max_steps,
        maxSeconds: agent.max_seconds,
      });
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'computer_use.start',
          actor: caller.subject,
          runId: saved.id,
          details: {
            agent: body.agent,
            goal,
            config_version: version,
            require_write_approval: agent.require_write_approval,
            four_eyes: agent.four_eyes,
          },
        },
        manager,
      );
      return saved;
    });
    // The run is committed. From here a failure must not answer 500: the caller would retry and
    // start a second run, which then waits forever behind the first on the same screen host. A
    // run that cannot be promoted now stays queued, and the reconciler starts it when its host is
    // free (seen under a burst of 100 starts, whose promotes timed out waiting for a pooled
    // connection: test/ops/scale-out.e2e-spec.ts).
    await this.lifecycle.promote(run.leaseKey).catch((error: unknown) => {
      this.logger.warn({ err: error, run: run.id }, 'run started queued; the reconciler starts it');
    });
    return this.get(caller, run.id, false).catch(() => runView(run));
  }

  async list(
    caller: Caller,
    query: ListRunsDto,
  ): Promise<{ items: RunView[]; next_cursor: string | null }> {
    const page = await this.runs.page(
      caller.tenant,
      { status: query.status, agent: query.agent },
      query.limit,
      query.cursor,
    );
    return { items: page.items.map((run) => runView(run)), next_cursor: page.next_cursor };
  }

  /** A run with its steps; another tenant's run is a 404. */
  async get(caller: Caller, id: string, withSteps = true): Promise<RunView> {
    const run = await this.find(caller.tenant, id);
    const [steps, approval, decisions] = await Promise.all([
      withSteps ? this.steps.ofRun(id) : undefined,
      run.pendingApproval ? this.approvals.findById(run.pendingApproval) : null,
      withSteps ? this.approvals.ofRun(id) : undefined,
    ]);
    return runView(run, { steps: steps ?? undefined, approval, decisions });
  }

  /** The exact PNG a step saw, for `agents.operate`, `agents.approve` or `audit.read` in the tenant. */
  async screen(
    caller: Caller,
    id: string,
    n: number,
  ): Promise<{ png: Buffer; sha256: string; damage: string | null }> {
    await this.find(caller.tenant, id);
    const step = await this.steps.find(id, n);
    if (!step?.screenSha256) throw notFound(`run ${id} has no screen for step ${n}`);
    const found = await this.screens.read(caller.tenant, step.screenSha256);
    if (!found) throw notFound(`run ${id} has no screen for step ${n}`);
    if ('purgedAt' in found) {
      throw gone(
        `the screen of step ${n} of run ${id} was deleted on ${found.purgedAt.toISOString()} under the tenant's screen retention; its SHA-256 ${step.screenSha256} stays in the step and the audit log`,
      );
    }
    const damage = await this.screens.damage({ sha256: step.screenSha256, png: found.png });
    return { png: found.png, sha256: step.screenSha256, damage };
  }

  async cancel(caller: Caller, id: string): Promise<RunView> {
    const run = await this.find(caller.tenant, id);
    const ended = await this.lifecycle.end(
      run.id,
      'cancelled',
      `cancelled by ${caller.subject}`,
      caller.subject,
    );
    if (!ended) throw conflict(`run ${id} has already ended (${run.status})`);
    return this.get(caller, id);
  }

  /**
   * Spends the approval of the held write, once: of many concurrent resumes one wins and the rest
   * get 409. The worker then compares the screen with the held one and sends exactly the held
   * action, or stops the run `stale_screen`; this waits for that outcome and answers the run.
   */
  async resume(caller: Caller, id: string): Promise<RunView> {
    // Five round trips (begin, the locked read, the spend, one statement for the step and the run,
    // commit): in a burst of resumes each holds a pooled connection only that long.
    const spent = await this.dataSource.transaction(async (manager) => {
      const run = await this.lifecycle.heldRun(manager, caller.tenant, id);
      if (!run) throw notFound(`no run ${id}`);
      if (run.status !== 'awaiting_approval' || !run.pendingApproval) {
        throw conflict(`run ${id} is ${run.status}: there is no held write to resume`);
      }
      const approval = run.approval;
      if (!approval) throw conflict(`run ${id} has no held write to resume`);
      if (approval.status !== 'approved') {
        throw conflict(
          approval.status === 'pending'
            ? `the held write of step ${approval.step} is waiting for an approver`
            : `the approval of step ${approval.step} is ${approval.status}`,
        );
      }
      if (approval.expiresAt.getTime() <= Date.now()) {
        throw conflict(
          `the approval of step ${approval.step} expired at ${approval.expiresAt.toISOString()}`,
        );
      }
      const resumed = await this.lifecycle.resume(manager, run.id, approval.id, caller.subject);
      if (!resumed.spent) throw conflict(`the approval of step ${approval.step} was already used`);
      if (!resumed.stepApproved) throw conflict(`step ${approval.step} is no longer held`);
      if (!resumed.running) throw conflict(`run ${id} changed while resuming`);
      return { runId: run.id, n: approval.step, stepId: approval.stepId };
    });
    await this.queue.approved(spent.runId, spent.n);
    await this.stepDone.waitForDone(spent.stepId, RESUME_WAIT_MS);
    return this.get(caller, id);
  }

  private async find(tenant: string, id: string): Promise<Run> {
    const run = /^[0-9a-f-]{36}$/i.test(id) ? await this.runs.findInTenant(tenant, id) : null;
    if (!run) throw notFound(`no run ${id}`);
    return run;
  }
}
