import {
  type DynamicModule,
  type INestApplicationContext,
  Module,
  type Provider,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app-config';
import { StoreModule } from '../store.module';

@Module({})
class CliModule {}

/**
 * Starts what one command family needs and no more: config, the database and the audit log
 * (StoreModule), and the family's own modules; runs the command, closes, and answers its exit code.
 */
export async function withContext(
  needs: { imports?: Array<Type | DynamicModule>; providers?: Provider[] },
  run: (app: INestApplicationContext) => Promise<number>,
): Promise<number> {
  const app = await NestFactory.createApplicationContext(
    {
      module: CliModule,
      imports: [StoreModule.forRoot(loadConfig()), ...(needs.imports ?? [])],
      providers: needs.providers ?? [],
    },
    { logger: ['error'] },
  );
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}
