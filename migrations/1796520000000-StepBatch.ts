import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `steps.batch`: for an action that came in a model's answer of several (a batch), that answer's
 * id and the action's place in it (`{turn, place}`), so that the run's film and its audit show which
 * actions one decision of the model held. Null for every other step, and for the steps already there.
 */
export class StepBatch1796520000000 implements MigrationInterface {
  name = 'StepBatch1796520000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "batch" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "batch"`);
  }
}
