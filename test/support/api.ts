import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { TokensService } from '../../src/auth/tokens.service';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { PlannerAccess } from '../../src/computer-use/catalog/planner-access.service';
import { Destinations } from '../../src/destinations/destinations.service';
import { SecretGrants } from '../../src/secrets/secret-grants.service';
import { createTestDatabase, TestDatabase } from './database';
import { TEST_REDIS_URL, testRunPrefix } from './env';
import { checkAnswer } from './response-contract';
import { createWardenClient, type WardenClient } from '@warden/client';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestApi {
  app: NestFastifyApplication;
  config: AppConfig;
  db: TestDatabase;
  url: string;
  /** A token made the way the CLI makes them. */
  token(
    tenant: string,
    subject: string,
    permissions: string[],
    plannerFamilies?: string[],
  ): Promise<{ id: string; token: string }>;
  /** The deployment operator's grant (`npm run cli -- secrets grant`): `env` may go to `to`'s origin. */
  grant(tenant: string, env: string, to: string): Promise<void>;
  /**
   * The deployment operator's destination grant (`npm run cli -- destinations grant`): Warden may
   * connect to `to` (an origin, or `default-model` / `smtp`) on the tenant's behalf.
   */
  grantDestination(tenant: string, to: string): Promise<void>;
  /** The deployment operator's allow (`npm run cli -- planners allow`) of a planner id or family. */
  allowPlanner(tenant: string, planner: string): Promise<void>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResult<T>>;
  /** The typed client (@warden/client) on this API as `token`, its answers checked like request's. */
  client(token?: string): WardenClient;
  close(): Promise<void>;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string | Buffer;
}

/** Per-file configuration: its own database and its own queue prefix. */
/**
 * The deployment's Prometheus scrape token in tests (METRICS_TOKEN_ENV): GET /metrics with it
 * also answers the series labelled by tenant.
 */
const SCRAPE_TOKEN_ENV = 'WARDEN_TEST_SCRAPE_TOKEN';
process.env[SCRAPE_TOKEN_ENV] ??= `scrape-${randomBytes(16).toString('hex')}`;
export const SCRAPE_TOKEN: string = process.env[SCRAPE_TOKEN_ENV];

export function testConfig(databaseUrl: string, env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    METRICS_TOKEN_ENV: SCRAPE_TOKEN_ENV,
    ...env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `${testRunPrefix()}_${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: process.env.WARDEN_TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
  });
}

/** The real API on a loopback port, over a fresh migrated database. */
export async function startApi(
  wrap?: (root: DynamicModule) => DynamicModule,
  env?: Record<string, string>,
): Promise<TestApi> {
  const db = await createTestDatabase();
  const config = testConfig(db.url, env);
  const root = AppModule.forRoot(config);
  const app = await createApp(config, wrap ? wrap(root) : root);
  // A test that must know its origin before start (PUBLIC_URL) picks the port.
  await app.listen(Number(env?.PORT ?? 0), '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  return {
    app,
    config,
    db,
    url,
    token: async (tenant, subject, permissions, plannerFamilies) => {
      const { info, token } = await app.get(TokensService).create(
        tenant,
        subject,
        permissions,
        'test',
        // planners.serve is scoped to families: a test that names none serves one of its own.
        plannerFamilies ?? (permissions.includes('planners.serve') ? ['test-family'] : []),
      );
      return { id: info.id, token };
    },
    grant: async (tenant, env, to) => {
      await app.get(SecretGrants).grant(tenant, env, new URL(to).origin, 'os:test');
    },
    grantDestination: async (tenant, to) => {
      await app.get(Destinations).grant(tenant, to, undefined, 'os:test');
    },
    allowPlanner: async (tenant, planner) => {
      await app.get(PlannerAccess).set({ kind: 'allow', tenant, planner }, 'os:test');
    },
    request: (method, path, options) => http(url, method, path, options),
    client: (token) => createWardenClient({ baseUrl: url, token, fetch: checkedFetch }),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get('content-type')?.includes('application/json')) {
    parsed = JSON.parse(text);
  }
  // The answer must be one the API document describes (docs/openapi.json): else the test fails.
  checkAnswer(method, path, response.status, response.headers.get('content-type'), parsed);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** fetch for the typed client: every answer is checked against the document, as http() does. */
async function checkedFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  const type = response.headers.get('content-type');
  const body: unknown = type?.includes('application/json')
    ? await response.clone().json()
    : undefined;
  checkAnswer(request.method, request.url, response.status, type, body);
  return response;
}
