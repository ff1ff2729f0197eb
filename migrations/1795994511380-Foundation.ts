import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants, API tokens (hashed) and the append-only, hash-chained audit log. */

export class Foundation1795994511380 implements MigrationInterface {
  name = 'Foundation1795994511380';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tenants" ("id" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_53be67a04681c66b87ee27c9321" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "audit_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "seq" bigint NOT NULL, "type" text NOT NULL, "actor" text NOT NULL, "run_id" uuid, "step" integer, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "details" jsonb NOT NULL, "prev_sha256" character(64) NOT NULL, "sha256" character(64) NOT NULL, CONSTRAINT "PK_910f64d901a5c3e9878f0d4a407" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "audit_events_tenant_run_idx" ON "audit_events"  ("tenant", "run_id", "seq") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "audit_events_tenant_seq_key" ON "audit_events"  ("tenant", "seq") `,
    );
    await queryRunner.query(
      `CREATE TABLE "api_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "subject" text NOT NULL, "permissions" text array NOT NULL, "token_sha256" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_c587455266b5fa8dace7194caac" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "api_tokens_token_sha256_key" ON "api_tokens"  ("token_sha256") `,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "FK_a30e8e095fa016c075e5df2e13a" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_tokens" ADD CONSTRAINT "FK_2178fda67d4de6092fceffb0117" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "audit_events_no_truncate" ON "audit_events"`);
    await queryRunner.query(`DROP TRIGGER "audit_events_append_only" ON "audit_events"`);
    await queryRunner.query(`DROP FUNCTION "audit_events_refuse_change"()`);
    await queryRunner.query(
      `ALTER TABLE "api_tokens" DROP CONSTRAINT "FK_2178fda67d4de6092fceffb0117"`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_events" DROP CONSTRAINT "FK_a30e8e095fa016c075e5df2e13a"`,
    );
    await queryRunner.query(`DROP INDEX "public"."api_tokens_token_sha256_key"`);
    await queryRunner.query(`DROP TABLE "api_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_seq_key"`);
    await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_run_idx"`);
    await queryRunner.query(`DROP TABLE "audit_events"`);
    await queryRunner.query(`DROP TABLE "tenants"`);
  }
}
