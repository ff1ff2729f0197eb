import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Seeded test approvals (docs/approver-guide.md, oversight): a known-bad change an admin puts in
 * approvers' inboxes, where rejecting it is the right answer, to see who looks. A table of its own,
 * apart from `approvals`: it has no run and no step, and every path that sends anything starts from
 * a run's held step and its row in `approvals`, so nothing can ever send it.
 * `decision_records.test` marks a decision on one, which the totals and the flag leave out.
 */
export class TestApprovals1796530000000 implements MigrationInterface {
  name = 'TestApprovals1796530000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "test_approvals" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "tenant" text NOT NULL REFERENCES "tenants"("id") ON DELETE RESTRICT,
        "agent" text NOT NULL,
        "system" text,
        "goal" text NOT NULL,
        "action" jsonb NOT NULL,
        "why" text NOT NULL,
        "changes" jsonb,
        "deciders" text[],
        "status" text NOT NULL DEFAULT 'pending'
          CHECK ("status" IN ('pending', 'approved', 'rejected')),
        "seeded_by" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        "decided_by" text,
        "decided_at" timestamptz,
        "decided_via" text,
        "comment" text,
        CONSTRAINT "test_approvals_pkey" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "test_approvals_tenant_status_idx" ON "test_approvals" ("tenant", "status", "created_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "decision_records" ADD "test" boolean NOT NULL DEFAULT false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "decision_records" DROP COLUMN "test"`);
    await queryRunner.query(`DROP TABLE "test_approvals"`);
  }
}
