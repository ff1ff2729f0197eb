import { MigrationInterface, QueryRunner } from 'typeorm';
import type { ComputerUseConfig } from '../src/computer-use/settings/agent-config';
import { grantsOf, scriptBound } from '../src/computer-use/settings/script-grants';

/**
 * Script grants (docs/security.md "Weakening"): the weakening that lets an agent's writes act
 * without approval is bound to the content of the script its planner names.
 *
 * - `computer_use_configs.script_grants`: by agent, the SHA-256 of the script content the version
 *   grants. The version in force of each tenant is filled with the content its scripts have now
 *   (what the weakening was granted for, as far as anyone can tell); older versions keep `{}`.
 * - `steps.planner_sha256`: the content hash of the script that planned the step; null for the
 *   steps already there (an unapproved write of such a step, if one is still to be sent, is held).
 */
export class ScriptGrants1796515000000 implements MigrationInterface {
  name = 'ScriptGrants1796515000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "computer_use_configs" ADD "script_grants" jsonb NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(`ALTER TABLE "steps" ADD "planner_sha256" character(64)`);
    await grantScriptsInForce(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "planner_sha256"`);
    await queryRunner.query(`ALTER TABLE "computer_use_configs" DROP COLUMN "script_grants"`);
  }
}

/**
 * The data part of the migration (test/governance/script-grants.e2e-spec.ts runs it on a version written the
 * old way): each tenant's version in force grants the content its scripts hold now.
 */
export async function grantScriptsInForce(queryRunner: QueryRunner): Promise<void> {
  const heads = (await queryRunner.query(
    `SELECT DISTINCT ON (tenant) tenant, version, config FROM computer_use_configs
        ORDER BY tenant, version DESC`,
  )) as Array<{ tenant: string; version: number; config: ComputerUseConfig }>;
  for (const head of heads) {
    const uuids = scriptBound(head.config).map((b) => b.uuid);
    if (uuids.length === 0) continue;
    const rows = (await queryRunner.query(
      `SELECT id, script FROM scripted_planners
          WHERE tenant = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL`,
      [head.tenant, uuids],
    )) as Array<{ id: string; script: unknown }>;
    const grants = grantsOf(head.config, new Map(rows.map((r) => [r.id, r.script])));
    await queryRunner.query(
      `UPDATE computer_use_configs SET script_grants = $3 WHERE tenant = $1 AND version = $2`,
      [head.tenant, head.version, JSON.stringify(grants)],
    );
  }
}
