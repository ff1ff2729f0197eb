import { MigrationInterface, QueryRunner } from 'typeorm';

/** Computer-use config versions and the agents' kill switches (src/computer-use/settings). */
export class Settings1795996018853 implements MigrationInterface {
  name = 'Settings1795996018853';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "computer_use_configs" ("tenant" text NOT NULL, "version" integer NOT NULL, "config" jsonb NOT NULL, "created_by" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "computer_use_configs_pkey" PRIMARY KEY ("tenant", "version"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "computer_use_kill_switches" ("tenant" text NOT NULL, "agent" text NOT NULL, "engaged" boolean NOT NULL, "reason" text, "updated_by" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "computer_use_kill_switches_pkey" PRIMARY KEY ("tenant", "agent"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "computer_use_configs" ADD CONSTRAINT "FK_a89589fadb4539360824fc82c71" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "computer_use_kill_switches" ADD CONSTRAINT "FK_45566155242c96f305acda51dbd" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "computer_use_kill_switches" DROP CONSTRAINT "FK_45566155242c96f305acda51dbd"`,
    );
    await queryRunner.query(
      `ALTER TABLE "computer_use_configs" DROP CONSTRAINT "FK_a89589fadb4539360824fc82c71"`,
    );
    await queryRunner.query(`DROP TABLE "computer_use_kill_switches"`);
    await queryRunner.query(`DROP TABLE "computer_use_configs"`);
  }
}
