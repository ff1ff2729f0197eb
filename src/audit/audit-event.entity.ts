import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Tenant } from '../tenants/tenant.entity';

const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | number) => Number(value),
};

/**
 * One append-only audit event. `seq` orders a tenant's events; `sha256` covers the event's content
 * and `prev_sha256` (the previous event of the same tenant), so a changed or deleted row breaks the chain.
 * A trigger refuses UPDATE, DELETE and TRUNCATE on the table.
 */
@Entity({ name: 'audit_events' })
@Index('audit_events_tenant_seq_key', ['tenant', 'seq'], { unique: true })
@Index('audit_events_tenant_run_idx', ['tenant', 'runId', 'seq'])
export class AuditEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  seq: number;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  actor: string;

  @Column({ name: 'run_id', type: 'uuid', nullable: true })
  runId: string | null;

  @Column({ type: 'integer', nullable: true })
  step: number | null;

  @Column({ type: 'timestamptz' })
  at: Date;

  @Column({ type: 'jsonb' })
  details: Record<string, unknown>;

  @Column({ name: 'prev_sha256', type: 'char', length: 64 })
  prevSha256: string;

  @Column({ type: 'char', length: 64 })
  sha256: string;
}
