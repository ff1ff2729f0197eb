import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Redaction (issue 17 §2): with the PNG Warden keeps redacted, a step also keeps the host's hash
 * of the real frame (what the host compares when a held action is sent) and the SHA-256 of the
 * real pixels under the agent's `redact_regions` (what Warden's own comparison checks there).
 */
export class ScreenRedaction1796395000000 implements MigrationInterface {
  name = 'ScreenRedaction1796395000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "steps" ADD "frame_sha256" character(64), ADD "hidden_sha256" character(64)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "steps" DROP COLUMN "hidden_sha256", DROP COLUMN "frame_sha256"`,
    );
  }
}
