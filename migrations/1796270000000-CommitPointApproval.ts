import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commit-point approval (docs/security.md): a step's staged edit (the field, its value before, the text
 * typed) and a held commit's change list; and what made a step's action a read although the
 * default rules make it a write (the send checks it is still in force).
 */
export class CommitPointApproval1796270000000 implements MigrationInterface {
  name = 'CommitPointApproval1796270000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "staged" jsonb`);
    await queryRunner.query(`ALTER TABLE "approvals" ADD "changes" jsonb`);
    await queryRunner.query(`ALTER TABLE "steps" ADD "loosened_by" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "loosened_by"`);
    await queryRunner.query(`ALTER TABLE "approvals" DROP COLUMN "changes"`);
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "staged"`);
  }
}
