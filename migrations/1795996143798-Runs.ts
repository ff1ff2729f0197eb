import { MigrationInterface, QueryRunner } from 'typeorm';

/** Runs and their steps, and approvals (waiting actions). */

export class Runs1795996143798 implements MigrationInterface {
  name = 'Runs1795996143798';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "approvals" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "kind" text NOT NULL, "status" text NOT NULL, "agent" text NOT NULL, "run_id" uuid NOT NULL, "step" integer NOT NULL, "step_id" uuid NOT NULL, "action" jsonb NOT NULL, "why" text NOT NULL, "screen_sha256" character(64) NOT NULL, "screen_pixel_sha256" character(64) NOT NULL, "volatile_mask" bytea, "volatile_pixels" integer NOT NULL DEFAULT '0', "requested_by" text NOT NULL, "requested_by_token" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "decided_by" text, "decided_at" TIMESTAMP WITH TIME ZONE, "comment" text, "spent_by" text, "spent_at" TIMESTAMP WITH TIME ZONE, "safety_checks" jsonb, CONSTRAINT "PK_690417aaefa84d18b1a59e2a499" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "approvals_step_key" ON "approvals"  ("step_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "approvals_tenant_status_idx" ON "approvals"  ("tenant", "status", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "runs" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "agent" text NOT NULL, "goal" text NOT NULL, "status" text NOT NULL, "end_reason" text, "summary" text, "created_by" text NOT NULL, "created_by_token" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "ended_at" TIMESTAMP WITH TIME ZONE, "active_seconds" double precision NOT NULL DEFAULT '0', "active_since" TIMESTAMP WITH TIME ZONE, "config_version" integer NOT NULL, "agent_config" jsonb NOT NULL, "lease_key" text NOT NULL, "max_steps" integer NOT NULL, "max_seconds" integer NOT NULL, "step_count" integer NOT NULL DEFAULT '0', "invalid_actions" integer NOT NULL DEFAULT '0', "unchanged_streak" integer NOT NULL DEFAULT '0', "planner_state" jsonb, "pending_approval" uuid, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_46d6a1e257c38ba58f1a3c30836" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "runs_queued_idx" ON "runs"  ("lease_key", "created_at") WHERE "status" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "runs_one_per_screen_host" ON "runs"  ("lease_key") WHERE "status" IN ('running', 'awaiting_approval')`,
    );
    await queryRunner.query(
      `CREATE INDEX "runs_tenant_created_idx" ON "runs"  ("tenant", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "steps" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "run_id" uuid NOT NULL, "tenant" text NOT NULL, "n" integer NOT NULL, "phase" text NOT NULL, "screen_sha256" character(64), "screen_pixel_sha256" character(64), "width" integer, "height" integer, "action" jsonb, "classification" text, "why" text, "outcome" text, "error" text, "model" jsonb, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP WITH TIME ZONE, "lease_owner" text, "lease_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_65f86ac8996204d11f915f66a5b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "steps_run_n_key" ON "steps"  ("run_id", "n") `);
    await queryRunner.query(
      `ALTER TABLE "approvals" ADD CONSTRAINT "FK_5594d3b5889eecc8beeee815065" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "runs" ADD CONSTRAINT "FK_23323bbeae8c53e5fa141d9b235" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "steps" ADD CONSTRAINT "FK_96f5f2c0a8aaade96bafe0a97dc" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP CONSTRAINT "FK_96f5f2c0a8aaade96bafe0a97dc"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP CONSTRAINT "FK_23323bbeae8c53e5fa141d9b235"`);
    await queryRunner.query(
      `ALTER TABLE "approvals" DROP CONSTRAINT "FK_5594d3b5889eecc8beeee815065"`,
    );
    await queryRunner.query(`DROP INDEX "public"."steps_run_n_key"`);
    await queryRunner.query(`DROP TABLE "steps"`);
    await queryRunner.query(`DROP INDEX "public"."runs_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."runs_one_per_screen_host"`);
    await queryRunner.query(`DROP INDEX "public"."runs_queued_idx"`);
    await queryRunner.query(`DROP TABLE "runs"`);
    await queryRunner.query(`DROP INDEX "public"."approvals_tenant_status_idx"`);
    await queryRunner.query(`DROP INDEX "public"."approvals_step_key"`);
    await queryRunner.query(`DROP TABLE "approvals"`);
  }
}
