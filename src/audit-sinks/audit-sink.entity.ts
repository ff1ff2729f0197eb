import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tenant } from '../tenants/tenant.entity';
import type { SinkConfig, SinkKind } from './sink-config';

const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | number) => Number(value),
};

/**
 * One audit sink of a tenant, with its delivery cursor: `delivered_seq` is the seq of the last
 * event the sink acknowledged, so shipping resumes after it whatever restarted. One worker at a
 * time ships to a sink: the one holding its lease (`lease_owner` until `lease_until`).
 */
@Entity({ name: 'audit_sinks' })
export class AuditSink {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'audit_sinks_pkey' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant', foreignKeyConstraintName: 'audit_sinks_tenant_fkey' })
  tenantRef?: Tenant;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'audit_sinks_pkey' })
  name: string;

  /** Its place in the admin's list. */
  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  kind: SinkKind;

  @Column({ type: 'jsonb' })
  config: SinkConfig;

  @Column({ name: 'delivered_seq', type: 'bigint', transformer: bigintAsNumber, default: 0 })
  deliveredSeq: number;

  @Column({ name: 'last_delivered_at', type: 'timestamptz', nullable: true })
  lastDeliveredAt: Date | null;

  /** Why the last try failed, in Warden's words (a code or a status, never the sink's answer). */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'last_error_at', type: 'timestamptz', nullable: true })
  lastErrorAt: Date | null;

  /** Failed tries in a row (the backoff's exponent); 0 after a delivery. */
  @Column({ type: 'integer', default: 0 })
  failures: number;

  @Column({ name: 'next_try_at', type: 'timestamptz', default: () => 'now()' })
  nextTryAt: Date;

  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'updated_by', type: 'text' })
  updatedBy: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
