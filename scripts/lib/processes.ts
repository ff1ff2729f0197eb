/**
 * Warden's entry points (the API, the worker, the CLI, the screen host) as child processes, for the
 * demo, the e2e tests and the bench: one way to start one, keep what it writes, wait for it and stop
 * it (SIGTERM, then SIGKILL after a grace period). Not product code: nothing under src/ uses it.
 */
import { ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  createWriteStream,
  openSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');

export interface Entry {
  /** What the process is, in words ("the API"). */
  label: string;
  /** Its TypeScript source under the repository, run through @swc-node/register. */
  source: string;
  /** The compiled file, as a deployment runs it. */
  dist: string;
}

export const ENTRIES = {
  api: { label: 'the API', source: 'src/main.ts', dist: 'dist/src/main.js' },
  worker: { label: 'the worker', source: 'src/worker.ts', dist: 'dist/src/worker.js' },
  cli: { label: 'the CLI', source: 'src/cli.ts', dist: 'dist/src/cli.js' },
  plannerWorker: {
    label: 'the reference planner worker',
    source: 'src/planner-worker.ts',
    dist: 'dist/src/planner-worker.js',
  },
  screenHost: {
    label: 'the screen host',
    source: 'screen-host/src/main.ts',
    dist: 'screen-host/dist/main.js',
  },
} satisfies Record<string, Entry>;

export interface StartOptions {
  /** The child's whole environment (see `onlyPathAndHome`), but for Node's compile cache. */
  env: NodeJS.ProcessEnv;
  /** Run the compiled file instead of the TypeScript source. */
  fromDist?: boolean;
  /** Node flags before the file (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** A file that gets stdout and stderr (appended). */
  log?: string;
  /**
   * The log file is the child's stdout and stderr, so its output never passes through this
   * process (the bench measures CPU); `output()` then reads the file.
   */
  logDirect?: boolean;
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why it could not be started, when it could not. */
  error?: Error;
}

export interface Started {
  label: string;
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** stdout alone (empty with `logDirect`). */
  stdout(): string;
  /** stderr alone (empty with `logDirect`). */
  stderr(): string;
  /** Resolves when it has ended and its output is complete. */
  exited: Promise<Ended>;
}

/**
 * Node's module compile cache, in its own default folder, for every child unless its environment
 * names one: a child from the TypeScript source loads TypeScript and compiles every file again, and
 * a CLI command of a test spent about a seventh of its time on that (docs/performance.md).
 */
const COMPILE_CACHE = { NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') };

/** Starts one of Warden's entry points as a child process of this one, in the repository. */
export function startEntry(entry: Entry, args: string[], options: StartOptions): Started {
  const file = join(ROOT, options.fromDist ? entry.dist : entry.source);
  const register = options.fromDist ? [] : ['-r', '@swc-node/register'];
  const argv = [...(options.nodeFlags ?? []), ...register, file, ...args];
  const env = { ...COMPILE_CACHE, ...options.env };
  if (options.logDirect) {
    if (!options.log) throw new Error('logDirect needs a log file');
    const fd = openSync(options.log, 'a');
    const child = spawn(process.execPath, argv, {
      cwd: ROOT,
      env,
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const path = options.log;
    const output = () => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return '';
      }
    };
    return {
      label: entry.label,
      child,
      output,
      stdout: () => '',
      stderr: () => '',
      exited: ended(child),
    };
  }
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = options.log ? createWriteStream(options.log, { flags: 'a' }) : undefined;
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
    log?.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
    log?.write(chunk);
  });
  const exited = ended(child);
  void exited.then(() => log?.end());
  return {
    label: entry.label,
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
  };
}

function ended(child: ChildProcess): Promise<Ended> {
  return new Promise((resolveEnd) => {
    child.once('error', (error) => resolveEnd({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolveEnd({ code, signal }));
  });
}

/** How a process ended, in words: `code 0`, `signal SIGKILL`, `could not start: …`. */
export function describeEnd(end: Ended): string {
  if (end.error) return `could not start: ${end.error.message}`;
  return end.signal ? `signal ${end.signal}` : `code ${end.code}`;
}

/** Stops a process: SIGTERM, then SIGKILL if it has not ended after `graceMs`. */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolveGone) => child.once('exit', resolveGone));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/** The last lines a process wrote, for a failure message. */
export function tail(started: Started, lines = 15): string {
  return started.output().trimEnd().split('\n').slice(-lines).join('\n');
}

