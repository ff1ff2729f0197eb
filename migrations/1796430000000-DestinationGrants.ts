import { MigrationInterface, QueryRunner } from 'typeorm';

/** Destination grants (docs/security.md "Destinations"): which origins Warden may connect to for a tenant. */
export class DestinationGrants1796430000000 implements MigrationInterface {
  name = 'DestinationGrants1796430000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "destination_grants" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "origin" text NOT NULL, "note" text, "granted_by" text NOT NULL, "granted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_by" text, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "destination_grants_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "destination_grants" ADD CONSTRAINT "destination_grants_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "destination_grants_live" ON "destination_grants" ("tenant", "origin") WHERE "revoked_at" IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "destination_grants"`);
  }
}
