import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { createWorker } from '../../src/worker.module';
import { testConfig } from '../support/api';
import { createTestDatabase, TestDatabase } from '../support/database';

/** The worker is the step engine and its queue, nothing of the API (docs/operations.md). */
describe('the worker process', () => {
  let db: TestDatabase;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    db = await createTestDatabase();
    worker = await createWorker(testConfig(db.url));
  });

  afterAll(async () => {
    await worker?.close();
    await db?.drop();
  });

  it('instantiates no controller of the API', () => {
    const modules = [...worker.get(ModulesContainer).values()];
    const controllers = modules.flatMap((m) =>
      [...m.controllers.keys()].map((c) => `${m.metatype?.name}: ${String(c)}`),
    );
    expect(modules.map((m) => m.metatype?.name)).toContain('EngineModule');
    expect(controllers).toEqual([]);
  });
});