/** Waits until `ready` answers true, failing at once if the process ends first. */
export async function waitUntil(
  started: Started,
  what: string,
  ready: () => Promise<boolean>,
  ms = 60_000,
): Promise<void> {
  let end: Ended | undefined;
  void started.exited.then((e) => (end = e));
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (end) {
      throw new Error(
        `${started.label} ended (${describeEnd(end)}) before ${what}:\n${tail(started)}`,
      );
    }
    if (await ready().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${started.label}: no ${what} after ${ms / 1000} s:\n${tail(started)}`);
}

/**
 * Processes started together and stopped together, newest first; each one's output in a log file
 * of `logDir`. With a `pidFile`, every pid is written there while it runs, so that a shell script
 * around this process can stop what is left even if this process is killed (SIGKILL cannot be
 * handled).
 */
export class ProcessGroup {
  private readonly running = new Set<Started>();

  constructor(
    private readonly options: {
      logDir: string;
      pidFile?: string;
      fromDist?: boolean;
      nodeFlags?: string[];
      logDirect?: boolean;
    },
  ) {
    if (options.pidFile) writeFileSync(options.pidFile, '');
  }

  /** Starts an entry point; its output goes to `logName` in the log folder. */
  start(entry: Entry, args: string[], env: NodeJS.ProcessEnv, logName: string): Started {
    const started = startEntry(entry, args, {
      env,
      fromDist: this.options.fromDist,
      nodeFlags: this.options.nodeFlags,
      log: join(this.options.logDir, logName),
      logDirect: this.options.logDirect,
    });
    if (this.options.pidFile && started.child.pid !== undefined) {
      appendFileSync(this.options.pidFile, `${started.child.pid}\n`);
    }
    this.running.add(started);
    void started.exited.then(() => this.running.delete(started));
    return started;
  }

  /** Runs an entry point to its end; answers its stdout, or throws with its output if it failed. */
  async run(entry: Entry, args: string[], env: NodeJS.ProcessEnv, logName: string) {
    const started = this.start(entry, args, env, logName);
    const end = await started.exited;
    if (end.code !== 0) {
      const how = describeEnd(end);
      throw new Error(`${entry.label} (${args.join(' ')}) ended with ${how}:\n${tail(started)}`);
    }
    return started.stdout();
  }

  /** Stops everything still running, newest first; answers the labels of what it stopped. */
  async stopAll(graceMs = 10_000): Promise<string[]> {
    const stopped: string[] = [];
    for (const started of [...this.running].reverse()) {
      await stop(started.child, graceMs);
      await started.exited;
      stopped.push(started.label);
    }
    // Nothing is left for the shell script to stop.
    if (this.options.pidFile) writeFileSync(this.options.pidFile, '');
    return stopped;
  }

  /** The last lines of every process still running, for a failure message. */
  tails(): string {
    return [...this.running]
      .filter((s) => s.output().trim() !== '')
      .map((s) => `--- ${s.label}\n${tail(s)}`)
      .join('\n');
  }
}

/** PATH and HOME of this process and `vars`: nothing else of the caller's environment leaks in. */
export function onlyPathAndHome(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...vars };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** An entry point from its TypeScript source, `vars` its environment with PATH and HOME (tests). */
export function spawnEntry(
  entry: Entry,
  args: string[],
  vars: Record<string, string>,
): ChildProcess {
  return startEntry(entry, args, { env: onlyPathAndHome(vars) }).child;
}

/** The same, run to its end. */
export async function runEntry(
  entry: Entry,
  args: string[],
  vars: Record<string, string>,
): Promise<Finished> {
  const started = startEntry(entry, args, { env: onlyPathAndHome(vars) });
  const end = await started.exited;
  if (end.error) throw end.error;
  return { code: end.code, stdout: started.stdout(), stderr: started.stderr() };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

/**
 * A loopback port nothing listens on right now, for a process started later on a port known
 * beforehand. Taken below Linux's ephemeral range (32768–60999): a port from `listen(0)` is free
 * only until the kernel hands it out again, to another `listen(0)` or as the local port of an
 * outgoing connection of any process (in a CI run the API, started on such a port a moment later,
 * failed with EADDRINUSE); the kernel hands out no port below that range by itself.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (await canListen(port)) return port;
  }
  throw new Error('no free loopback port between 20000 and 32767 after 50 tries');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}
