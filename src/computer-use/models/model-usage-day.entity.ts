import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Tenant } from '../../tenants/tenant.entity';

/**
 * An agent's model usage on one UTC day, added to atomically by every worker (docs/models.md: the
 * daily budget is counted in PostgreSQL). Tokens counted are known tokens; calls whose usage or
 * cost is unknown are counted apart, so unknown never reads as zero.
 */
@Entity({ name: 'model_usage_days' })
export class ModelUsageDay {
  @PrimaryColumn({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @PrimaryColumn({ type: 'text' })
  agent: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ name: 'input_tokens', type: 'bigint', default: 0 })
  inputTokens: string;

  @Column({ name: 'output_tokens', type: 'bigint', default: 0 })
  outputTokens: string;

  @Column({ name: 'cost_usd', type: 'double precision', default: 0 })
  costUsd: number;

  @Column({ type: 'integer', default: 0 })
  calls: number;

  @Column({ name: 'unknown_usage_calls', type: 'integer', default: 0 })
  unknownUsageCalls: number;

  @Column({ name: 'unknown_cost_calls', type: 'integer', default: 0 })
  unknownCostCalls: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
