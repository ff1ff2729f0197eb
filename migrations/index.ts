import { Foundation1795994511380 } from './1795994511380-Foundation';

import type { MigrationInterface } from 'typeorm';

/** Every migration, in order. TypeORM 1.x takes class references here, not globs. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [Foundation1795994511380];
