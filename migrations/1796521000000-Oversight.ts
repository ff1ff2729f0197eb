import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Oversight (docs/approver-guide.md): whether approvers look before they decide.
 * - `approval_views`: each opening of an approval's page in the console (reported once per open,
 *   by the person, signed in), and when its change list first came into view.
 * - `decision_records`: one row per decision, written with it: who, where (console, API, Slack,
 *   Teams), approve or reject, when, the page view it was made from (and so how long after the
 *   page opened), whether the write had a change list and whether it was in view before.
 */
export class Oversight1796521000000 implements MigrationInterface {
  name = 'Oversight1796521000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "approval_views" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "tenant" text NOT NULL REFERENCES "tenants"("id") ON DELETE RESTRICT,
        "approval_id" uuid NOT NULL,
        "viewer" text NOT NULL,
        "opened_at" timestamptz NOT NULL DEFAULT now(),
        "changes_seen_at" timestamptz,
        CONSTRAINT "approval_views_pkey" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "approval_views_approval_idx" ON "approval_views" ("approval_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "decision_records" (
        "approval_id" uuid NOT NULL,
        "tenant" text NOT NULL REFERENCES "tenants"("id") ON DELETE RESTRICT,
        "agent" text NOT NULL,
        "decider" text NOT NULL,
        "via" text NOT NULL,
        "decision" text NOT NULL CHECK ("decision" IN ('approved', 'rejected')),
        "decided_at" timestamptz NOT NULL,
        "view_id" uuid,
        "opened_at" timestamptz,
        "changes_listed" boolean NOT NULL,
        "changes_seen" boolean,
        CONSTRAINT "decision_records_pkey" PRIMARY KEY ("approval_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "decision_records_tenant_idx" ON "decision_records" ("tenant", "decided_at")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "decision_records"`);
    await queryRunner.query(`DROP TABLE "approval_views"`);
  }
}
