import { MigrationInterface, QueryRunner } from 'typeorm';
import { eventSha256, GENESIS_SHA256 } from '../src/audit/audit.service';
import type { ComputerUseConfig } from '../src/computer-use/settings/agent-config';
import { diffConfigs } from '../src/computer-use/settings/config-diff';
import { typeApprovers } from '../src/computer-use/settings/config-notice';

/** Who the audit log and the config version name for what this migration wrote. */
const ACTOR = 'system:migration';

/**
 * Approvers typed (docs/security.md, approver groups): an entry of `approvers` and `escalate_to` is now
 * `group:NAME` or `subject:NAME`, and a person's subject counts only from the identity provider
 * the deployment trusts, so sessions record the issuer that signed the person in.
 *
 * - `sessions.issuer`: '' for the sessions already there (unknown: they decide no write whose
 *   agent names approvers until the person signs in again).
 * - Each tenant whose config in force lists approvers gets a new version (history stays as it
 *   was), by `system:migration`, with every entry rewritten as it was matched before: an untyped
 *   name matched a group, a token subject and a person subject alike, so it becomes both
 *   `group:NAME` and `subject:NAME`, and nobody gains or loses approval power. The version carries
 *   a notice that says so (`notices`, answered by GET /api/admin/computer-use while it is in
 *   force), and is audited `computer_use.config` with its diff and the notice, in the tenant's
 *   hash chain, as every version is.
 * - Held writes' `deciders` and `escalate_to` are rewritten the same way.
 */
export class ApproversTyped1796440000000 implements MigrationInterface {
  name = 'ApproversTyped1796440000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD "issuer" text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "sessions" ALTER COLUMN "issuer" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "computer_use_configs" ADD "notices" jsonb NOT NULL DEFAULT '[]'`,
    );
    await typeStoredApprovers(queryRunner);
  }

  /**
   * The columns go; the typed entries stay (the versions and events written are history, and an
   * older Warden reads `group:x` as a name nobody answers to: nobody may decide, never anyone).
   */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "computer_use_configs" DROP COLUMN "notices"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "issuer"`);
  }
}

/**
 * The data part of the migration (test/approvals/approvers-typed.e2e-spec.ts runs it on rows written the
 * old way): every held write's deciders and escalation, and each tenant's config in force.
 */
export async function typeStoredApprovers(queryRunner: QueryRunner): Promise<void> {
  for (const column of ['deciders', 'escalate_to']) {
    await queryRunner.query(
      `UPDATE approvals SET "${column}" = ARRAY(
           SELECT t.prefix || u.name
             FROM unnest("${column}") WITH ORDINALITY AS u(name, i),
                  unnest(ARRAY['group:', 'subject:']) WITH ORDINALITY AS t(prefix, k)
            ORDER BY u.i, t.k)
          WHERE "${column}" IS NOT NULL`,
    );
  }
  const tenants: Array<{ tenant: string }> = await queryRunner.manager.query(
    `SELECT DISTINCT tenant FROM computer_use_configs ORDER BY tenant`,
  );
  for (const { tenant } of tenants) await typeTenant(queryRunner, tenant);
}

/** The tenant's new version, under the locks the app takes for a config change and an event. */
async function typeTenant(queryRunner: QueryRunner, tenant: string): Promise<void> {
  await queryRunner.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('computer_use_config:' || $1, 0))`,
    [tenant],
  );
  const [head]: Array<{ version: number; config: ComputerUseConfig }> =
    await queryRunner.manager.query(
      `SELECT version, config FROM computer_use_configs WHERE tenant = $1
        ORDER BY version DESC LIMIT 1`,
      [tenant],
    );
  const typed = typeApprovers(head.config);
  if (!typed) return;
  const version = head.version + 1;
  const at = new Date();
  await queryRunner.query(
    `INSERT INTO computer_use_configs (tenant, version, config, created_by, created_at, notices)
       VALUES ($1, $2, $3, $4, $5, $6)`,
    [tenant, version, typed.config, ACTOR, at, JSON.stringify([typed.notice])],
  );

  await queryRunner.query(`SELECT pg_advisory_xact_lock(hashtextextended('audit:' || $1, 0))`, [
    tenant,
  ]);
  const [last]: Array<{ seq: string; sha256: string }> = await queryRunner.manager.query(
    `SELECT seq, sha256 FROM audit_events WHERE tenant = $1 ORDER BY seq DESC LIMIT 1`,
    [tenant],
  );
  const event = {
    tenant,
    seq: Number(last?.seq ?? 0) + 1,
    type: 'computer_use.config',
    actor: ACTOR,
    runId: null,
    step: null,
    at,
    // Hashed as jsonb gives it back: plain JSON.
    details: JSON.parse(
      JSON.stringify({
        version,
        previous_version: head.version,
        token_id: null,
        ...diffConfigs(head.config, typed.config),
        notices: [typed.notice],
      }),
    ) as Record<string, unknown>,
    prevSha256: last?.sha256 ?? GENESIS_SHA256,
  };
  await queryRunner.query(
    `INSERT INTO audit_events (tenant, seq, type, actor, run_id, step, at, details, prev_sha256, sha256)
       VALUES ($1, $2, $3, $4, NULL, NULL, $5, $6, $7, $8)`,
    [
      tenant,
      event.seq,
      event.type,
      event.actor,
      at,
      event.details,
      event.prevSha256,
      eventSha256(event),
    ],
  );
}
