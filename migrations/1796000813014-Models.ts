import { MigrationInterface, QueryRunner } from 'typeorm';

/** The governed model call: a transcript row per model call, and each agent's usage per UTC day. */

export class Models1796000813014 implements MigrationInterface {
  name = 'Models1796000813014';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "model_calls" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "run_id" uuid NOT NULL, "agent" text NOT NULL, "n" integer NOT NULL, "seq" integer NOT NULL, "provider" text NOT NULL, "model" text NOT NULL, "request" jsonb NOT NULL, "answer" jsonb, "error" jsonb, "attempts" jsonb NOT NULL, "input_tokens" integer, "output_tokens" integer, "cost_usd" double precision, "latency_ms" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e2538384974b0960151a53380c1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "model_calls_run_step_seq_key" ON "model_calls"  ("run_id", "n", "seq") `,
    );
    await queryRunner.query(
      `CREATE TABLE "model_usage_days" ("tenant" text NOT NULL, "agent" text NOT NULL, "day" date NOT NULL, "input_tokens" bigint NOT NULL DEFAULT '0', "output_tokens" bigint NOT NULL DEFAULT '0', "cost_usd" double precision NOT NULL DEFAULT '0', "calls" integer NOT NULL DEFAULT '0', "unknown_usage_calls" integer NOT NULL DEFAULT '0', "unknown_cost_calls" integer NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_33a41b88a82f7c4c753b15e4176" PRIMARY KEY ("tenant", "agent", "day"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "model_calls" ADD CONSTRAINT "FK_9bd23ca7c90399f54c24d38c2ee" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "model_calls" ADD CONSTRAINT "FK_a2b2f1aad044d1944ed3ee506a4" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "model_usage_days" ADD CONSTRAINT "FK_98381aa20e3cd211c00d0b6b146" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "model_usage_days" DROP CONSTRAINT "FK_98381aa20e3cd211c00d0b6b146"`,
    );
    await queryRunner.query(
      `ALTER TABLE "model_calls" DROP CONSTRAINT "FK_a2b2f1aad044d1944ed3ee506a4"`,
    );
    await queryRunner.query(
      `ALTER TABLE "model_calls" DROP CONSTRAINT "FK_9bd23ca7c90399f54c24d38c2ee"`,
    );
    await queryRunner.query(`DROP TABLE "model_usage_days"`);
    await queryRunner.query(`DROP INDEX "public"."model_calls_run_step_seq_key"`);
    await queryRunner.query(`DROP TABLE "model_calls"`);
  }
}
