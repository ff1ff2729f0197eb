import {
  Column,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Tenant } from '../../tenants/tenant.entity';
import type { Script } from './script.types';

/**
 * A scripted planner as stored. Its API id is `scripted-<id>`. Soft-deleted: a deleted planner
 * keeps its row (runs and audit events refer to it) but is found by nothing.
 */
@Entity({ name: 'scripted_planners' })
@Index('scripted_planners_tenant_created_idx', ['tenant', 'createdAt', 'id'])
export class ScriptedPlannerRecord {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @Column({ type: 'text' })
  name: string;

  /** The checked, normalised script (`checkScript`'s output). */
  @Column({ type: 'jsonb' })
  script: Script;

  /** The run the script was saved from (`POST /api/computer-use/runs/{id}/script`); null: written by hand. */
  @Column({ name: 'source_run_id', type: 'uuid', nullable: true })
  sourceRunId: string | null;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  /** Set by the service (millisecond precision), so that list cursors compare exactly. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
