import { MigrationInterface, QueryRunner } from 'typeorm';

/** Scripted planners (docs/models.md): per tenant, soft-deleted, the checked script as jsonb. */

export class ScriptedPlanners1795996106374 implements MigrationInterface {
  name = 'ScriptedPlanners1795996106374';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scripted_planners" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "name" text NOT NULL, "script" jsonb NOT NULL, "created_by" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_53b1a5037cb6f03e87b861a263c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scripted_planners_tenant_created_idx" ON "scripted_planners"  ("tenant", "created_at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "scripted_planners" ADD CONSTRAINT "FK_da7693007162aee729f83516ae7" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "scripted_planners" DROP CONSTRAINT "FK_da7693007162aee729f83516ae7"`,
    );
    await queryRunner.query(`DROP INDEX "public"."scripted_planners_tenant_created_idx"`);
    await queryRunner.query(`DROP TABLE "scripted_planners"`);
  }
}
