import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The steps being sent, for the reconciler: a run that ended (a cancel) while its step was
 * sending still has that step's outcome found out and recorded if its worker died. A partial
 * index: it holds only the few steps in `sending` at any moment.
 */
export class SendingSteps1796410000000 implements MigrationInterface {
  name = 'SendingSteps1796410000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "steps_sending" ON "steps" ("run_id", "n") WHERE phase = 'sending'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "steps_sending"`);
  }
}
