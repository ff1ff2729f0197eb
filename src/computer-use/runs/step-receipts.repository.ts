import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../../sql/sql';
import type { Receipt } from '../actions/receipt';
import type { Step } from './step.entity';

/** A sent write's receipt on its step (WriteReceipts reads it from the screen). */
@Injectable()
export class StepReceiptsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A sent write's receipt (what the application said after it), once: only while the step holds
   * none yet. A refusal in the application's words ends the step `refused_by_application`. True
   * when this call recorded it (the caller audits it in the same transaction).
   */
  async record(
    step: Step,
    receipt: Receipt,
    refusal: string | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = updatedRows(
      await manager.query(
        `UPDATE steps
            SET receipt = $2::jsonb,
                outcome = CASE WHEN $3::text IS NULL THEN outcome ELSE 'refused_by_application' END,
                error = COALESCE($3::text, error)
          WHERE id = $1 AND phase = 'done'
            AND NOT (COALESCE(receipt, '{}'::jsonb) ?| ARRAY['message', 'none'])
          RETURNING id`,
        [step.id, JSON.stringify(receipt), refusal],
      ),
    );
    if (rows.length === 0) return false;
    step.receipt = receipt;
    if (refusal !== null)
      Object.assign(step, { outcome: 'refused_by_application', error: refusal });
    return true;
  }
}
