import { MigrationInterface, QueryRunner } from 'typeorm';

/** How many times jobs failed on a step: past a bound the run ends instead of being retried forever. */
export class StepFailures1796089815632 implements MigrationInterface {
  name = 'StepFailures1796089815632';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "failures" integer NOT NULL DEFAULT 0`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "failures"`);
  }
}
