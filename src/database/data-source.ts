import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { migrationOptions } from './migration.options';

/** For TypeORM's CLI (`npm run migration:run` and friends) only; the app builds its own from AppConfig. */
export default new DataSource(migrationOptions(loadConfig()));
