import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deciding in Slack or Teams (docs/notifications.md):
 * - `approvals.decided_via`: where the decision was made (`console`, `api`, `slack`, `teams`); null
 *   for the decisions made before Warden recorded it.
 * - `chat_links`: a chat account (Slack team and user, or Teams tenant and AAD object id) linked
 *   by the person it belongs to, while signed in, to their subject at the identity provider.
 * - `chat_link_codes`: the one-time codes a verified chat request gets when its account is not
 *   linked yet (only their SHA-256).
 * - `chat_requests`: the requests already taken (the SHA-256 of Slack's signature or of a Teams
 *   activity's id), so a replay is refused.
 * - an index of sessions by person: a chat decision acts with the person's latest sign-in.
 */
export class ChatDecisions1796510000000 implements MigrationInterface {
  name = 'ChatDecisions1796510000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "approvals" ADD "decided_via" text`);
    await queryRunner.query(`
      CREATE TABLE "chat_links" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "tenant" text NOT NULL REFERENCES "tenants"("id") ON DELETE RESTRICT,
        "kind" text NOT NULL CHECK ("kind" IN ('slack', 'teams')),
        "chat_team" text NOT NULL,
        "chat_user" text NOT NULL,
        "chat_name" text,
        "subject" text NOT NULL,
        "issuer" text NOT NULL,
        "linked_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "chat_links_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "chat_links_account_key" UNIQUE ("tenant", "kind", "chat_team", "chat_user")
      )`);
    await queryRunner.query(
      `CREATE INDEX "chat_links_person_idx" ON "chat_links" ("tenant", "subject")`,
    );
    await queryRunner.query(`
      CREATE TABLE "chat_link_codes" (
        "code_sha256" char(64) NOT NULL,
        "tenant" text NOT NULL REFERENCES "tenants"("id") ON DELETE RESTRICT,
        "kind" text NOT NULL CHECK ("kind" IN ('slack', 'teams')),
        "chat_team" text NOT NULL,
        "chat_user" text NOT NULL,
        "chat_name" text,
        "expires_at" timestamptz NOT NULL,
        "used_at" timestamptz,
        CONSTRAINT "chat_link_codes_pkey" PRIMARY KEY ("code_sha256")
      )`);
    await queryRunner.query(`
      CREATE TABLE "chat_requests" (
        "digest" char(64) NOT NULL,
        "seen_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "chat_requests_pkey" PRIMARY KEY ("digest")
      )`);
    await queryRunner.query(`CREATE INDEX "chat_requests_seen_idx" ON "chat_requests" ("seen_at")`);
    await queryRunner.query(
      `CREATE INDEX "sessions_person_idx" ON "sessions" ("tenant", "subject", "created_at")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "sessions_person_idx"`);
    await queryRunner.query(`DROP TABLE "chat_requests"`);
    await queryRunner.query(`DROP TABLE "chat_link_codes"`);
    await queryRunner.query(`DROP TABLE "chat_links"`);
    await queryRunner.query(`ALTER TABLE "approvals" DROP COLUMN "decided_via"`);
  }
}
