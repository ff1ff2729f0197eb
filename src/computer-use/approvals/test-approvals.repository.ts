import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Action, Change } from '../actions';
import { updatedRows } from '../../sql/sql';
import type { DecisionVia } from './approval.entity';

/**
 * A seeded test approval (docs/approver-guide.md, oversight): a known-bad change an admin put in the
 * approvers' inboxes, where rejecting is the right answer. It has no run and no step, so no path
 * that sends anything can reach it: each starts from a run's held step and its `approvals` row.
 */
export interface TestApproval {
  id: string;
  tenant: string;
  agent: string;
  system: string | null;
  goal: string;
  action: Action;
  why: string;
  changes: Change[] | null;
  /** Who may decide it, as a held write's deciders (null: anyone with agents.approve). */
  deciders: string[] | null;
  status: 'pending' | 'approved' | 'rejected';
  seededBy: string;
  createdAt: Date;
  expiresAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  decidedVia: DecisionVia | null;
  comment: string | null;
}

export type NewTestApproval = Pick<
  TestApproval,
  'tenant' | 'agent' | 'system' | 'goal' | 'action' | 'why' | 'changes' | 'deciders' | 'seededBy'
> & { expiresInSeconds: number };

const COLUMNS = `id, tenant, agent, system, goal, action, why, changes, deciders, status, seeded_by,
  created_at, expires_at, decided_by, decided_at, decided_via, comment`;

/** The SQL of seeded test approvals. */
@Injectable()
export class TestApprovalsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(manager: EntityManager, t: NewTestApproval): Promise<TestApproval> {
    const rows: Row[] = await manager.query(
      `INSERT INTO test_approvals (tenant, agent, system, goal, action, why, changes, deciders,
                                   seeded_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10))
       RETURNING ${COLUMNS}`,
      [
        t.tenant,
        t.agent,
        t.system,
        t.goal,
        JSON.stringify(t.action),
        t.why,
        t.changes === null ? null : JSON.stringify(t.changes),
        t.deciders,
        t.seededBy,
        t.expiresInSeconds,
      ],
    );
    return fromRow(rows[0]);
  }

  /** Another tenant's is simply not there. */
  async findInTenant(tenant: string, id: string): Promise<TestApproval | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM test_approvals WHERE id = $1 AND tenant = $2`,
      [id, tenant],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Several by id, in the tenant (an inbox page). */
  async byIds(tenant: string, ids: readonly string[]): Promise<TestApproval[]> {
    if (ids.length === 0) return [];
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM test_approvals WHERE tenant = $1 AND id = ANY($2::uuid[])`,
      [tenant, ids],
    );
    return rows.map(fromRow);
  }

  /** The test approval, locked for the rest of the caller's transaction (a decision). */
  async lockInTenant(
    manager: EntityManager,
    tenant: string,
    id: string,
  ): Promise<TestApproval | null> {
    const rows: Row[] = await manager.query(
      `SELECT ${COLUMNS} FROM test_approvals WHERE id = $1 AND tenant = $2 FOR UPDATE`,
      [id, tenant],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Records a decision on a pending one; false when it was no longer pending. */
  async decide(
    manager: EntityManager,
    t: Pick<TestApproval, 'id' | 'status' | 'decidedBy' | 'decidedAt' | 'decidedVia' | 'comment'>,
  ): Promise<boolean> {
    const rows = updatedRows<{ id: string }>(
      await manager.query(
        `UPDATE test_approvals
            SET status = $2, decided_by = $3, decided_at = $4, decided_via = $5, comment = $6
          WHERE id = $1 AND status = 'pending'
          RETURNING id`,
        [t.id, t.status, t.decidedBy, t.decidedAt, t.decidedVia, t.comment],
      ),
    );
    return rows.length === 1;
  }

  /** The tenant's test approvals, newest first, for the oversight report. */
  async latest(tenant: string, limit: number): Promise<TestApproval[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM test_approvals WHERE tenant = $1
        ORDER BY created_at DESC, id DESC LIMIT $2`,
      [tenant, limit],
    );
    return rows.map(fromRow);
  }
}

type Row = Record<string, unknown>;

function fromRow(r: Row): TestApproval {
  return {
    id: r.id as string,
    tenant: r.tenant as string,
    agent: r.agent as string,
    system: (r.system as string | null) ?? null,
    goal: r.goal as string,
    action: r.action as Action,
    why: r.why as string,
    changes: (r.changes as Change[] | null) ?? null,
    deciders: (r.deciders as string[] | null) ?? null,
    status: r.status as TestApproval['status'],
    seededBy: r.seeded_by as string,
    createdAt: new Date(r.created_at as string),
    expiresAt: new Date(r.expires_at as string),
    decidedBy: (r.decided_by as string | null) ?? null,
    decidedAt: r.decided_at ? new Date(r.decided_at as string) : null,
    decidedVia: (r.decided_via as DecisionVia | null) ?? null,
    comment: (r.comment as string | null) ?? null,
  };
}
