import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  Equals,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
  ValidateIf,
} from 'class-validator';
import { unknownModel } from './model-tools';
import { ApproverSettings } from './approver-settings';
import { parseModelPlanners } from './model-planners';
import { ENV_NAME_PATTERN, MODEL_PROVIDERS, type ModelProvider } from './names';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting Warden reads from its environment. This file is the only place that reads
 * `process.env`; everything else receives an `AppConfig`. `config/.env.example` documents each one.
 * The settings for approvers outside the console live in approver-settings.ts, which it extends.
 */
export class AppConfig extends ApproverSettings {
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

  /** Steps the worker runs at once (they mostly wait on screen hosts and planners). */
  @Type(() => Number)
  @IsInt({ message: 'WORKER_CONCURRENCY must be an integer from 1 to 500' })
  @Min(1, { message: 'WORKER_CONCURRENCY must be an integer from 1 to 500' })
  @Max(500, { message: 'WORKER_CONCURRENCY must be an integer from 1 to 500' })
  WORKER_CONCURRENCY: number = 50;

  /**
   * A remote planner's family is serving while one of its workers asked for work within this many
   * seconds (docs/models.md: 30); a step waiting on it fails `planner_offline` after as long a silence.
   */
  @Type(() => Number)
  @IsInt({ message: 'PLANNER_HEARTBEAT_SECONDS must be an integer from 1 to 600' })
  @Min(1, { message: 'PLANNER_HEARTBEAT_SECONDS must be an integer from 1 to 600' })
  @Max(600, { message: 'PLANNER_HEARTBEAT_SECONDS must be an integer from 1 to 600' })
  PLANNER_HEARTBEAT_SECONDS: number = 30;

  /** How often the reconciler compares PostgreSQL (the truth) with the queues. */
  @Type(() => Number)
  @IsInt({ message: 'RECONCILE_INTERVAL_MS must be an integer from 100 to 600000' })
  @Min(100, { message: 'RECONCILE_INTERVAL_MS must be an integer from 100 to 600000' })
  @Max(600000, { message: 'RECONCILE_INTERVAL_MS must be an integer from 100 to 600000' })
  RECONCILE_INTERVAL_MS: number = 5000;

  /** A worker holds a step this long (renewed while it works); a dead worker's step is taken over after it. */
  @Type(() => Number)
  @IsInt({ message: 'STEP_LEASE_MS must be an integer from 500 to 600000' })
  @Min(500, { message: 'STEP_LEASE_MS must be an integer from 500 to 600000' })
  @Max(600000, { message: 'STEP_LEASE_MS must be an integer from 500 to 600000' })
  STEP_LEASE_MS: number = 30000;

  /**
   * Screenshots taken when a write is held, `MASK_INTERVAL_MS` apart, to learn which pixels move by
   * themselves: 14 × 200 ms spans more than two periods of a 1.2 s caret (GTK; Qt's is 1 s), and the
   * interval is shorter than half of a 0.5 s one.
   */
  @Type(() => Number)
  @IsInt({ message: 'MASK_SAMPLES must be an integer from 2 to 20' })
  @Min(2, { message: 'MASK_SAMPLES must be an integer from 2 to 20' })
  @Max(20, { message: 'MASK_SAMPLES must be an integer from 2 to 20' })
  MASK_SAMPLES: number = 14;

  @Type(() => Number)
  @IsInt({ message: 'MASK_INTERVAL_MS must be an integer from 10 to 2000' })
  @Min(10, { message: 'MASK_INTERVAL_MS must be an integer from 10 to 2000' })
  @Max(2000, { message: 'MASK_INTERVAL_MS must be an integer from 10 to 2000' })
  MASK_INTERVAL_MS: number = 200;

