import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import { Brackets, DataSource } from 'typeorm';
import { Approval } from '../../approvals/approval.entity';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { decodeCursor, encodeCursor } from '../../common/cursor';
import { conflict, DomainError, notFound } from '../../common/domain-error';
import { secretFromEnv } from '../../config/app-config';
import { StepQueue } from '../engine/step-queue';
import { PlannersService } from '../planning/planners.service';
import { ScreensService } from '../screens/screens.service';
import { SettingsService } from '../settings/settings.service';
import type { ListRunsDto } from './dto/list-runs.dto';
import type { StartRunDto } from './dto/start-run.dto';
import { Run } from './run.entity';
import { RunLifecycle } from './run-lifecycle.service';
import { runView, RunView } from './run.view';
import { Step } from './step.entity';

/** How long a resume waits for the worker to carry out the approved write before answering. */
const RESUME_WAIT_MS = 15_000;

/** The screen host a run needs: one run at a time per host (DESIGN §4). */
export function leaseKeyOf(screenUrl: string): string {
  const url = new URL(screenUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

@Injectable()
export class RunsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lifecycle: RunLifecycle,
    private readonly queue: StepQueue,
    private readonly audit: AuditService,
    private readonly settings: SettingsService,
    private readonly planners: PlannersService,
    private readonly screens: ScreensService,
  ) {}

  /**
   * Starts a run, or refuses it with a reason (audited `computer_use.refused`): computer use off,
   * unknown agent, kill switch, the screen host's token variable unset, no planner.
   */
  async start(caller: Caller, body: StartRunDto): Promise<RunView> {
    const current = await this.settings.current(caller.tenant);
    const agent = current?.config.agents[body.agent];
    const refuse = async (error: DomainError): Promise<never> => {
      await this.audit.record({
        tenant: caller.tenant,
        type: 'computer_use.refused',
        actor: caller.subject,
        details: { agent: body.agent, goal: body.goal, why: error.message },
      });
      throw error;
    };
    if (!current?.config.enabled) {
      return refuse(
        conflict('computer use is turned off for this tenant (PUT /api/admin/computer-use)'),
      );
    }
    if (!agent)
      return refuse(notFound(`no agent "${body.agent}" in this tenant's computer-use config`));
    const kill = await this.settings.killSwitch(caller.tenant, body.agent);
    if (kill?.engaged)
      return refuse(conflict(`the kill switch of "${body.agent}" is engaged: ${kill.reason}`));
    if (secretFromEnv(agent.screen_token_env) === undefined) {
      return refuse(
        conflict(
          `the screen host token variable ${agent.screen_token_env} is not set on the Warden host`,
        ),
      );
    }
    const notUsable = await this.planners.reasonNotUsable(caller.tenant, agent.planner);
    if (notUsable) return refuse(conflict(`agent "${body.agent}" cannot plan: ${notUsable}`));
    if (!(await this.planners.plannerFor(caller.tenant, agent.planner))) {
      return refuse(conflict(`agent "${body.agent}" has no planner that Warden can use`));
    }

    const run = await this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(
        manager.create(Run, {
          tenant: caller.tenant,
          agent: body.agent,
          goal: body.goal,
          status: 'queued',
          createdBy: caller.subject,
          createdByToken: caller.tokenId,
          configVersion: current.version,
          agentConfig: agent as unknown as Record<string, unknown>,
          leaseKey: leaseKeyOf(agent.screen_url),
          maxSteps: agent.max_steps,
          maxSeconds: agent.max_seconds,
        }),
      );
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'computer_use.start',
          actor: caller.subject,
          runId: saved.id,
          details: {
            agent: body.agent,
            goal: body.goal,
            config_version: current.version,
            require_write_approval: agent.require_write_approval,
            four_eyes: agent.four_eyes,
          },
        },
        manager,
      );
      return saved;
    });
    await this.lifecycle.promote(run.leaseKey);
    return this.get(caller, run.id, false);
  }

  async list(
    caller: Caller,
    query: ListRunsDto,
  ): Promise<{ items: RunView[]; next_cursor: string | null }> {
    const qb = this.dataSource
      .getRepository(Run)
      .createQueryBuilder('r')
      .where('r.tenant = :tenant', { tenant: caller.tenant })
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .take(query.limit + 1);
    if (query.status) qb.andWhere('r.status = :status', { status: query.status });
    if (query.agent) qb.andWhere('r.agent = :agent', { agent: query.agent });
    if (query.cursor) {
      const [at, id] = decodeCursor<[string, string]>(query.cursor, 'tu');
      qb.andWhere(
        new Brackets((w) =>
          w
            .where('r.created_at < :at', { at })
            .orWhere('r.created_at = :at AND r.id < :id', { at, id }),
        ),
      );
    }
    const rows = await qb.getMany();
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((run) => runView(run)),
      next_cursor:
        rows.length > query.limit ? encodeCursor([last.createdAt.toISOString(), last.id]) : null,
    };
  }

  /** A run with its steps; another tenant's run is a 404. */
  async get(caller: Caller, id: string, withSteps = true): Promise<RunView> {
    const run = await this.find(caller.tenant, id);
    const [steps, approval] = await Promise.all([
      withSteps
        ? this.dataSource.getRepository(Step).find({ where: { runId: id }, order: { n: 'ASC' } })
        : undefined,
      run.pendingApproval
        ? this.dataSource.getRepository(Approval).findOneBy({ id: run.pendingApproval })
        : null,
    ]);
    return runView(run, { steps: steps ?? undefined, approval });
  }

  /** The exact PNG a step saw, for `agents.operate`, `agents.approve` or `audit.read` in the tenant. */
  async screen(caller: Caller, id: string, n: number): Promise<{ png: Buffer; sha256: string }> {
    await this.find(caller.tenant, id);
    const step = await this.dataSource.getRepository(Step).findOneBy({ runId: id, n });
    if (!step?.screenSha256) throw notFound(`run ${id} has no screen for step ${n}`);
    const png = await this.screens.get(caller.tenant, step.screenSha256);
    if (!png) throw notFound(`run ${id} has no screen for step ${n}`);
    return { png, sha256: step.screenSha256 };
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
    const spent = await this.dataSource.transaction(async (manager) => {
      const run = await manager
        .getRepository(Run)
        .createQueryBuilder('r')
        .setLock('pessimistic_write')
        .where('r.id = :id AND r.tenant = :tenant', { id, tenant: caller.tenant })
        .getOne();
      if (!run) throw notFound(`no run ${id}`);
      if (run.status !== 'awaiting_approval' || !run.pendingApproval) {
        throw conflict(`run ${id} is ${run.status}: there is no held write to resume`);
      }
      const approval = await manager.findOneByOrFail(Approval, { id: run.pendingApproval });
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
      const spend = await manager.update(
        Approval,
        { id: approval.id, status: 'approved' },
        { status: 'spent', spentBy: caller.subject, spentAt: new Date() },
      );
      if (!spend.affected) throw conflict(`the approval of step ${approval.step} was already used`);
      const moved = await manager.update(
        Step,
        { id: approval.stepId, phase: 'held' },
        { phase: 'approved' },
      );
      if (!moved.affected) throw conflict(`step ${approval.step} is no longer held`);
      const running = await this.lifecycle.transition(
        manager,
        run.id,
        'awaiting_approval',
        'running',
        {
          pendingApproval: null,
        },
      );
      if (!running) throw conflict(`run ${id} changed while resuming`);
      return { runId: run.id, n: approval.step, stepId: approval.stepId };
    });
    await this.queue.approved(spent.runId, spent.n);
    await this.waitForStep(spent.stepId);
    return this.get(caller, id);
  }

  private async waitForStep(stepId: string): Promise<void> {
    const until = Date.now() + RESUME_WAIT_MS;
    while (Date.now() < until) {
      const step = await this.dataSource
        .getRepository(Step)
        .findOne({ where: { id: stepId }, select: { phase: true } });
      if (step?.phase === 'done') return;
      await sleep(15);
    }
  }

  private async find(tenant: string, id: string): Promise<Run> {
    const run = /^[0-9a-f-]{36}$/i.test(id)
      ? await this.dataSource.getRepository(Run).findOneBy({ id, tenant })
      : null;
    if (!run) throw notFound(`no run ${id}`);
    return run;
  }
}
