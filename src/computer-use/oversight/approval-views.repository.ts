import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../../sql/sql';

/** One opening of an approval's page, as the console reported it. */
export interface ApprovalViewRow {
  id: string;
  tenant: string;
  approval_id: string;
  viewer: string;
  opened_at: Date;
  changes_seen_at: Date | null;
}

const VIEW = `id, tenant, approval_id, viewer, opened_at, changes_seen_at`;

/** The SQL of approval page views (docs/approver-guide.md, oversight). */
@Injectable()
export class ApprovalViewsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async open(tenant: string, approvalId: string, viewer: string): Promise<ApprovalViewRow> {
    const rows: ApprovalViewRow[] = await this.dataSource.query(
      `INSERT INTO approval_views (tenant, approval_id, viewer) VALUES ($1, $2, $3) RETURNING ${VIEW}`,
      [tenant, approvalId, viewer],
    );
    return rows[0];
  }

  /**
   * Marks the view's change list as seen, the first time only; null when it is no view of this
   * viewer's of this approval.
   */
  async changesSeen(
    tenant: string,
    approvalId: string,
    viewId: string,
    viewer: string,
  ): Promise<ApprovalViewRow | null> {
    const rows = updatedRows<ApprovalViewRow>(
      await this.dataSource.query(
        `UPDATE approval_views SET changes_seen_at = coalesce(changes_seen_at, now())
          WHERE id = $1 AND tenant = $2 AND approval_id = $3 AND viewer = $4
          RETURNING ${VIEW}`,
        [viewId, tenant, approvalId, viewer],
      ),
    );
    return rows[0] ?? null;
  }

  /** The viewer's view of the approval, in the decision's transaction; null when it is not theirs. */
  async ofViewer(
    manager: EntityManager,
    tenant: string,
    approvalId: string,
    viewId: string,
    viewer: string,
  ): Promise<ApprovalViewRow | null> {
    const rows: ApprovalViewRow[] = await manager.query(
      `SELECT ${VIEW} FROM approval_views
        WHERE id = $1 AND tenant = $2 AND approval_id = $3 AND viewer = $4`,
      [viewId, tenant, approvalId, viewer],
    );
    return rows[0] ?? null;
  }
}