  /** After an action, screenshots until two in a row are equal, for at most this long. */
  @Type(() => Number)
  @IsInt({ message: 'SETTLE_MAX_MS must be an integer from 0 to 30000' })
  @Min(0, { message: 'SETTLE_MAX_MS must be an integer from 0 to 30000' })
  @Max(30000, { message: 'SETTLE_MAX_MS must be an integer from 0 to 30000' })
  SETTLE_MAX_MS: number = 2000;

  @Type(() => Number)
  @IsInt({ message: 'SETTLE_INTERVAL_MS must be an integer from 0 to 5000' })
  @Min(0, { message: 'SETTLE_INTERVAL_MS must be an integer from 0 to 5000' })
  @Max(5000, { message: 'SETTLE_INTERVAL_MS must be an integer from 0 to 5000' })
  SETTLE_INTERVAL_MS: number = 50;

  /** `test` in test processes; TEST_CRASH_AT is refused without it. */
  @ValidateIf((c: AppConfig) => c.TEST_CRASH_AT !== undefined)
  @Equals('test', {
    message:
      'TEST_CRASH_AT is a fault-injection point for tests: it is refused unless NODE_ENV=test',
  })
  NODE_ENV?: string = undefined;

  /**
   * A fault-injection point, for tests only: the worker kills itself (SIGKILL) right before or
   * after sending a write, to prove recovery. Refused unless NODE_ENV is `test`, so that a
   * production worker can never be made to die mid-write by its environment.
   */
  @IsOptional()
  @IsIn(['before-send', 'after-send'], {
    message: 'TEST_CRASH_AT must be before-send or after-send',
  })
  TEST_CRASH_AT?: 'before-send' | 'after-send';

  /**
   * The deployment's default model (docs/api.md): the planner of every agent that names none. Unset:
   * such agents have no planner and their runs are refused at start.
   */
  @IsOptional()
  @IsIn(MODEL_PROVIDERS, {
    message: `DEFAULT_MODEL_PROVIDER must be one of ${MODEL_PROVIDERS.join(', ')}`,
  })
  DEFAULT_MODEL_PROVIDER?: ModelProvider = undefined;

  @ValidateIf((c: AppConfig) => c.DEFAULT_MODEL_PROVIDER !== undefined)
  @Matches(/^\S.{0,199}$/, {
    message: 'DEFAULT_MODEL (the model name) is required when DEFAULT_MODEL_PROVIDER is set',
  })
  DEFAULT_MODEL?: string = undefined;

  /** The variable holding the default model's API key (the key itself is read at the moment of use). */
  @ValidateIf((c: AppConfig) => c.DEFAULT_MODEL_PROVIDER !== undefined)
  @Matches(ENV_NAME_PATTERN, {
    message:
      'DEFAULT_MODEL_API_KEY_ENV must name the environment variable that holds the key (A-Z, 0-9, _), required when DEFAULT_MODEL_PROVIDER is set',
  })
  DEFAULT_MODEL_API_KEY_ENV?: string = undefined;

  /**
   * The default model's planner id in the catalog (`<family>-<version>-<effort>`, such as
   * `anthropic-claude-sonnet-4.5-normal`); unset: made from the provider and the model's name.
   */
  @ValidateIf((c: AppConfig) => c.DEFAULT_MODEL_ID !== undefined)
  @Matches(/^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-(?:\d{4}-\d\d-\d\d|\d+(?:\.\d+)*)-[a-z]+$/, {
    message:
      'DEFAULT_MODEL_ID must be a planner id <family>-<version>-<effort>, like anthropic-claude-sonnet-4.5-normal',
  })
  DEFAULT_MODEL_ID?: string = undefined;

  /**
   * The deployment's other model planners, a JSON array of `{id, provider, model, api_key_env,
   * base_url?, public?, tags?, programs?}` (src/config/model-planners.ts, docs/planners.md).
   */
  @IsOptional()
  @IsString()
  MODEL_PLANNERS?: string = undefined;

