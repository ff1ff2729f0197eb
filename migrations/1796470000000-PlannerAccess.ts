import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The planner catalog's access (docs/planners.md "Planners as a catalog"), set by the deployment operator:
 * allows and denies of a planner id or family to a tenant or one of its subjects, tags of a subject
 * and programs of a tenant, each with who set it, when and a note.
 */
export class PlannerAccess1796470000000 implements MigrationInterface {
  name = 'PlannerAccess1796470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "planner_access" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "kind" text NOT NULL, "tenant" text NOT NULL, "subject" text, "planner" text, "name" text, "note" text, "set_by" text NOT NULL, "set_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "planner_access_pkey" PRIMARY KEY ("id"), CONSTRAINT "planner_access_shape" CHECK (("kind" IN ('allow', 'deny') AND "planner" IS NOT NULL AND "name" IS NULL) OR ("kind" = 'tag' AND "subject" IS NOT NULL AND "name" IS NOT NULL AND "planner" IS NULL) OR ("kind" = 'program' AND "subject" IS NULL AND "name" IS NOT NULL AND "planner" IS NULL)))`,
    );
    await queryRunner.query(
      `ALTER TABLE "planner_access" ADD CONSTRAINT "planner_access_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "planner_access_one" ON "planner_access" ("kind", "tenant", COALESCE("subject", ''), COALESCE("planner", ''), COALESCE("name", ''))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "planner_access"`);
  }
}
