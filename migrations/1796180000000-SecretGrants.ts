import { MigrationInterface, QueryRunner } from 'typeorm';

/** Secret grants (docs/screen-host.md): which environment variable may be sent to which origin for a tenant. */
export class SecretGrants1796180000000 implements MigrationInterface {
  name = 'SecretGrants1796180000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "secret_grants" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "env_name" text NOT NULL, "origin" text NOT NULL, "granted_by" text NOT NULL, "granted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_by" text, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "secret_grants_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "secret_grants" ADD CONSTRAINT "secret_grants_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "secret_grants_live" ON "secret_grants" ("tenant", "env_name", "origin") WHERE "revoked_at" IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "secret_grants"`);
  }
}
