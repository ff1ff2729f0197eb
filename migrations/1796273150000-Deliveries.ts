import { MigrationInterface, QueryRunner } from 'typeorm';

/** Notification deliveries (docs/security.md): one row per message and channel, with its tries. */
export class Deliveries1796273150000 implements MigrationInterface {
  name = 'Deliveries1796273150000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant" text NOT NULL, "agent" text NOT NULL, "run_id" uuid, "approval_id" uuid, "event" text NOT NULL, "channel_kind" text NOT NULL, "channel" jsonb NOT NULL, "message" jsonb NOT NULL, "status" text NOT NULL, "attempts" integer NOT NULL DEFAULT 0, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "deliveries_tenant_created_idx" ON "deliveries" ("tenant", "created_at", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "deliveries"`);
  }
}
