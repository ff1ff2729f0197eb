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
 * The deployment operator's permission to send one environment variable's value to one origin on
 * one tenant's behalf (docs/screen-host.md). Revoked grants stay, with who revoked them and when.
 */
@Entity({ name: 'secret_grants' })
export class SecretGrant {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'secret_grants_pkey' })
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant', foreignKeyConstraintName: 'secret_grants_tenant_fkey' })
  tenantRef?: Tenant;

  /** The environment variable's name, never its value. */
  @Column({ name: 'env_name', type: 'text' })
  envName: string;

  /** `https://host:port` (the URL origin), or `http://` on loopback. */
  @Column({ type: 'text' })
  origin: string;

  @Column({ name: 'granted_by', type: 'text' })
  grantedBy: string;

  @CreateDateColumn({ name: 'granted_at', type: 'timestamptz' })
  grantedAt: Date;

  @Column({ name: 'revoked_by', type: 'text', nullable: true })
  revokedBy: string | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
