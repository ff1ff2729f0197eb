import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Approver groups, reminders and escalation (docs/security.md): who may decide an approval now (null:
 * anyone with agents.approve), whom it escalates to, when its reminder and escalation are due,
 * and when they happened.
 */
export class ApproverGroups1796271500000 implements MigrationInterface {
  name = 'ApproverGroups1796271500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "approvals" ADD "deciders" text[]`);
    await queryRunner.query(`ALTER TABLE "approvals" ADD "escalate_to" text[]`);
    await queryRunner.query(`ALTER TABLE "approvals" ADD "remind_at" timestamptz`);
    await queryRunner.query(`ALTER TABLE "approvals" ADD "escalate_at" timestamptz`);
    await queryRunner.query(`ALTER TABLE "approvals" ADD "reminded_at" timestamptz`);
    await queryRunner.query(`ALTER TABLE "approvals" ADD "escalated_at" timestamptz`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of [
      'escalated_at',
      'reminded_at',
      'escalate_at',
      'remind_at',
      'escalate_to',
      'deciders',
    ]) {
      await queryRunner.query(`ALTER TABLE "approvals" DROP COLUMN "${column}"`);
    }
  }
}
