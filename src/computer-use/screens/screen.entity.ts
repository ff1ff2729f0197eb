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

  /**
   * The PNG, or with `key_id` its AES-256-GCM ciphertext and tag (screen-crypto.ts). Null once
   * retention dropped the bytes (`purged_at`); the row and its hashes stay.
   */
  @Column({ type: 'bytea', nullable: true })
  png: Buffer | null;

  /** The screen key the bytes are encrypted under; null: plaintext PNG. */
  @Column({ name: 'key_id', type: 'text', nullable: true })
  keyId: string | null;

  @Column({ type: 'bytea', nullable: true })
  nonce: Buffer | null;

  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  /** SHA-256 over width, height and the RGBA pixels (docs/security.md): equal for re-encodings. */
  @Column({ name: 'pixel_sha256', type: 'char', length: 64 })
  pixelSha256: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When a step last stored or saw this screen (to the hour): retention counts from here. */
  @Column({ name: 'last_used_at', type: 'timestamptz', default: () => 'now()' })
  lastUsedAt: Date;

  /** When retention dropped the PNG bytes; null while they are kept. */
  @Column({ name: 'purged_at', type: 'timestamptz', nullable: true })
  purgedAt: Date | null;
}
