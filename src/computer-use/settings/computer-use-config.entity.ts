import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tenant } from '../../tenants/tenant.entity';
import type { ComputerUseConfig } from './agent-config';
import type { ConfigNotice } from './config-notice';
import type { ScriptGrants } from './script-grants';

/**
 * One version of a tenant's computer-use configuration. Every PUT adds a version; none is changed
 * or deleted, so the history of who configured what stays. The newest version is the config.
 * `(tenant, version)` is the primary key, so two writers cannot both add the same version.
 */
@Entity({ name: 'computer_use_configs' })
export class ComputerUseConfigVersion {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'computer_use_configs_pkey' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'computer_use_configs_pkey' })
  version: number;

  /** Normalised: every default filled in, no secret (secrets are refused before this). */
  @Column({ type: 'jsonb' })
  config: ComputerUseConfig;

  /**
   * What Warden tells the admin about this version, when Warden wrote it itself (an upgrade that
   * rewrote the config, config-notice.ts); [] for every version an admin wrote.
   */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  notices: ConfigNotice[];

  /**
   * By agent whose writes need no approval and whose planner is a script: the SHA-256 of the
   * script's content this version grants (script-grants.ts). A version is written for every change
   * of it (a script replaced or deleted under such an agent), so the send gate reads it from the
   * version in force.
   */
  @Column({ name: 'script_grants', type: 'jsonb', default: () => "'{}'" })
  scriptGrants: ScriptGrants;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
