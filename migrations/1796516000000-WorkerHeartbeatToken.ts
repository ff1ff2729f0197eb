import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A remote planner worker's heartbeat is its token's and its name's (docs/security.md "Remote
 * planners"): `planner_workers` gets `token_id` in its key, so another token of the same family
 * asking under the same worker name keeps no claim alive. The heartbeats there are dropped: they
 * are at most one heartbeat window old, and a worker that still runs asks again within it.
 */
export class WorkerHeartbeatToken1796516000000 implements MigrationInterface {
  name = 'WorkerHeartbeatToken1796516000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "planner_workers"`);
    await queryRunner.query(`ALTER TABLE "planner_workers" ADD "token_id" uuid NOT NULL`);
    await queryRunner.query(`ALTER TABLE "planner_workers" DROP CONSTRAINT "planner_workers_pkey"`);
    await queryRunner.query(
      `ALTER TABLE "planner_workers" ADD CONSTRAINT "planner_workers_pkey" PRIMARY KEY ("tenant", "family", "worker", "token_id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "planner_workers"`);
    await queryRunner.query(`ALTER TABLE "planner_workers" DROP CONSTRAINT "planner_workers_pkey"`);
    await queryRunner.query(`ALTER TABLE "planner_workers" DROP COLUMN "token_id"`);
    await queryRunner.query(
      `ALTER TABLE "planner_workers" ADD CONSTRAINT "planner_workers_pkey" PRIMARY KEY ("tenant", "family", "worker")`,
    );
  }
}
