/**
 * Warden as processes, stood up and taken down again, for the bench, the eval and the scale-out
 * test: a throwaway PostgreSQL database migrated through the real migrations, its own BullMQ
 * prefix on a Redis, the API(s) and the worker(s) as real processes from source (warden-processes.ts),
 * tokens and grants made by the CLI (cli-tokens.ts), and sim screen hosts over HTTPS with pinned
 * certificates (sim-hosts.ts), in this process so that the caller can see from the host's side
 * when an action arrived (BenchSim). PostgreSQL and Redis are the machine's unless the caller names
 * others (the scale-out test brings its own, to restart them).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client, Pool } from 'pg';
import type { RunningScreenHost } from '../../screen-host/src';
import { createWardenClient, type WardenClient } from '@warden/client';
import {
  ENTRIES,
  onlyPathAndHome,
  ProcessGroup,
  startEntry,
  tail,
  type Started,
} from '../../scripts/lib/processes';
import { BenchSim } from './bench-sim';
import { migrate } from './database';
import { type CliRun, grantSecret, makeTokens } from './cli-tokens';
import { startPinnedHost } from './sim-hosts';
import { startWardenProcesses } from './warden-processes';

const PG_ADMIN_URL =
  process.env.WARDEN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.WARDEN_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** One variable holds the token all hosts share; the processes get it in their environment. */
const TOKEN_ENV = 'WARDEN_BENCH_SCREEN_TOKEN';

/** The stack's people, each a token made with the CLI. */
const PEOPLE = {
  admin: { subject: 'ada', permissions: ['computer_use.admin'] },
  weakener: { subject: 'wes', permissions: ['computer_use.admin', 'governance.weaken'] },
  operator: { subject: 'olga', permissions: ['agents.operate'] },
  approver: { subject: 'bob', permissions: ['agents.approve'] },
  auditor: { subject: 'aud', permissions: ['audit.read'] },
};

export interface StackHost<S extends BenchSim = BenchSim> {
  url: string;
  fingerprint: string;
  sim: S;
  host: RunningScreenHost;
}

export interface HttpAnswer {
  status: number;
  body: any;
}

