import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `steps.edit`: an edit held for a person under `approve_at: "every_write"` (the field it goes
 * into, its value before, whether typing replaces it), so that its approval shows before → after
 * and the next commit's approval lists what it stores. Null for the steps already there.
 */
export class StepEdit1796500000000 implements MigrationInterface {
  name = 'StepEdit1796500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "edit" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "edit"`);
  }
}
