import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tenant } from '../../tenants/tenant.entity';

/**
 * A screenshot, stored once per tenant and distinct SHA-256 of its PNG bytes (content-addressed).
 * `width` and `height` are the PNG's own pixels; the coordinate space a step acted in is on the step.
 */
@Entity({ name: 'screens' })
export class Screen {
  @PrimaryColumn({ type: 'text' })
  tenant: string;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant' })
  tenantRef?: Tenant;

  /** SHA-256 of the PNG bytes, hex. */
  @PrimaryColumn({ type: 'char', length: 64 })
  sha256: string;

  @Column({ type: 'bytea' })
  png: Buffer;

  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  /** SHA-256 over width, height and the RGBA pixels (DESIGN §6): equal for re-encodings. */
  @Column({ name: 'pixel_sha256', type: 'char', length: 64 })
  pixelSha256: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
