import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tenant } from '../../tenants/tenant.entity';

/**
 * An agent's kill switch: operational state, not part of the versioned config, so engaging it in an
 * emergency needs no new version and survives config changes. Checked before every step.
 */
@Entity({ name: 'computer_use_kill_switches' })
export class KillSwitch {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'computer_use_kill_switches_pkey' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'computer_use_kill_switches_pkey' })
  agent: string;

  @Column({ type: 'boolean' })
  engaged: boolean;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @Column({ name: 'updated_by', type: 'text' })
  updatedBy: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
