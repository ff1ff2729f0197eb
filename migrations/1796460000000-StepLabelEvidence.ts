import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `steps.label_evidence`: how a step's label was read (the outline's element, OCR's words with
 * their confidences, or why nothing could be read, and the planner's target). Null for the steps
 * already there: nothing was kept then.
 */
export class StepLabelEvidence1796460000000 implements MigrationInterface {
  name = 'StepLabelEvidence1796460000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "label_evidence" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "label_evidence"`);
  }
}
