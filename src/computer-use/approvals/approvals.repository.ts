import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { decodeCursor, encodeCursor } from '../../common/cursor';
import { cursorTime, updatedRows } from '../../sql/sql';
import { Approval, ApprovalStatus } from './approval.entity';

/** A page of waiting actions: held writes and, mixed in by time, seeded tests (their ids). */
export interface ApprovalPage {
  items: Array<{ write: Approval } | { testId: string }>;
  next_cursor: string | null;
}

/**
 * The approvals table. An approval moves pending → approved | rejected | expired, and approved →
 * spent | expired, each change conditional on the status it was read in, so a decision, a spend
 * and an expiry can never both win. A resume spends it (`spend`) in the transaction that resumes
 * its run (RunLifecycle.resume).
 */
@Injectable()
export class ApprovalsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  create(manager: EntityManager, fields: Partial<Approval>): Promise<Approval> {
    return manager.save(manager.create(Approval, fields));
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<Approval | null> {
    return manager.findOneBy(Approval, { id });
  }

  /**
   * The approval with the goal of its run, for what people are told of it (a reminder, an
   * escalation); null when either is gone.
   */
  async withRunGoal(id: string): Promise<{ approval: Approval; runGoal: string } | null> {
    const { entities, raw } = await this.dataSource
      .getRepository(Approval)
      .createQueryBuilder('a')
      .innerJoin('runs', 'r', 'r.id = a.run_id AND r.tenant = a.tenant')
      .addSelect('r.goal', 'run_goal')
      .where('a.id = :id', { id })
      .getRawAndEntities<{ run_goal: string }>();
    if (entities.length === 0) return null;
    return { approval: entities[0], runGoal: raw[0].run_goal };
  }

  /** Another tenant's approval is simply not there. */
  findInTenant(tenant: string, id: string): Promise<Approval | null> {
    return this.dataSource.getRepository(Approval).findOneBy({ id, tenant });
  }

  /** The approval, locked for the rest of the caller's transaction (a decision). */
  lockInTenant(manager: EntityManager, tenant: string, id: string): Promise<Approval | null> {
    return manager
      .getRepository(Approval)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.id = :id AND a.tenant = :tenant', { id, tenant })
      .getOne();
  }

  /** The approval, locked for the rest of the caller's transaction. */
  lockById(manager: EntityManager, id: string): Promise<Approval | null> {
    return manager
      .getRepository(Approval)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.id = :id', { id })
      .getOne();
  }

  /**
   * Spends the run's approved approval for the resume that sends its write, in the caller's
   * transaction: approved → spent, conditional on that status, so of concurrent resumes one wins
   * (and neither a decision nor an expiry can win with it). Returns the step it approved, or null
   * when it was not (or no longer) approved. The send gate sends an approved write only once its
   * approval is spent (send-gate.ts), so the caller rolls back unless its resume then also moves
   * the step and the run (RunResumeRepository.resumeSpent).
   */
  async spend(
    manager: EntityManager,
    runId: string,
    approvalId: string,
    spentBy: string,
    spentAt: Date,
  ): Promise<string | null> {
    const spent = updatedRows<{ step_id: string }>(
      await manager.query(
        `UPDATE approvals SET status = 'spent', spent_by = $3, spent_at = $4
          WHERE id = $2 AND run_id = $1 AND status = 'approved'
          RETURNING step_id`,
        [runId, approvalId, spentBy, spentAt],
      ),
    );
    return spent[0]?.step_id ?? null;
  }

  /** Every approval of a run's steps, in step order: who decided each, and who resumed. */
  ofRun(runId: string): Promise<Approval[]> {
    return this.dataSource
      .getRepository(Approval)
      .find({ where: { runId }, order: { step: 'ASC' } });
  }

  /** The approval of a held step; with `status`, only in that status. */
  ofStep(stepId: string, status?: ApprovalStatus): Promise<Approval | null> {
    return this.dataSource
      .getRepository(Approval)
      .findOneBy(status ? { stepId, status } : { stepId });
  }

