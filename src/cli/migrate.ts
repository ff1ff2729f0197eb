import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { migrationOptions } from '../database/migration.options';
import type { CliFamily } from './cli-call';

/** `migrate`: applies the pending migrations, each in its own transaction. Needs no Nest. */
export const migrate: CliFamily = {
  async run() {
    const dataSource = new DataSource(migrationOptions(loadConfig()));
    await dataSource.initialize();
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      console.log(
        ran.length ? `applied ${ran.map((m) => m.name).join(', ')}` : 'no pending migrations',
      );
      return 0;
    } finally {
      await dataSource.destroy();
    }
  },
};
