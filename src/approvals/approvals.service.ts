import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { Caller } from '../auth/caller';
import { decodeCursor, encodeCursor } from '../common/cursor';
import { conflict, forbidden, notFound } from '../common/domain-error';
import { Run } from '../computer-use/runs/run.entity';
import { RunLifecycle } from '../computer-use/runs/run-lifecycle.service';
import { Step } from '../computer-use/runs/step.entity';
import type { AgentConfig } from '../computer-use/settings/agent-config';
import { Approval } from './approval.entity';
import { approvalView, ApprovalView } from './approval.view';
import type { ListApprovalsDto } from './dto/list-approvals.dto';

/**
 * Waiting actions and the decisions on them. Approving only allows a resume; it sends nothing.
 * Rejecting ends the run without acting.
 */
@Injectable()
export class ApprovalsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly lifecycle: RunLifecycle,
  ) {}

  /** The tenant's waiting actions, oldest first (newest last). */
  async list(
    caller: Caller,
    query: ListApprovalsDto,
  ): Promise<{ items: ApprovalView[]; next_cursor: string | null }> {
    const qb = this.dataSource
      .getRepository(Approval)
      .createQueryBuilder('a')
      .where('a.tenant = :tenant AND a.status = :status', {
        tenant: caller.tenant,
        status: query.status,
      })
      .orderBy('a.created_at', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .take(query.limit + 1);
    if (query.cursor) {
      const [at, id] = decodeCursor<[string, string]>(query.cursor, 'tu');
      qb.andWhere(
        new Brackets((w) =>
          w
            .where('a.created_at > :at', { at })
            .orWhere('a.created_at = :at AND a.id > :id', { at, id }),
        ),
      );
    }
    const rows = await qb.getMany();
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(approvalView),
      next_cursor:
        rows.length > query.limit ? encodeCursor([last.createdAt.toISOString(), last.id]) : null,
    };
  }

  async get(caller: Caller, id: string): Promise<ApprovalView> {
    const approval = await this.dataSource
      .getRepository(Approval)
      .findOneBy({ id, tenant: caller.tenant });
    if (!approval) throw notFound(`no approval ${id}`);
    return approvalView(approval);
  }

  /**
   * Approves a held write. Four-eyes (on by default): the person who started the run, or the token
   * that started it, cannot approve its writes.
   */
  async approve(caller: Caller, id: string, comment?: string): Promise<ApprovalView> {
    return this.dataSource.transaction(async (manager) => {
      const { approval, run } = await this.pending(manager, caller, id);
      const agent = run.agentConfig as unknown as AgentConfig;
      if (
        agent.four_eyes !== false &&
        (caller.subject === run.createdBy || caller.tokenId === run.createdByToken)
      ) {
        throw forbidden(
          `four-eyes: ${caller.subject} started this run, so someone else must approve its writes`,
        );
      }
      await this.decide(manager, caller, approval, 'approved', comment);
      return approvalView(approval);
    });
  }

  /** Rejects a held write: nothing is sent and the run stops `rejected`. */
  async reject(caller: Caller, id: string, comment?: string): Promise<ApprovalView> {
    const result = await this.dataSource.transaction(async (manager) => {
      const { approval, run } = await this.pending(manager, caller, id);
      await this.decide(manager, caller, approval, 'rejected', comment);
      await manager.update(
        Step,
        { id: approval.stepId, phase: 'held' },
        { phase: 'done', outcome: 'rejected', endedAt: new Date() },
      );
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'computer_use.write.refused',
          actor: caller.subject,
          runId: run.id,
          step: approval.step,
          details: {
            agent: run.agent,
            approval_id: approval.id,
            action: approval.action,
            comment: comment ?? null,
          },
        },
        manager,
      );
      await this.lifecycle.end(
        run.id,
        'rejected',
        `${caller.subject} rejected the write of step ${approval.step}`,
        caller.subject,
        {
          step: approval.step,
          manager,
        },
      );
      return { view: approvalView(approval), leaseKey: run.leaseKey };
    });
    await this.lifecycle.promote(result.leaseKey);
    return result.view;
  }

  private async pending(
    manager: EntityManager,
    caller: Caller,
    id: string,
  ): Promise<{ approval: Approval; run: Run }> {
    const approval = await manager
      .getRepository(Approval)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.id = :id AND a.tenant = :tenant', { id, tenant: caller.tenant })
      .getOne();
    if (!approval) throw notFound(`no approval ${id}`);
    if (approval.status !== 'pending')
      throw conflict(`approval ${id} is already ${approval.status}`);
    if (approval.expiresAt.getTime() <= Date.now()) {
      throw conflict(`approval ${id} expired at ${approval.expiresAt.toISOString()}`);
    }
    const run = await manager.findOneByOrFail(Run, { id: approval.runId });
    return { approval, run };
  }

  private async decide(
    manager: EntityManager,
    caller: Caller,
    approval: Approval,
    status: 'approved' | 'rejected',
    comment?: string,
  ): Promise<void> {
    Object.assign(approval, {
      status,
      decidedBy: caller.subject,
      decidedAt: new Date(),
      comment: comment ?? null,
    });
    await manager.update(
      Approval,
      { id: approval.id, status: 'pending' },
      {
        status,
        decidedBy: approval.decidedBy,
        decidedAt: approval.decidedAt,
        comment: approval.comment,
      },
    );
    await this.audit.record(
      {
        tenant: caller.tenant,
        type: 'approval.decided',
        actor: caller.subject,
        runId: approval.runId,
        step: approval.step,
        details: {
          approval_id: approval.id,
          kind: approval.kind,
          decision: status,
          comment: comment ?? null,
        },
      },
      manager,
    );
  }
}
