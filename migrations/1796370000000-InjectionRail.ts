import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The injection rail (issue 16 §2): its verdict on a model step's screen, and on the approval of an
 * action it held (the rule and the SHA-256 of the flagged text, never the text).
 */
export class InjectionRail1796370000000 implements MigrationInterface {
  name = 'InjectionRail1796370000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "rail" jsonb`);
    await queryRunner.query(`ALTER TABLE "approvals" ADD "rail" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "approvals" DROP COLUMN "rail"`);
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "rail"`);
  }
}
