import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tenant } from '../../tenants/tenant.entity';

/**
 * The tenant's pause (docs/step-flow.md): one switch for every agent of the tenant, operational state like
 * the kill switches, checked before every step and in the transaction that marks any action
 * `sending`. No row: never paused.
 */
@Entity({ name: 'computer_use_pauses' })
export class TenantPause {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'computer_use_pauses_pkey' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @Column({ type: 'boolean' })
  paused: boolean;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @Column({ name: 'updated_by', type: 'text' })
  updatedBy: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
