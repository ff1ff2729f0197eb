import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Screen retention (issue 17 §2): each tenant's retention in days, a legal hold per run, and a
 * screen's PNG bytes dropped (the row stays, with `purged_at`) once it has not been used for that
 * long. `last_used_at` is when a step last stored or saw the screen; existing rows take the newest
 * of their own `created_at` and the start of the newest step that references them.
 */
export class ScreenRetention1796380000000 implements MigrationInterface {
  name = 'ScreenRetention1796380000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "screen_retention" ("tenant" text NOT NULL, "retention_days" integer NOT NULL, "updated_by" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "screen_retention_pkey" PRIMARY KEY ("tenant"), CONSTRAINT "screen_retention_days_check" CHECK ("retention_days" BETWEEN 180 AND 3650))`,
    );
    await queryRunner.query(
      `ALTER TABLE "screen_retention" ADD CONSTRAINT "screen_retention_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "runs" ADD "legal_hold" boolean NOT NULL DEFAULT false, ADD "legal_hold_reason" text, ADD "legal_hold_by" text, ADD "legal_hold_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "screens" ALTER COLUMN "png" DROP NOT NULL, ADD "purged_at" TIMESTAMP WITH TIME ZONE, ADD "last_used_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`,
    );
    await queryRunner.query(
      `CREATE INDEX "steps_tenant_screen_idx" ON "steps" ("tenant", "screen_sha256") WHERE "screen_sha256" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "approvals_tenant_screen_idx" ON "approvals" ("tenant", "screen_sha256")`,
    );
    await queryRunner.query(
      `UPDATE "screens" s SET "last_used_at" = GREATEST(s."created_at", COALESCE((SELECT max(st."started_at") FROM "steps" st WHERE st."tenant" = s."tenant" AND st."screen_sha256" = s."sha256"), s."created_at"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "screens_live_last_used_idx" ON "screens" ("last_used_at") WHERE "purged_at" IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."screens_live_last_used_idx"`);
    await queryRunner.query(`DROP INDEX "public"."approvals_tenant_screen_idx"`);
    await queryRunner.query(`DROP INDEX "public"."steps_tenant_screen_idx"`);
    await queryRunner.query(`DELETE FROM "screens" WHERE "png" IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "screens" DROP COLUMN "last_used_at", DROP COLUMN "purged_at", ALTER COLUMN "png" SET NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "runs" DROP COLUMN "legal_hold_at", DROP COLUMN "legal_hold_by", DROP COLUMN "legal_hold_reason", DROP COLUMN "legal_hold"`,
    );
    await queryRunner.query(`DROP TABLE "screen_retention"`);
  }
}