  /**
   * The tenant's waiting actions in one status, oldest first, a page after `cursor`: only those
   * that anyone may decide or that name one of `names` (a caller's subject and groups) among their
   * deciders. Seeded tests (test-approvals.repository.ts) are in the same order; a pending one only
   * until it expires.
   */
  async page(
    tenant: string,
    status: ApprovalStatus,
    names: readonly string[],
    limit: number,
    cursor?: string,
  ): Promise<ApprovalPage> {
    const params: unknown[] = [tenant, status, limit + 1, names];
    let after = '';
    if (cursor) {
      const [at, id] = decodeCursor<[string, string]>(cursor, 'tu');
      after = `WHERE (created_at, id) > ($${params.push(at)}::timestamptz, $${params.push(id)}::uuid)`;
    }
    const rows: Array<{ id: string; test: boolean; cursor_at: string }> =
      await this.dataSource.query(
        `SELECT id, test, ${cursorTime('created_at')} AS cursor_at FROM (
           SELECT id, created_at, false AS test FROM approvals
            WHERE tenant = $1 AND status = $2 AND (deciders IS NULL OR deciders && $4::text[])
           UNION ALL
           SELECT id, created_at, true FROM test_approvals
            WHERE tenant = $1 AND status = $2 AND (deciders IS NULL OR deciders && $4::text[])
              AND (status <> 'pending' OR expires_at > now())
         ) waiting ${after}
         ORDER BY created_at, id LIMIT $3`,
        params,
      );
    const page = rows.slice(0, limit);
    const writes = new Map(
      (
        await this.dataSource
          .getRepository(Approval)
          .findBy({ id: In(page.filter((r) => !r.test).map((r) => r.id)) })
      ).map((a) => [a.id, a]),
    );
    const last = page[page.length - 1];
    return {
      items: page.flatMap((r): ApprovalPage['items'] => {
        if (r.test) return [{ testId: r.id }];
        const write = writes.get(r.id);
        return write ? [{ write }] : [];
      }),
      next_cursor: rows.length > limit ? encodeCursor([last.cursor_at, last.id]) : null,
    };
  }

  /** Records a decision on a pending approval; false when it was no longer pending. */
  async decide(
    manager: EntityManager,
    approval: Approval,
    decision: Pick<Approval, 'status' | 'decidedBy' | 'decidedAt' | 'decidedVia' | 'comment'>,
  ): Promise<boolean> {
    const result = await manager.update(
      Approval,
      { id: approval.id, status: 'pending' },
      {
        status: decision.status,
        decidedBy: decision.decidedBy,
        decidedAt: decision.decidedAt,
        decidedVia: decision.decidedVia,
        comment: decision.comment,
      },
    );
    return Boolean(result.affected);
  }

  /**
   * Records the volatile mask learnt for a held write (null: nothing moved by itself, or too much),
   * once, and only while it is still being learnt: false when it was given up meanwhile
   * (`abandonMask`), and then it stays given up.
   */
  async recordMask(id: string, mask: Buffer | null, pixels: number): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(Approval)
      .update(
        { id, maskState: 'learning' },
        { maskState: 'learnt', volatileMask: mask, volatilePixels: pixels },
      );
    return Boolean(result.affected);
  }

  /**
   * Gives up a mask still being learnt: the write's screen is compared whole (no pixel is left
   * out). The approval as it is now: its mask learnt after all when the learning won the race.
   */
  async abandonMask(id: string): Promise<Approval | null> {
    await this.giveUpMask(id);
    return this.findById(id);
  }

  /** Gives up a mask still being learnt; false when it was no longer being learnt. */
  async giveUpMask(id: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(Approval)
      .update({ id, maskState: 'learning' }, { maskState: 'abandoned' });
    return Boolean(result.affected);
  }

  /** Closes the run's open approvals (pending or approved, never spent) as `expired`. */
  async expireOpenOfRun(manager: EntityManager, runId: string, comment: string): Promise<void> {
    await manager.update(
      Approval,
      { runId, status: In(['pending', 'approved']) },
      { status: 'expired', decidedAt: new Date(), comment },
    );
  }

  /**
   * Records the reminder of a pending approval, once: false when it was already reminded or is no
   * longer pending.
   */
  async remind(manager: EntityManager, id: string, at: Date): Promise<boolean> {
    const result = await manager.update(
      Approval,
      { id, status: 'pending', remindedAt: IsNull() },
      { remindedAt: at },
    );
    return Boolean(result.affected);
  }

  /**
   * Records the escalation of a pending approval, once, with who may decide it from now on: false
   * when it was already escalated or is no longer pending.
   */
  async escalate(
    manager: EntityManager,
    id: string,
    deciders: string[] | null,
    at: Date,
  ): Promise<boolean> {
    const result = await manager.update(
      Approval,
      { id, status: 'pending', escalatedAt: IsNull() },
      { deciders, escalatedAt: at },
    );
    return Boolean(result.affected);
  }

  /** Pending approvals with a reminder or escalation still to come, for the reconciler. */
  timersDue(): Promise<Array<{ id: string; remind_at: Date | null; escalate_at: Date | null }>> {
    return this.dataSource.query(
      `SELECT id,
              CASE WHEN reminded_at IS NULL THEN remind_at END AS remind_at,
              CASE WHEN escalated_at IS NULL THEN escalate_at END AS escalate_at
         FROM approvals
        WHERE status = 'pending'
          AND ((remind_at IS NOT NULL AND reminded_at IS NULL)
            OR (escalate_at IS NOT NULL AND escalated_at IS NULL))`,
    );
  }

  /** Open approvals (pending or approved) with their expiry, for the reconciler. */
  open(): Promise<Array<{ id: string; expires_at: Date }>> {
    return this.dataSource.query(
      `SELECT id, expires_at FROM approvals WHERE status IN ('pending', 'approved')`,
    );
  }
}
