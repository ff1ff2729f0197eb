import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Tenant } from '../tenants/tenant.entity';

/**
 * The deployment operator's permission for Warden to connect to one origin on one tenant's behalf
 * (docs/security.md "Destinations"). Revoked grants stay, with who revoked them and when.
 */
@Entity({ name: 'destination_grants' })
export class DestinationGrant {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'destination_grants_pkey' })
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant', foreignKeyConstraintName: 'destination_grants_tenant_fkey' })
  tenantRef?: Tenant;

  /** `https://host:port`, `http://` on loopback, `tls://host:port`, `smtp(s)://host:port`. */
  @Column({ type: 'text' })
  origin: string;

  /** Why, in the operator's words (`--note`). */
  @Column({ type: 'text', nullable: true })
  note: string | null;

  @Column({ name: 'granted_by', type: 'text' })
  grantedBy: string;

  @CreateDateColumn({ name: 'granted_at', type: 'timestamptz' })
  grantedAt: Date;

  @Column({ name: 'revoked_by', type: 'text', nullable: true })
  revokedBy: string | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
