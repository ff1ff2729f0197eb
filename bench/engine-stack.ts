/**
 * What `npm run bench` (and the scale-out e2e test) stands up and takes down again: a throwaway
 * PostgreSQL database migrated through the real migrations, its own BullMQ prefix on a Redis, the
 * API(s) and the worker(s) as real processes (`src/main.ts`, `src/worker.ts`), tokens made by the
 * CLI, and sim screen hosts over HTTPS with pinned certificates, in this process so that the bench
 * can see from the host's side when an action arrived. PostgreSQL and Redis are the machine's
 * unless the caller names others (the scale-out test brings its own, to restart them).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { createCertificate, startScreenHost, type RunningScreenHost } from '../screen-host/src';
import type { Screenshot } from '../screen-host/src';
import { withTextChunk } from '../screen-host/src/backends/sim/png-text-chunk';
import { SimBackend, type SimRender } from '../screen-host/src/backends/sim/sim-backend';
import { migrationOptions } from '../src/database/migration.options';
import {
  ENTRIES,
  freePort,
  onlyPathAndHome,
  ProcessGroup,
  ROOT,
  startEntry,
  tail,
  waitUntil,
  type Started,
} from '../scripts/lib/processes';

export { ROOT };
const PG_ADMIN_URL =
  process.env.WARDEN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.WARDEN_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** One variable holds the token all bench hosts share; the processes get it in their environment. */
const TOKEN_ENV = 'WARDEN_BENCH_SCREEN_TOKEN';

/**
 * Renders of sim states (PNG and pixels), shared by every bench host: drawing the sim is not
 * Warden's work. At most 64 (4 MB of pixels each); a scenario shows far fewer states.
 */
const renders = new Map<string, SimRender>();

/**
 * The sim as the bench runs it. Two things differ from a plain sim, both for the bench's sake and
 * neither touching Warden:
 * - it records the moment each action reached it, by this process's clock (performance.now()):
 *   the host's side of `POST /action`;
 * - every bench host shares one rendering of each state (drawing and encoding a new state takes
 *   about 35 ms of CPU, and 50 hosts drawing on this 2-core machine would take the CPU from the
 *   very processes being measured; in production the hosts are other machines), and its PNGs carry
 *   a text chunk naming the host and the scenario. So to Warden every run's screens are files of
 *   their own, with their own SHA-256, decoded and hashed as in production.
 */
export class BenchSim extends SimBackend {
  readonly performedAt: number[] = [];
  /** Named in every PNG this host serves; set before each scenario (prepare). */
  private tag = '';
  /** The screenshot of the current state, until an action, a reset, a poke or a popup changes it. */
  private shot: Promise<Screenshot> | null = null;

  prepare(tag: string): void {
    this.reset();
    this.tag = tag;
    this.shot = null;
  }

  protected override draw(): SimRender {
    const key = this.renderKey();
    let render = renders.get(key);
    if (!render) {
      render = super.draw();
      renders.set(key, render);
      if (renders.size > 64) renders.delete(renders.keys().next().value!);
    }
    return render;
  }

  override screenshot(): Promise<Screenshot> {
    this.shot ??= super
      .screenshot()
      .then((shot) => ({ ...shot, png: withTextChunk(shot.png, this.tag) }));
    return this.shot;
  }

  override async perform(action: Parameters<SimBackend['perform']>[0]): Promise<void> {
    this.performedAt.push(performance.now());
    this.shot = null;
    return super.perform(action);
  }

  override reset(): void {
    this.shot = null;
    super.reset();
  }

  override poke(message: string, faint = false): void {
    this.shot = null;
    super.poke(message, faint);
  }

  override popup(popup: Parameters<SimBackend['popup']>[0]): void {
    this.shot = null;
    super.popup(popup);
  }
}

export interface BenchHost {
  url: string;
  fingerprint: string;
  sim: BenchSim;
  host: RunningScreenHost;
}

export interface HttpAnswer {
  status: number;
  body: any;
}

