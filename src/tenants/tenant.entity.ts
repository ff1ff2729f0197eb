import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A tenant is named by a short slug (`acme`), which is also its key: everything is scoped by it. */
@Entity({ name: 'tenants' })
export class Tenant {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export const TENANT_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
