import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Tenant } from '../../tenants/tenant.entity';
import type { AgentConfig } from '../settings/agent-config';
import type { EndReason, RunStatus } from './run-status';

/**
 * A run: one goal worked on one screen host, step by step. Its status moves only through
 * RunLifecycle. At most one run per screen host holds the lease (the partial unique index).
 */
@Entity({ name: 'runs' })
@Index('runs_tenant_created_idx', ['tenant', 'createdAt'])
@Index('runs_one_per_screen_host', ['leaseKey'], {
  unique: true,
  where: `"status" IN ('running', 'awaiting_approval')`,
})
@Index('runs_queued_idx', ['leaseKey', 'createdAt'], { where: `"status" = 'queued'` })
export class Run {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @Column({ type: 'text' })
  agent: string;

  @Column({ type: 'text' })
  goal: string;

  @Column({ type: 'text' })
  status: RunStatus;

  @Column({ name: 'end_reason', type: 'text', nullable: true })
  endReason: EndReason | null;

  /** The planner's summary (done), its reason (fail), or what went wrong. */
  @Column({ type: 'text', nullable: true })
  summary: string | null;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'created_by_token', type: 'uuid' })
  createdByToken: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  /** Time spent `running`, up to `active_since` (docs/step-flow.md: not while queued or awaiting approval). */
  @Column({ name: 'active_seconds', type: 'double precision', default: 0 })
  activeSeconds: number;

  @Column({ name: 'active_since', type: 'timestamptz', nullable: true })
  activeSince: Date | null;

  @Column({ name: 'config_version', type: 'integer' })
  configVersion: number;

  /** The agent's configuration as it was when the run started. */
  @Column({ name: 'agent_config', type: 'jsonb' })
  agentConfig: AgentConfig;

  /** The screen host this run needs (its URL): one run at a time per lease key. */
  @Column({ name: 'lease_key', type: 'text' })
  leaseKey: string;

  @Column({ name: 'max_steps', type: 'integer' })
  maxSteps: number;

  @Column({ name: 'max_seconds', type: 'integer' })
  maxSeconds: number;

  @Column({ name: 'step_count', type: 'integer', default: 0 })
  stepCount: number;

  @Column({ name: 'invalid_actions', type: 'integer', default: 0 })
  invalidActions: number;

  /** Screen actions in a row after which the screen's pixels did not change. */
  @Column({ name: 'unchanged_streak', type: 'integer', default: 0 })
  unchangedStreak: number;

  /** The parameters a run of a script was started with (`{order: "4712"}`); null: none. */
  @Column({ type: 'jsonb', nullable: true })
  params: Record<string, string> | null;

  @Column({ name: 'planner_state', type: 'jsonb', nullable: true })
  plannerState: unknown;

  /**
   * Pixels of the run's screens that moved by themselves (a caret, a clock), learnt after a read
   * met a changed screen: left out of the frame comparison of its later actions (VolatileMask
   * format). Null: none learnt.
   */
  @Column({ name: 'volatile_mask', type: 'bytea', nullable: true })
  volatileMask: Buffer | null;

  @Column({ name: 'pending_approval', type: 'uuid', nullable: true })
  pendingApproval: string | null;

  /** A legal hold keeps the run's screens past the tenant's retention (docs/operations.md). */
  @Column({ name: 'legal_hold', type: 'boolean', default: false })
  legalHold: boolean;

  @Column({ name: 'legal_hold_reason', type: 'text', nullable: true })
  legalHoldReason: string | null;

  @Column({ name: 'legal_hold_by', type: 'text', nullable: true })
  legalHoldBy: string | null;

  @Column({ name: 'legal_hold_at', type: 'timestamptz', nullable: true })
  legalHoldAt: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
