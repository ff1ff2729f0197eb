import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A write's receipt: what the application said after it was sent (its status bar with the
 * message type, a message dialog), or why nothing was read; until then, the message on the screen
 * the step was decided on. Steps recorded before have none (null).
 */
export class WriteReceipts1796450000000 implements MigrationInterface {
  name = 'WriteReceipts1796450000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "receipt" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "receipt"`);
  }
}