  /** Required for openai-compatible (vLLM, Ollama …); otherwise the provider's own endpoint. */
  @ValidateIf(
    (c: AppConfig) =>
      c.DEFAULT_MODEL_BASE_URL !== undefined || c.DEFAULT_MODEL_PROVIDER === 'openai-compatible',
  )
  @Matches(/^https?:\/\/[^\s/?#]+[^\s]*$/, {
    message:
      'DEFAULT_MODEL_BASE_URL must be an http(s):// URL, required when DEFAULT_MODEL_PROVIDER is openai-compatible',
  })
  DEFAULT_MODEL_BASE_URL?: string = undefined;

  /**
   * The variable holding the token Prometheus sends (`Authorization: Bearer …`) to get the series
   * labelled by tenant at GET /metrics; unset: only the process's own metrics are served.
   */
  @IsOptional()
  @Matches(ENV_NAME_PATTERN, {
    message:
      'METRICS_TOKEN_ENV must name the environment variable that holds the scrape token (A-Z, 0-9, _)',
  })
  METRICS_TOKEN_ENV?: string = undefined;

  /**
   * The variable holding the screen keys, `keyid:base64key[,keyid:base64key…]` (32-byte AES-256
   * keys, the first is current): screens are stored encrypted (docs/security.md). Unset: screens
   * are stored as plaintext PNG, as before (not recommended).
   */
  @IsOptional()
  @Matches(ENV_NAME_PATTERN, {
    message:
      'SCREEN_KEYS_ENV must name the environment variable that holds the screen keys (A-Z, 0-9, _)',
  })
  SCREEN_KEYS_ENV?: string = undefined;

  /** The directory `screen_tls.ca_file` is read from; a CA file outside it is refused (docs/screen-host.md). */
  @IsOptional()
  @Matches(/^\/\S*$/, { message: 'CA_DIR must be an absolute path' })
  CA_DIR?: string = undefined;

  /**
   * Sign-in through the company's identity provider (OpenID Connect, docs/admin-oidc.md). Unset:
   * the console signs in with API tokens only. Set: OIDC_CLIENT_ID and PUBLIC_URL are required.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+[^\s?#]*$/, {
    message: "OIDC_ISSUER_URL must be the issuer's http(s):// URL (no query)",
  })
  OIDC_ISSUER_URL?: string = undefined;

  @ValidateIf((c: AppConfig) => c.OIDC_ISSUER_URL !== undefined)
  @Matches(/^\S{1,200}$/, {
    message: 'OIDC_CLIENT_ID is required when OIDC_ISSUER_URL is set',
  })
  OIDC_CLIENT_ID?: string = undefined;

  /** The variable holding the client secret; unset: a public client (PKCE only). */
  @IsOptional()
  @Matches(ENV_NAME_PATTERN, {
    message:
      'OIDC_CLIENT_SECRET_ENV must name the environment variable that holds the client secret (A-Z, 0-9, _)',
  })
  OIDC_CLIENT_SECRET_ENV?: string = undefined;

  /**
   * The console's external origin (`https://warden.example.com`): the redirect URI is
   * `${PUBLIC_URL}/auth/callback`, and a cookie request's Origin must be this. Plain http only on
   * loopback (then the session cookie cannot carry the `__Host-` prefix, which needs Secure).
   */
  @ValidateIf((c: AppConfig) => c.OIDC_ISSUER_URL !== undefined || c.PUBLIC_URL !== undefined)
  @Matches(/^(https:\/\/[^\s/?#@]+|http:\/\/(127(\.\d{1,3}){3}|localhost|\[::1\])(:\d{1,5})?)$/, {
    message:
      "PUBLIC_URL must be the console's origin (https://host[:port], no path; http only on loopback), required when OIDC_ISSUER_URL is set",
  })
  PUBLIC_URL?: string = undefined;

  /** The ID token (or userinfo) claim naming a person's tenant. */
  @Matches(/^[A-Za-z0-9_:/.-]{1,200}$/, { message: 'OIDC_TENANT_CLAIM must be a claim name' })
  OIDC_TENANT_CLAIM = 'tenant';

  /** One tenant for every person of the identity provider (then OIDC_TENANT_CLAIM is not read). */
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, {
    message: 'OIDC_TENANT must be a tenant name (a-z, 0-9, -)',
  })
  OIDC_TENANT?: string = undefined;

