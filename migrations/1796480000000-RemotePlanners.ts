import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Remote planners (docs/planners.md "Remote planners"): the families the deployment operator registered,
 * the steps waiting for a worker's decision (tenant-scoped), the workers' heartbeats, and the
 * families an API token holding `planners.serve` may serve.
 */
export class RemotePlanners1796480000000 implements MigrationInterface {
  name = 'RemotePlanners1796480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "remote_planners" ("family" text NOT NULL, "version" text NOT NULL, "effort" text NOT NULL, "deadline_seconds" integer NOT NULL, "pixels" boolean NOT NULL, "tags" text array NOT NULL DEFAULT '{}', "programs" text array NOT NULL DEFAULT '{}', "note" text, "set_by" text NOT NULL, "set_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "remote_planners_pkey" PRIMARY KEY ("family"), CONSTRAINT "remote_planners_deadline" CHECK ("deadline_seconds" BETWEEN 1 AND 3600))`,
    );
    await queryRunner.query(
      `CREATE TABLE "planner_work" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "family" text NOT NULL, "planner" text NOT NULL, "run_id" uuid NOT NULL, "step" integer NOT NULL, "status" text NOT NULL, "input" jsonb NOT NULL, "screen" jsonb NOT NULL, "worker" text, "claimed_by_token" uuid, "claimed_at" TIMESTAMP WITH TIME ZONE, "decision" jsonb, "error_kind" text, "error_length" integer, "answered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deadline_at" TIMESTAMP WITH TIME ZONE NOT NULL, "next_check_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "planner_work_pkey" PRIMARY KEY ("id"), CONSTRAINT "planner_work_status" CHECK ("status" IN ('waiting', 'claimed', 'answered', 'failed', 'timed_out', 'offline', 'spent')))`,
    );
    await queryRunner.query(
      `ALTER TABLE "planner_work" ADD CONSTRAINT "planner_work_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "planner_work" ADD CONSTRAINT "planner_work_run_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "planner_work_one_per_step" ON "planner_work" ("run_id", "step")`,
    );
    await queryRunner.query(
      `CREATE INDEX "planner_work_open" ON "planner_work" ("tenant", "family", "created_at") WHERE "status" IN ('waiting', 'claimed')`,
    );
    await queryRunner.query(
      `CREATE TABLE "planner_workers" ("tenant" text NOT NULL, "family" text NOT NULL, "worker" text NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "planner_workers_pkey" PRIMARY KEY ("tenant", "family", "worker"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_tokens" ADD "planner_families" text array NOT NULL DEFAULT '{}'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_tokens" DROP COLUMN "planner_families"`);
    await queryRunner.query(`DROP TABLE "planner_workers"`);
    await queryRunner.query(`DROP TABLE "planner_work"`);
    await queryRunner.query(`DROP TABLE "remote_planners"`);
  }
}
