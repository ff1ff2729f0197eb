import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsInt, IsString, Matches, Max, Min, validateSync } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting Warden reads from its environment. This file is the only place that reads
 * `process.env`; everything else receives an `AppConfig`. `config/.env.example` documents each one.
 */
export class AppConfig {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/warden';

  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @Type(() => Number)
  @IsInt({ message: 'PORT must be an integer from 0 to 65535' })
  @Min(0, { message: 'PORT must be an integer from 0 to 65535' })
  @Max(65535, { message: 'PORT must be an integer from 0 to 65535' })
  PORT: number = 3000;

  @IsString()
  HOST = '127.0.0.1';

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  /** BullMQ key prefix, so that two Warden stacks can share one Redis. */
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, {
    message: 'QUEUE_PREFIX must be 1-64 characters of letters, digits, _ . : -',
  })
  QUEUE_PREFIX = 'warden';
}

export class ConfigError extends Error {}

/** Reads and validates the configuration; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const given = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => known.includes(name) && value !== ''),
  );
  const config = plainToInstance(AppConfig, given);
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    // One message per variable: the first rule it breaks.
    const lines = errors.map(
      (e) => Object.values(e.constraints ?? {})[0] ?? `${e.property} is invalid`,
    );
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  return config;
}

/**
 * Reads a secret (a screen host's token, a model provider's key) from the variable an admin
 * named, at the moment of use. The value is never stored, logged or returned by Warden.
 */
export function secretFromEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}
