/**
 * A PostgreSQL and a Redis of the test's own, on free ports, so that a test can stop and start
 * them for real without touching the machine's (which other test files and sessions share).
 * PostgreSQL from Debian's binaries (`/usr/lib/postgresql/<version>/bin`), initdb'd into a temp
 * directory with trust auth; Redis from `redis-server` on PATH, keeping nothing on disk.
 * A missing binary fails with a message naming it and the package that brings it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../scripts/lib/processes';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';
/** scripts/prepare-machine.sh installs these when they are missing. */
const PG_PACKAGE = 'postgresql';
const REDIS_PACKAGE = 'redis-server';

export interface OwnPostgres {
  port: number;
  /** The superuser on its `postgres` database (it may create databases). */
  adminUrl: string;
  /** Stops it (`pg_ctl stop -m fast`: sessions are ended), waits `downMs`, starts it again. */
  restart(downMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface OwnRedis {
  port: number;
  url: string;
  /** `SHUTDOWN NOSAVE`, waits `downMs`, starts a new redis-server on the same port: empty. */
  restart(downMs: number): Promise<void>;
  close(): Promise<void>;
}

function newestPgBin(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((v) => /^\d+$/.test(v) && existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      `initdb not found under ${PG_ROOT}/<version>/bin: install Debian's ${PG_PACKAGE} package ` +
        `(scripts/prepare-machine.sh test installs it)`,
    );
  }
  const bin = join(PG_ROOT, versions[0], 'bin');
  for (const tool of ['pg_ctl', 'postgres']) {
    if (!existsSync(join(bin, tool))) {
      throw new Error(`${tool} not found in ${bin}: install Debian's ${PG_PACKAGE} package`);
    }
  }
  return bin;
}

async function onPath(binary: string, pkg: string): Promise<string> {
  try {
    return (await run('sh', ['-c', `command -v ${binary}`])).stdout.trim();
  } catch {
    throw new Error(
      `${binary} not found on PATH: install Debian's ${pkg} package (scripts/prepare-machine.sh test installs it)`,
    );
  }
}

/**
 * PostgreSQL refuses to run as root: as root, its tools run as the `postgres` user (which Debian's
 * package creates) and the directory is handed to that user.
 */
async function pgUser(dir: string): Promise<string[]> {
  if (process.getuid?.() !== 0) return [];
  let ids: string[];
  try {
    ids = (await run('id', ['-u', 'postgres'])).stdout.trim().split('\n');
    ids.push((await run('id', ['-g', 'postgres'])).stdout.trim());
  } catch {
    throw new Error(
      `running as root and there is no postgres user to run PostgreSQL as: install Debian's ${PG_PACKAGE} package`,
    );
  }
  chownSync(dir, Number(ids[0]), Number(ids[1]));
  return ['runuser', '-u', 'postgres', '--'];
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = newestPgBin();
  const dir = mkdtempSync(join(tmpdir(), 'warden-own-pg-'));
  const as = await pgUser(dir);
  const tool = async (name: string, args: string[]) => {
    const [command, ...rest] = [...as, join(bin, name), ...args];
    try {
      await run(command, rest, { cwd: dir, timeout: 60_000 });
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`${name} ${args[0] ?? ''} failed: ${e.stderr || e.message}`, {
        cause: error,
      });
    }
  };
  const data = join(dir, 'data');
  await tool('initdb', [
    ...['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C'],
    '--no-sync',
  ]);
  const port = await freePort();
  // Throwaway data: no fsync. Enough connections for several processes' pools.
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    `-c listen_addresses=127.0.0.1`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  const start = () =>
    tool('pg_ctl', [
      'start',
      '-D',
      data,
      '-w',
      '-t',
      '60',
      '-l',
      join(dir, 'postgres.log'),
      '-o',
      options,
    ]);
  const stop = (mode: 'fast' | 'immediate') =>
    tool('pg_ctl', ['stop', '-D', data, '-w', '-t', '60', '-m', mode]);
  await start();
  return {
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async (downMs) => {
      await stop('fast');
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    close: async () => {
      await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const server = await onPath('redis-server', REDIS_PACKAGE);
  const cli = await onPath('redis-cli', 'redis-tools');
  const dir = mkdtempSync(join(tmpdir(), 'warden-own-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  let starts = 0;
  const ping = async () => {
    try {
      return (await run(cli, ['-p', String(port), 'PING'])).stdout.trim() === 'PONG';
    } catch {
      return false;
    }
  };
  const start = async () => {
    starts += 1;
    const args = [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      ...['--dir', dir, '--logfile', join(dir, `redis-${starts}.log`)],
    ];
    child = spawn(server, args, { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await ping())) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`redis-server on port ${port} did not start (log in ${dir})`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const shutdown = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((r) => running.once('exit', r));
    // SHUTDOWN closes the connection instead of answering: redis-cli's exit code says nothing.
    await run(cli, ['-p', String(port), 'SHUTDOWN', 'NOSAVE']).catch(() => undefined);
    await gone;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    restart: async (downMs) => {
      await shutdown();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    close: async () => {
      await shutdown().catch(() => child?.kill('SIGKILL'));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