export interface BenchStack {
  databaseName: string;
  queuePrefix: string;
  /** The first API's URL (the bench's only one). */
  apiUrl: string;
  /** Every API process's URL, in start order. */
  apiUrls: string[];
  tokenEnv: string;
  hosts: BenchHost[];
  tokens: { admin: string; weakener: string; operator: string; approver: string; auditor: string };
  workers: number;
  /** Process ids of the API and the worker processes (for their CPU time). */
  pids: { api: number; apis: number[]; workers: number[] };
  /** The API and worker processes themselves (to see that none ended). */
  processes: Started[];
  /** SQL on the bench database (one connection, for reading results). */
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
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

export interface StackOptions {
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
  /** The sim each host runs (default a plain BenchSim in English). */
  makeSim?: () => BenchSim;
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

export async function startBenchStack(options: StackOptions): Promise<BenchStack> {
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
    const migrator = new DataSource(migrationOptions({ DATABASE_URL: url }));
    await migrator.initialize();
    try {
      await migrator.runMigrations({ transaction: 'each' });
    } finally {
      await migrator.destroy();
    }
    // A pool, not one client: a test that restarts PostgreSQL keeps reading through it.
    const db = new Pool({ connectionString: url, max: 2 });
    db.on('error', () => undefined); // an idle connection ended by a restart: the next query opens one
    cleanups.push(() => db.end());

    // Redis: everything under the bench's prefix is removed at the end.
    cleanups.push(() => removeKeys(redisUrl, queuePrefix));

    // Screen hosts: one per concurrent run, each with its own certificate, pinned.
    const token = randomBytes(32).toString('hex');
    const hosts: BenchHost[] = [];
    cleanups.push(async () => {
      await Promise.all(hosts.map((h) => h.host.close()));
    });
    for (let i = 0; i < options.hosts; i++) {
      const certDir = join(dir, `host-${i}`);
      const cert = await createCertificate(certDir);
      const sim = options.makeSim?.() ?? new BenchSim('en');
      const host = await startScreenHost({
        backend: sim,
        token,
        port: 0,
        tls: { certPath: cert.certPath, keyPath: cert.keyPath },
        testRoutes: true,
        actionLogPath: null,
      });
      hosts.push({ url: host.url, fingerprint: cert.fingerprintSha256, sim, host });
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
    const cli = async (args: string[], log: string) => {
      const started = startEntry(ENTRIES.cli, args, {
        env: onlyPathAndHome({ ...env, LOG_LEVEL: 'warn' }),
        log: join(dir, `cli-${log}.log`),
      });
      const end = await started.exited;
      if (end.code !== 0)
        throw new Error(`cli ${args.slice(0, 2).join(' ')} failed:\n${tail(started)}`);
      return started.stdout().trim().split('\n').pop() ?? '';
    };
    const apiToken = async (subject: string, permissions: string) => {
      const last = await cli(
        [
          ...['token', 'create', '--tenant', name],
          ...['--subject', subject, '--permissions', permissions],
        ],
        subject,
      );
      if (!last.startsWith('wdn_')) throw new Error(`token create for ${subject} printed no token`);
      return last;
    };
    const [admin, weakener, operator, approver, auditor] = await Promise.all([
      apiToken('ada', 'computer_use.admin'),
      apiToken('wes', 'computer_use.admin,governance.weaken'),
      apiToken('olga', 'agents.operate'),
      apiToken('bob', 'agents.approve'),
      apiToken('aud', 'audit.read'),
      hosts.length === 0
        ? ''
        : cli(
            [
              ...['secrets', 'grant', '--tenant', name, '--env', TOKEN_ENV],
              ...hosts.flatMap((h) => ['--to', new URL(h.url).origin]),
            ],
            'grant',
          ),
      ...(options.grants ?? []).map((g, i) =>
        cli(
          ['secrets', 'grant', '--tenant', name, '--env', g.env, '--to', new URL(g.to).origin],
          `grant-${i}`,
        ),
      ),
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
    const apis: Started[] = [];
    const apiUrls: string[] = [];
    for (let i = 0; i < (options.apis ?? 1); i++) {
      const port = await freePort();
      const log = i === 0 ? 'api.log' : `api-${i}.log`;
      apis.push(
        processes.start(ENTRIES.api, [], onlyPathAndHome({ ...env, PORT: String(port) }), log),
      );
      apiUrls.push(`http://127.0.0.1:${port}`);
    }
    const workers = Array.from({ length: options.workers }, (_, i) =>
      processes.start(ENTRIES.worker, [], onlyPathAndHome(env), `worker-${i}.log`),
    );
    for (const [i, api] of apis.entries()) {
      await waitUntil(api, 'answer on /health/ready', async () => {
        return (await fetch(`${apiUrls[i]}/health/ready`)).ok;
      });
    }
    for (const worker of workers) {
      await waitUntil(worker, 'start', async () =>
        worker.output().includes('Warden worker started'),
      );
    }
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
      tokens: { admin, weakener, operator, approver, auditor },
      workers: workers.length,
      pids: { api: apiPids[0], apis: apiPids, workers: workers.map((w) => w.child.pid!) },
      processes: [...apis, ...workers],
      sql: async (text, params) => (await db.query(text, params)).rows,
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

/** Removes every Redis key under the bench's prefix (BullMQ's queue, jobs and events). */
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
