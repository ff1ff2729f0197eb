import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Routine runs (a completed run saved as a script, replayed with parameters, a model to fall back
 * on): `steps.screen_title`, the title of the screen a step decided on, which a saved script waits
 * for; `steps.planned_by`, which planner answered a scripted run's step (`script` or `fallback`);
 * `runs.params`, the parameters a run of a script was started with; and
 * `scripted_planners.source_run_id`, the run a script was saved from. Null for what is there.
 */
export class RoutineRuns1796490000000 implements MigrationInterface {
  name = 'RoutineRuns1796490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "steps" ADD "screen_title" text`);
    await queryRunner.query(`ALTER TABLE "steps" ADD "planned_by" text`);
    await queryRunner.query(`ALTER TABLE "runs" ADD "params" jsonb`);
    await queryRunner.query(`ALTER TABLE "scripted_planners" ADD "source_run_id" uuid`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scripted_planners" DROP COLUMN "source_run_id"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "params"`);
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "planned_by"`);
    await queryRunner.query(`ALTER TABLE "steps" DROP COLUMN "screen_title"`);
  }
}
