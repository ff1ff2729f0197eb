import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Run } from '../runs/run.entity';
import { Tenant } from '../../tenants/tenant.entity';

/**
 * One call to a model provider: the transcript of a step (docs/models.md) is its calls. The request
 * names screenshots by SHA-256 instead of holding their bytes; a failed call keeps the HTTP status
 * and Warden's cause type, never the provider's error body.
 */
@Entity({ name: 'model_calls' })
@Index('model_calls_run_step_seq_key', ['runId', 'n', 'seq'], { unique: true })
export class ModelCall {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  @Column({ name: 'run_id', type: 'uuid' })
  runId: string;

  @ManyToOne(() => Run, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'run_id' })
  run?: Run;

  @Column({ type: 'text' })
  agent: string;

  /** The step's number. */
  @Column({ type: 'integer' })
  n: number;

  /** The call's number within the step (a step can look again: more than one call). */
  @Column({ type: 'integer' })
  seq: number;

  @Column({ type: 'text' })
  provider: string;

  @Column({ type: 'text' })
  model: string;

  @Column({ type: 'jsonb' })
  request: Record<string, unknown>;

  /** The answer, or null when the call failed. */
  @Column({ type: 'jsonb', nullable: true })
  answer: Record<string, unknown> | null;

  /** `{status, cause, message}` of a failed call. */
  @Column({ type: 'jsonb', nullable: true })
  error: Record<string, unknown> | null;

  /** Every attempt: status, cause, latency, wait before the next. */
  @Column({ type: 'jsonb' })
  attempts: Array<Record<string, unknown>>;

  /** null: unknown (the provider did not say), never 0 for unknown. */
  @Column({ name: 'input_tokens', type: 'integer', nullable: true })
  inputTokens: number | null;

  @Column({ name: 'output_tokens', type: 'integer', nullable: true })
  outputTokens: number | null;

  /** Of the input tokens, those read from the provider's prompt cache; null: not known. */
  @Column({ name: 'cache_read_tokens', type: 'integer', nullable: true })
  cacheReadTokens: number | null;

  /** Of the input tokens, those written to the prompt cache (Anthropic); null: not known. */
  @Column({ name: 'cache_write_tokens', type: 'integer', nullable: true })
  cacheWriteTokens: number | null;

  /** null: unknown usage or no price configured. */
  @Column({ name: 'cost_usd', type: 'double precision', nullable: true })
  costUsd: number | null;

  /** From the first attempt to the answer, retries included. */
  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
