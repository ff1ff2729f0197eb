import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `approvals.redaction`: the agent's `redact_regions` as a write was held (the share of the screen
 * the approver sees black, and whether the write or its changes lie there). Null for the approvals
 * already there, as for an agent that redacts nothing.
 */
export class ApprovalRedaction1796510500000 implements MigrationInterface {
  name = 'ApprovalRedaction1796510500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "approvals" ADD "redaction" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "approvals" DROP COLUMN "redaction"`);
  }
}
