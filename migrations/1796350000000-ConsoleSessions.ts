import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in through the identity provider (docs/security.md): console sessions (only the SHA-256 of the
 * cookie's id is stored), sign-ins under way (state, nonce and PKCE verifier kept server-side),
 * and each tenant's mapping of the provider's groups to permissions.
 */
export class ConsoleSessions1796350000000 implements MigrationInterface {
  name = 'ConsoleSessions1796350000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "sessions" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "tenant" text NOT NULL REFERENCES "tenants"("id") ON DELETE RESTRICT,
        "subject" text NOT NULL,
        "name" text,
        "email" text,
        "groups" text[] NOT NULL,
        "id_sha256" char(64) NOT NULL,
        "csrf_token" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_seen_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        "revoked_at" timestamptz,
        CONSTRAINT "sessions_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "sessions_id_sha256_key" UNIQUE ("id_sha256")
      )`);
    await queryRunner.query(`
      CREATE TABLE "oidc_logins" (
        "flow_sha256" char(64) NOT NULL,
        "state" text NOT NULL,
        "nonce" text NOT NULL,
        "code_verifier" text NOT NULL,
        "return_to" text NOT NULL,
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "oidc_logins_pkey" PRIMARY KEY ("flow_sha256")
      )`);
    await queryRunner.query(`
      CREATE TABLE "access_groups" (
        "tenant" text NOT NULL REFERENCES "tenants"("id") ON DELETE RESTRICT,
        "group_name" text NOT NULL,
        "permissions" text[] NOT NULL,
        CONSTRAINT "access_groups_pkey" PRIMARY KEY ("tenant", "group_name")
      )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "access_groups"`);
    await queryRunner.query(`DROP TABLE "oidc_logins"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
  }
}
