import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tenant's pause: one switch for every agent of the tenant (docs/step-flow.md). */
export class TenantPause1796088325955 implements MigrationInterface {
  name = 'TenantPause1796088325955';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "computer_use_pauses" ("tenant" text NOT NULL, "paused" boolean NOT NULL, "reason" text, "updated_by" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "computer_use_pauses_pkey" PRIMARY KEY ("tenant"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "computer_use_pauses" ADD CONSTRAINT "computer_use_pauses_tenant_fkey" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "computer_use_pauses"`);
  }
}
