import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a held write's volatile mask is still being learnt (`learning`), was learnt (`learnt`),
 * or was given up and the screen is compared whole (`abandoned`). An approved write is sent only
 * once the state is no longer `learning` (docs/security.md). Approvals held before this change had
 * their mask learnt before they were created.
 */
export class ApprovalMaskState1796547000000 implements MigrationInterface {
  name = 'ApprovalMaskState1796547000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "approvals" ADD "mask_state" text NOT NULL DEFAULT 'learnt'
         CONSTRAINT "CHK_approvals_mask_state" CHECK ("mask_state" IN ('learning', 'learnt', 'abandoned'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "approvals" DROP COLUMN "mask_state"`);
  }
}
