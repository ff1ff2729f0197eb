import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Tenant } from '../tenants/tenant.entity';
import type { Permission } from './permission';

/** An API token. Only the SHA-256 of the token is stored; the token itself is shown once. */
@Entity({ name: 'api_tokens' })
export class ApiToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text', array: true })
  permissions: Permission[];

  @Index('api_tokens_token_sha256_key', { unique: true })
  @Column({ name: 'token_sha256', type: 'char', length: 64 })
  tokenSha256: string;

  /** With `planners.serve`: the remote planner families this token may serve (docs/models.md). */
  @Column({ name: 'planner_families', type: 'text', array: true, default: () => "'{}'" })
  plannerFamilies: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
