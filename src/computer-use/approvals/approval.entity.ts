import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { Action, Change, Rect } from '../actions';
import type { ProviderSafetyCheck } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import { Tenant } from '../../tenants/tenant.entity';

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'spent';

/**
 * What a held write's approval says of the agent's `redact_regions` (docs/security.md,
 * "Redaction"): the person deciding sees the screen with them black.
 */
export interface ApprovalRedaction {
  /** The share of the held screen they hide, in percent, rounded up to a tenth (never understated). */
  percent: number;
  /** The regions, in the coordinate space of actions. */
  regions: Rect[];
  /** What the write lands on (the click's point, the focused field) lies under one. */
  target: boolean;
  /** The steps of the change list's lines whose field lies under one. */
  changes: number[];
}

/**
 * Where a person decided (docs/approver-guide.md): a console session, a bearer token (the console
 * signed in with one included), a Slack button or a Teams card.
 */
export const DECISION_VIAS = ['console', 'api', 'slack', 'teams'] as const;
export type DecisionVia = (typeof DECISION_VIAS)[number];

/**
 * A waiting action: something an agent may do only after a person approves it. A held write of a
 * computer-use run is one kind. `spent` means the approval was used, once, by a resume.
 */
/** How far the volatile mask of a held write is (docs/security.md). */
export type MaskState = 'learning' | 'learnt' | 'abandoned';

@Entity({ name: 'approvals' })
@Index('approvals_tenant_status_idx', ['tenant', 'status', 'createdAt'])
@Index('approvals_step_key', ['stepId'], { unique: true })
export class Approval {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @Column({ type: 'text' })
  kind: 'computer_use.write';

  @Column({ type: 'text' })
  status: ApprovalStatus;

  @Column({ type: 'text' })
  agent: string;

  @Column({ name: 'run_id', type: 'uuid' })
  runId: string;

  @Column({ type: 'integer' })
  step: number;

  @Column({ name: 'step_id', type: 'uuid' })
  stepId: string;

  @Column({ type: 'jsonb' })
  action: Action;

  @Column({ type: 'text' })
  why: string;

  @Column({ name: 'screen_sha256', type: 'char', length: 64 })
  screenSha256: string;

  @Column({ name: 'screen_pixel_sha256', type: 'char', length: 64 })
  screenPixelSha256: string;

  /** Pixels that moved by themselves while the write was held (blinking caret, clock). */
  @Column({ name: 'volatile_mask', type: 'bytea', nullable: true })
  volatileMask: Buffer | null;

  @Column({ name: 'volatile_pixels', type: 'integer', default: 0 })
  volatilePixels: number;

  /**
   * Whether the mask is still being learnt (the screen is sampled after the write is held, while a
   * person reads it), was learnt, or was given up (the screen is then compared whole).
   */
  @Column({ name: 'mask_state', type: 'text', default: 'learnt' })
  maskState: MaskState;

  @Column({ name: 'requested_by', type: 'text' })
  requestedBy: string;

  @Column({ name: 'requested_by_token', type: 'uuid' })
  requestedByToken: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'decided_by', type: 'text', nullable: true })
  decidedBy: string | null;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt: Date | null;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  /** Where the decision was made; null before one was, or for a decision older than the column. */
  @Column({ name: 'decided_via', type: 'text', nullable: true })
  decidedVia: DecisionVia | null;

  @Column({ name: 'spent_by', type: 'text', nullable: true })
  spentBy: string | null;

  @Column({ name: 'spent_at', type: 'timestamptz', nullable: true })
  spentAt: Date | null;

  /** Provider safety checks that made this a held write (shown to the approver). */
  @Column({ name: 'safety_checks', type: 'jsonb', nullable: true })
  safetyChecks: ProviderSafetyCheck[] | null;

  /**
   * A held commit's change list (docs/security.md, commit-point approval): every staged edit since the
   * run's last commit, read back on the held screen. Null when nothing was staged.
   */
  @Column({ type: 'jsonb', nullable: true })
  changes: Change[] | null;

  /** The injection rail's flag on the held screen, when it held the action (issue 16 §2). */
  @Column({ type: 'jsonb', nullable: true })
  rail: RailRecord | null;

  /**
   * The agent's `redact_regions` as the write was held: how much of the screen the approver sees
   * black, and whether the write or its changes lie there. Null: the agent redacted nothing.
   */
  @Column({ type: 'jsonb', nullable: true })
  redaction: ApprovalRedaction | null;
  /**
   * Who may decide it now (docs/security.md, approver groups): groups or token subjects, the agent's
   * `approvers` when it was held, with `escalate_to` added once escalated; null: anyone with
   * `agents.approve` in the tenant.
   */
  @Column({ type: 'text', array: true, nullable: true })
  deciders: string[] | null;

  /** Whom an escalation adds to `deciders`; null: it never escalates. */
  @Column({ name: 'escalate_to', type: 'text', array: true, nullable: true })
  escalateTo: string[] | null;

  /** When the reminder is due (null: none); `remindedAt` once it happened. */
  @Column({ name: 'remind_at', type: 'timestamptz', nullable: true })
  remindAt: Date | null;

  @Column({ name: 'escalate_at', type: 'timestamptz', nullable: true })
  escalateAt: Date | null;

  @Column({ name: 'reminded_at', type: 'timestamptz', nullable: true })
  remindedAt: Date | null;

  @Column({ name: 'escalated_at', type: 'timestamptz', nullable: true })
  escalatedAt: Date | null;
}
