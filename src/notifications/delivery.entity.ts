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
import type { NotifyChannel, NotifyKind } from './notify-channel';
import { Tenant } from '../tenants/tenant.entity';
import type { NotifyEventKind } from './notify-event';
import type { NotificationMessage } from './render-message';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'not_granted'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One message to one channel (docs/security.md): queued by `Notifications.announce`, tried by the worker
 * with backoff. `last_error` is an HTTP status or an error's class, never what the receiver answered.
 */
@Entity({ name: 'deliveries' })
@Index('deliveries_tenant_created_idx', ['tenant', 'createdAt', 'id'])
export class Delivery {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'deliveries_pkey' })
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant', foreignKeyConstraintName: 'deliveries_tenant_fkey' })
  tenantRef?: Tenant;

  @Column({ type: 'text' })
  agent: string;

  @Column({ name: 'run_id', type: 'uuid', nullable: true })
  runId: string | null;

  @Column({ name: 'approval_id', type: 'uuid', nullable: true })
  approvalId: string | null;

  @Column({ type: 'text' })
  event: NotifyEventKind;

  @Column({ name: 'channel_kind', type: 'text' })
  channelKind: NotifyKind;

  /** The channel as configured when the event happened: variable names and addresses, no secrets. */
  @Column({ type: 'jsonb' })
  channel: NotifyChannel;

  @Column({ type: 'jsonb' })
  message: NotificationMessage;

  @Column({ type: 'text' })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** `HTTP 503`, `ETIMEDOUT`, `not_granted: …`: never a response body. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;
}
