import { MigrationInterface, QueryRunner } from 'typeorm';

/** The pixels of a run's screens that move by themselves, learnt for reads (docs/rules.md, the frame rule). */
export class RunVolatileMask1796090424405 implements MigrationInterface {
  name = 'RunVolatileMask1796090424405';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" ADD "volatile_mask" bytea`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "volatile_mask"`);
  }
}