export interface ProcessStack<S extends BenchSim = BenchSim> {
  databaseName: string;
  queuePrefix: string;
  /** The first API's URL (the bench's only one). */
  apiUrl: string;
  /** Every API process's URL, in start order. */
  apiUrls: string[];
  tokenEnv: string;
  hosts: Array<StackHost<S>>;
  tokens: Record<keyof typeof PEOPLE, string>;
  workers: number;
  /** Process ids of the API and the worker processes (for their CPU time). */
  pids: { api: number; apis: number[]; workers: number[] };
  /** The API and worker processes themselves (to see that none ended). */
  processes: Started[];
  /** SQL on the stack's database (a small pool, for reading results). */
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  /** The typed client (@warden/client) of API process `api` (default the first) as `token`. */
  client(token: string, api?: number): WardenClient;
  /** A call to the first API. */
  call(method: string, path: string, token: string, json?: unknown): Promise<HttpAnswer>;
  /** A call to API process `api` (0-based). */
  callAt(
    api: number,
    method: string,
    path: string,
    token: string,
    json?: unknown,
  ): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export interface ProcessStackOptions<S extends BenchSim = BenchSim> {
  hosts: number;
  workers: number;
  /** API processes (default 1). */
  apis?: number;
  /** A role that may create databases, on the PostgreSQL to use (default: the machine's). */
  pgAdminUrl?: string;
  /** The Redis to use (default: the machine's). */
  redisUrl?: string;
  /** More environment for the API and worker processes (RECONCILE_INTERVAL_MS, a model key, …). */
  env?: Record<string, string>;
  workerConcurrency: number;
  /** Extra Node flags for the API and worker processes (e.g. --cpu-prof). */
  nodeFlags: string[];
  /** Keep the database and the process logs instead of removing them at the end (Redis keys go). */
  keepDir: boolean;
  log: (line: string) => void;
  /** Names the database, the queue prefix and the tenant (default `bench`; the eval says `eval`). */
  name?: string;
  /** More grants of the deployment operator: `env` may go to `to`'s origin. */
  grants?: Array<{ env: string; to: string }>;
  /** The sim host `i` runs (default a plain BenchSim in English). */
  makeSim?: (i: number) => S;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function http(base: string, method: string, path: string, token: string, json?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  let body: unknown = text;
  if (response.headers.get('content-type')?.includes('application/json')) body = JSON.parse(text);
  return { status: response.status, body };
}

export async function startProcessStack<S extends BenchSim = BenchSim>(
  options: ProcessStackOptions<S>,
): Promise<ProcessStack<S>> {
  const name = options.name ?? 'bench';
  const pgAdminUrl = options.pgAdminUrl ?? PG_ADMIN_URL;
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const suffix = randomBytes(4).toString('hex');
  const databaseName = `warden_${name}_${suffix}`;
  const queuePrefix = `warden_${name}_${suffix}`;
  const dir = mkdtempSync(join(tmpdir(), `warden-${name}-`));
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => options.log(`cleanup: ${String(error)}`));
    }
  };
  try {
    // PostgreSQL: a database of its own, through the real migrations, dropped at the end.
    await adminQuery(pgAdminUrl, `CREATE DATABASE "${databaseName}"`);
    cleanups.push(async () => {
      if (options.keepDir) options.log(`database ${databaseName} kept`);
      else await adminQuery(pgAdminUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    });
    const url = databaseUrl(pgAdminUrl, databaseName);
    await migrate(url);
    // A pool, not one client: a test that restarts PostgreSQL keeps reading through it.
    const db = new Pool({ connectionString: url, max: 2 });
    db.on('error', () => undefined); // an idle connection ended by a restart: the next query opens one
    cleanups.push(() => db.end());

    // Redis: everything under the stack's prefix is removed at the end.
    cleanups.push(() => removeKeys(redisUrl, queuePrefix));

    // Screen hosts: one per concurrent run, each with its own certificate, pinned.
    const token = randomBytes(32).toString('hex');
    const hosts: Array<StackHost<S>> = [];
    cleanups.push(async () => {
      await Promise.all(hosts.map((h) => h.host.close()));
    });
    for (let i = 0; i < options.hosts; i++) {
      const sim = options.makeSim?.(i) ?? (new BenchSim('en') as S);
      const pinned = await startPinnedHost({
        backend: sim,
        token,
        dir: join(dir, `host-${i}`),
        actionLogPath: null,
      });
      hosts.push({ url: pinned.url, fingerprint: pinned.fingerprint, sim, host: pinned.host });
    }
    options.log(`${hosts.length} sim screen hosts over HTTPS, certificates pinned`);

    const env = {
      DATABASE_URL: url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: queuePrefix,
      // As in production: info (request lines, warnings), written to files, not to this process.
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      WORKER_CONCURRENCY: String(options.workerConcurrency),
      ...options.env,
      [TOKEN_ENV]: token,
    };

    // Tokens and the hosts' token grant, made the way an operator makes them: the CLI.
    const cli: CliRun = async (args, log) => {
      const started = startEntry(ENTRIES.cli, args, {
        env: onlyPathAndHome({ ...env, LOG_LEVEL: 'warn' }),
        log: join(dir, `cli-${log}`),
      });
      const end = await started.exited;
      if (end.code !== 0)
        throw new Error(`cli ${args.slice(0, 2).join(' ')} failed:\n${tail(started)}`);
      return started.stdout();
    };
    const [tokens] = await Promise.all([
      makeTokens(cli, name, PEOPLE),
      grantSecret(
        cli,
        name,
        TOKEN_ENV,
        hosts.map((h) => h.url),
      ),
      ...(options.grants ?? []).map((g) => grantSecret(cli, name, g.env, [g.to])),
    ]);

    // The API and the worker(s), as separate processes; their output goes straight to log files,
    // so that none of it costs this process CPU. Stopped newest first, 15 s before SIGKILL.
    const processes = new ProcessGroup({
      logDir: dir,
      nodeFlags: options.nodeFlags,
      logDirect: true,
    });
    cleanups.push(async () => {
      await processes.stopAll(15_000);
    });
    const started = await startWardenProcesses(processes, {
      env: onlyPathAndHome(env),
      apis: options.apis,
      workers: options.workers,
    });
    const { apis, apiUrls, workers } = started;
    const apiPids = apis.map((a) => a.child.pid!);
    options.log(
      `API${apis.length > 1 ? 's' : ''} (pid ${apiPids.join(', ')}) and ${workers.length} worker process(es) started`,
    );

    cleanups.push(async () => {
      if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
      else options.log(`process logs kept in ${dir}`);
    });
    return {
      databaseName,
      queuePrefix,
      apiUrl: apiUrls[0],
      apiUrls,
      tokenEnv: TOKEN_ENV,
      hosts,
      tokens,
      workers: workers.length,
      pids: { api: apiPids[0], apis: apiPids, workers: workers.map((w) => w.child.pid!) },
      processes: [...apis, ...workers],
      sql: async (text, params) => (await db.query(text, params)).rows,
      client: (t, api = 0) => createWardenClient({ baseUrl: apiUrls[api], token: t }),
      call: (method, path, t, json) => http(apiUrls[0], method, path, t, json),
      callAt: (i, method, path, t, json) => http(apiUrls[i], method, path, t, json),
      close,
    };
  } catch (error) {
    options.log(`setting up failed; process logs in ${dir}`);
    options.keepDir = true;
    await close();
    throw error;
  }
}

/** Removes every Redis key under the stack's prefix (BullMQ's queue, jobs and events). */
async function removeKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
