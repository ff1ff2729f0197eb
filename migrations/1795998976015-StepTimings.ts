import { MigrationInterface, QueryRunner } from 'typeorm';

/** How long each job of a step took, split by where the time went. */

export class StepTimings1795998976015 implements MigrationInterface {
  name = 'StepTimings1795998976015';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "timings" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "timings"`);
  }
}
