import { MigrationInterface, QueryRunner } from 'typeorm';

/** Screens, content-addressed per tenant by the SHA-256 of their PNG bytes (docs/security.md, docs/api.md). */

export class Screens1795996831071 implements MigrationInterface {
  name = 'Screens1795996831071';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "screens" ("tenant" text NOT NULL, "sha256" character(64) NOT NULL, "png" bytea NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "pixel_sha256" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4510cb0c7b2757db744a58e7d5c" PRIMARY KEY ("tenant", "sha256"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "screens" ADD CONSTRAINT "FK_af3f1b1c58d0e17496ad6e8f8ad" FOREIGN KEY ("tenant") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    // PNGs are compressed already: store them out of line without trying to compress them again.
    await queryRunner.query(`ALTER TABLE "screens" ALTER COLUMN "png" SET STORAGE EXTERNAL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "screens" DROP CONSTRAINT "FK_af3f1b1c58d0e17496ad6e8f8ad"`,
    );
    await queryRunner.query(`DROP TABLE "screens"`);
  }
}
