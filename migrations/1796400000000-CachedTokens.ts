import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Prompt caching in the transcript (issue 18 §3): of a call's input tokens, how many the provider
 * read from its cache and (Anthropic) wrote to it. Rows from before stay null: not recorded.
 */
export class CachedTokens1796400000000 implements MigrationInterface {
  name = 'CachedTokens1796400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "model_calls" ADD "cache_read_tokens" integer, ADD "cache_write_tokens" integer`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "model_calls" DROP COLUMN "cache_write_tokens", DROP COLUMN "cache_read_tokens"`,
    );
  }
}
