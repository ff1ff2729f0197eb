import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Screens at rest under AES-256-GCM (issue 17 §2): the id of the key a screen's bytes are encrypted
 * under and its nonce; both null for a screen stored in plaintext (before, or without keys).
 */
export class ScreenEncryption1796390000000 implements MigrationInterface {
  name = 'ScreenEncryption1796390000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "screens" ADD "key_id" text, ADD "nonce" bytea`);
    await queryRunner.query(
      `ALTER TABLE "screens" ADD CONSTRAINT "screens_key_nonce_check" CHECK (("key_id" IS NULL) = ("nonce" IS NULL))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const [{ encrypted }] = (await queryRunner.query(
      `SELECT count(*)::int AS encrypted FROM "screens" WHERE "key_id" IS NOT NULL`,
    )) as Array<{ encrypted: number }>;
    if (encrypted > 0) {
      throw new Error(
        `${encrypted} screens are encrypted: without key_id and nonce their bytes could never be read again; not reverted`,
      );
    }
    await queryRunner.query(`ALTER TABLE "screens" DROP CONSTRAINT "screens_key_nonce_check"`);
    await queryRunner.query(`ALTER TABLE "screens" DROP COLUMN "nonce", DROP COLUMN "key_id"`);
  }
}