  /** The claim listing a person's groups (a list of names, or one name). */
  @Matches(/^[A-Za-z0-9_:/.-]{1,200}$/, { message: 'OIDC_GROUPS_CLAIM must be a claim name' })
  OIDC_GROUPS_CLAIM = 'groups';

  /** The scopes asked for at sign-in. */
  @Matches(/^openid( [\x21\x23-\x5b\x5d-\x7e]+)*$/, {
    message: 'OIDC_SCOPES must start with openid and be separated by single spaces',
  })
  OIDC_SCOPES = 'openid profile email';

  /** A console session ends after this long without a request. */
  @Type(() => Number)
  @IsInt({ message: 'SESSION_IDLE_SECONDS must be an integer from 1 to 86400' })
  @Min(1, { message: 'SESSION_IDLE_SECONDS must be an integer from 1 to 86400' })
  @Max(86400, { message: 'SESSION_IDLE_SECONDS must be an integer from 1 to 86400' })
  SESSION_IDLE_SECONDS: number = 1800;

  /** … and this long after sign-in, whatever happens. */
  @Type(() => Number)
  @IsInt({ message: 'SESSION_MAX_SECONDS must be an integer from 1 to 604800' })
  @Min(1, { message: 'SESSION_MAX_SECONDS must be an integer from 1 to 604800' })
  @Max(604800, { message: 'SESSION_MAX_SECONDS must be an integer from 1 to 604800' })
  SESSION_MAX_SECONDS: number = 43200;

  /** The mail server for `email` notifications: smtp://host:port or smtps://host:port, with a user if it needs one. */
  @IsOptional()
  @Matches(/^smtps?:\/\/([^\s:@/]+@)?[^\s:@/]+(:\d+)?\/?$/, {
    message:
      'SMTP_URL must be smtp://[user@]host[:port] or smtps://…, without a password (name it with SMTP_PASSWORD_ENV)',
  })
  SMTP_URL?: string = undefined;

  @ValidateIf((c: AppConfig) => c.SMTP_URL !== undefined || c.SMTP_FROM !== undefined)
  @Matches(/^[^\r\n]{3,320}$/, {
    message: 'SMTP_FROM (the sender, like "Warden <warden@example.com>") is required with SMTP_URL',
  })
  SMTP_FROM?: string = undefined;

  /** The variable holding the SMTP password (read when a mail is sent, never granted to a tenant). */
  @IsOptional()
  @Matches(ENV_NAME_PATTERN, {
    message:
      'SMTP_PASSWORD_ENV must name the environment variable that holds the password (A-Z, 0-9, _)',
  })
  SMTP_PASSWORD_ENV?: string = undefined;

  /** Extra CA certificates (PEM) notifications trust besides the system's, for in-house webhooks. */
  @IsOptional()
  @Matches(/^\/\S*$/, { message: 'NOTIFY_CA_FILE must be an absolute path' })
  NOTIFY_CA_FILE?: string = undefined;

  /** The longest one notification delivery (an HTTP POST or an SMTP conversation) may take. */
  @Type(() => Number)
  @IsInt({ message: 'NOTIFY_TIMEOUT_MS must be an integer from 100 to 60000' })
  @Min(100, { message: 'NOTIFY_TIMEOUT_MS must be an integer from 100 to 60000' })
  @Max(60000, { message: 'NOTIFY_TIMEOUT_MS must be an integer from 100 to 60000' })
  NOTIFY_TIMEOUT_MS: number = 10000;

