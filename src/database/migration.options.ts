import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import type { AppConfig } from '../config/app-config';
import { databaseOptions } from './database.options';

/** The database options with the migrations: for what applies or reverts them (`cli migrate`, TypeORM's CLI). */
export function migrationOptions(config: Pick<AppConfig, 'DATABASE_URL'>): DataSourceOptions {
  return { ...databaseOptions(config), migrations: MIGRATIONS };
}
