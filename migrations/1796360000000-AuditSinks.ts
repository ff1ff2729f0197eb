import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit sinks (docs/security.md): a tenant's SIEM destinations, each with its delivery cursor (the seq of
 * the last event the sink acknowledged) and the lease of the one worker shipping to it.
 */
export class AuditSinks1796360000000 implements MigrationInterface {
  name = 'AuditSinks1796360000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_sinks" ("tenant" text NOT NULL, "name" text NOT NULL, "position" integer NOT NULL, "kind" text NOT NULL, "config" jsonb NOT NULL, "delivered_seq" bigint NOT NULL DEFAULT 0, "last_delivered_at" TIMESTAMP WITH TIME ZONE, "last_error" text, "last_error_at" TIMESTAMP WITH TIME ZONE, "failures" integer NOT NULL DEFAULT 0, "next_try_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "lease_owner" text, "lease_until" TIMESTAMP WITH TIME ZONE, "updated_by" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "audit_sinks_pkey" PRIMARY KEY ("tenant", "name"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_sinks" ADD CONSTRAINT "audit_sinks_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_sinks"`);
  }
}
