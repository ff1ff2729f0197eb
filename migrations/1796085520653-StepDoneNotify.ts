import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A step that ends notifies `warden_step_done` with its id, so that a resume waiting for its
 * approved write is woken when it is done instead of polling the steps table.
 */
export class StepDoneNotify1796085520653 implements MigrationInterface {
  name = 'StepDoneNotify1796085520653';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION warden_notify_step_done() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM pg_notify('warden_step_done', NEW.id::text);
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER steps_notify_done AFTER UPDATE OF phase ON steps
         FOR EACH ROW WHEN (NEW.phase = 'done' AND OLD.phase IS DISTINCT FROM 'done')
         EXECUTE FUNCTION warden_notify_step_done()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER steps_notify_done ON steps`);
    await queryRunner.query(`DROP FUNCTION warden_notify_step_done()`);
  }
}