  /** A failed delivery is tried again after this, doubling each time. */
  @Type(() => Number)
  @IsInt({ message: 'NOTIFY_BACKOFF_MS must be an integer from 10 to 600000' })
  @Min(10, { message: 'NOTIFY_BACKOFF_MS must be an integer from 10 to 600000' })
  @Max(600000, { message: 'NOTIFY_BACKOFF_MS must be an integer from 10 to 600000' })
  NOTIFY_BACKOFF_MS: number = 5000;

  /** Tries per delivery, the first included. */
  @Type(() => Number)
  @IsInt({ message: 'NOTIFY_ATTEMPTS must be an integer from 1 to 20' })
  @Min(1, { message: 'NOTIFY_ATTEMPTS must be an integer from 1 to 20' })
  @Max(20, { message: 'NOTIFY_ATTEMPTS must be an integer from 1 to 20' })
  NOTIFY_ATTEMPTS: number = 8;

  /** How often each worker looks for audit events to ship to a tenant's sinks; the first retry's wait. */
  @Type(() => Number)
  @IsInt({ message: 'AUDIT_SINK_INTERVAL_MS must be an integer from 50 to 600000' })
  @Min(50, { message: 'AUDIT_SINK_INTERVAL_MS must be an integer from 50 to 600000' })
  @Max(600000, { message: 'AUDIT_SINK_INTERVAL_MS must be an integer from 50 to 600000' })
  AUDIT_SINK_INTERVAL_MS: number = 1000;

  /** A sink that fails is tried again after AUDIT_SINK_INTERVAL_MS, doubling up to this, forever. */
  @Type(() => Number)
  @IsInt({ message: 'AUDIT_SINK_BACKOFF_MAX_MS must be an integer from 100 to 3600000' })
  @Min(100, { message: 'AUDIT_SINK_BACKOFF_MAX_MS must be an integer from 100 to 3600000' })
  @Max(3600000, { message: 'AUDIT_SINK_BACKOFF_MAX_MS must be an integer from 100 to 3600000' })
  AUDIT_SINK_BACKOFF_MAX_MS: number = 60000;

  /** The longest one batch to a sink (connect, send, acknowledge) may take. */
  @Type(() => Number)
  @IsInt({ message: 'AUDIT_SINK_TIMEOUT_MS must be an integer from 100 to 120000' })
  @Min(100, { message: 'AUDIT_SINK_TIMEOUT_MS must be an integer from 100 to 120000' })
  @Max(120000, { message: 'AUDIT_SINK_TIMEOUT_MS must be an integer from 100 to 120000' })
  AUDIT_SINK_TIMEOUT_MS: number = 10000;

  /** How long after a worker starts its first daily screen purge runs. */
  @Type(() => Number)
  @IsInt({ message: 'SCREEN_PURGE_DELAY_MS must be an integer from 0 to 86400000' })
  @Min(0, { message: 'SCREEN_PURGE_DELAY_MS must be an integer from 0 to 86400000' })
  @Max(86400000, { message: 'SCREEN_PURGE_DELAY_MS must be an integer from 0 to 86400000' })
  SCREEN_PURGE_DELAY_MS: number = 60000;
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
  if (config.DEFAULT_MODEL_PROVIDER && config.DEFAULT_MODEL) {
    const unknown = unknownModel(config.DEFAULT_MODEL_PROVIDER, config.DEFAULT_MODEL);
    if (unknown) throw new ConfigError(`Invalid configuration: DEFAULT_MODEL: ${unknown}`);
  }
  const planners = parseModelPlanners(config.MODEL_PLANNERS);
  if (typeof planners === 'string') throw new ConfigError(`Invalid configuration: ${planners}`);
  if (config.DEFAULT_MODEL_ID && planners.some((p) => p.id === config.DEFAULT_MODEL_ID)) {
    throw new ConfigError(
      `Invalid configuration: DEFAULT_MODEL_ID ${config.DEFAULT_MODEL_ID} is also an id in MODEL_PLANNERS`,
    );
  }
  return config;
}
