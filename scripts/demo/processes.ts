import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, createWriteStream, writeFileSync, WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The demo's processes: Warden's real entry points, each a child of the demo, its output kept in a
 * log file of the demo's work folder. Every pid is also written to `pids` there, so that the shell
 * wrapper can stop what is left even if the demo itself is killed (SIGKILL cannot be handled).
 */
export interface Entry {
  /** What the process is, in the demo's words ("the API"). */
  label: string;
  /** The compiled file under the repository (dist/src/main.js) and its TypeScript source. */
  dist: string;
  source: string;
}

export const ENTRIES = {
  api: { label: 'the API', dist: 'dist/src/main.js', source: 'src/main.ts' },
  worker: { label: 'the worker', dist: 'dist/src/worker.js', source: 'src/worker.ts' },
  cli: { label: 'the CLI', dist: 'dist/src/cli.js', source: 'src/cli.ts' },
  screenHost: {
    label: 'the screen host',
    dist: 'screen-host/dist/main.js',
    source: 'screen-host/src/main.ts',
  },
} satisfies Record<string, Entry>;

export interface Started {
  label: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr), also in its log file. */
  output(): string;
  /** What it wrote to stdout alone. */
  stdout(): string;
  /** Resolves when the process has exited, with its code or signal. */
  exited: Promise<string>;
}

export class Processes {
  private readonly running = new Set<Started>();
  private readonly pidFile: string;

  constructor(
    private readonly root: string,
    private readonly work: string,
    /** Run entry points from their TypeScript sources (@swc-node/register) instead of dist. */
    private readonly fromSource: boolean,
  ) {
    this.pidFile = join(work, 'pids');
    writeFileSync(this.pidFile, '');
  }

  /** Starts an entry point as a long-running process. */
  start(entry: Entry, args: string[], env: NodeJS.ProcessEnv, logName: string): Started {
    const file = this.fromSource ? entry.source : entry.dist;
    const node = this.fromSource ? ['-r', '@swc-node/register', file] : [file];
    const child = spawn(process.execPath, [...node, ...args], {
      cwd: this.root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) appendFileSync(this.pidFile, `${child.pid}\n`);
    const log: WriteStream = createWriteStream(join(this.work, logName));
    let output = '';
    let stdout = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      log.write(chunk);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      collect(chunk);
    });
    child.stderr.on('data', collect);
    const exited = new Promise<string>((resolve) => {
      child.on('error', (error) => resolve(`could not start: ${error.message}`));
      child.on('close', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
    });
    const started: Started = {
      label: entry.label,
      child,
      output: () => output,
      stdout: () => stdout,
      exited,
    };
    this.running.add(started);
    void exited.then(() => {
      this.running.delete(started);
      log.end();
    });
    return started;
  }

  /** Runs an entry point to its end; throws with its output if it fails. */
  async run(entry: Entry, args: string[], env: NodeJS.ProcessEnv, logName: string) {
    const started = this.start(entry, args, env, logName);
    const how = await started.exited;
    if (how !== 'code 0') {
      throw new Error(`${entry.label} (${args.join(' ')}) ended with ${how}:\n${tail(started)}`);
    }
    return started.stdout();
  }

  /** Waits until `ready` answers true, failing early if the process ends first. */
  async waitUntil(started: Started, what: string, ready: () => Promise<boolean>, ms = 60_000) {
    let ended: string | undefined;
    void started.exited.then((how) => (ended = how));
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (ended)
        throw new Error(`${started.label} ended (${ended}) before ${what}:\n${tail(started)}`);
      if (await ready().catch(() => false)) return;
      await sleep(100);
    }
    throw new Error(`${started.label}: no ${what} after ${ms / 1000} s:\n${tail(started)}`);
  }

  /** Stops everything still running, newest first: SIGTERM, then SIGKILL after a grace period. */
  async stopAll(graceMs = 10_000): Promise<string[]> {
    const stopped: string[] = [];
    for (const started of [...this.running].reverse()) {
      started.child.kill('SIGTERM');
      const timer = setTimeout(() => started.child.kill('SIGKILL'), graceMs);
      await started.exited;
      clearTimeout(timer);
      stopped.push(started.label);
    }
    // Nothing is left for the shell wrapper to stop.
    writeFileSync(this.pidFile, '');
    return stopped;
  }

  /** The last lines of every process still known, for a failure message. */
  tails(): string {
    return [...this.running]
      .filter((s) => s.output().trim() !== '')
      .map((s) => `--- ${s.label}\n${tail(s)}`)
      .join('\n');
  }
}

function tail(started: Started, lines = 15): string {
  return started.output().trimEnd().split('\n').slice(-lines).join('\n');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
