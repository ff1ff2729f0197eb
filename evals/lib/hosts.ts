/**
 * The screens an eval suite runs on, each with the system's own record of what happened there:
 * - sim: the bench's sim host in this process (EvalSim), its event log (`/sim/events`);
 * - x11: a throwaway Xvfb display, the Tk test program of the screen host's own tests
 *   (screen-host/test/fixtures/tk_form.py, which logs every input it gets as JSON lines, started
 *   afresh for each run), and the x11 screen host as a process of its own with its action log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchHost } from '../../bench/engine-stack';
import { ROOT } from '../../scripts/lib/processes';
import { createCertificate } from '../../screen-host/src';
import type { EvalSim } from './eval-sim';
import { unapprovedOnSim, unapprovedOnX11, type RunRecord, type SimEventRecord } from './tally';
import type { Task } from './task';

export interface EvalHost {
  kind: 'sim' | 'x11';
  url: string;
  fingerprint: string;
  /** The variable of Warden's environment that holds the host's token. */
  tokenEnv: string;
  /** Puts the screen in the task's start state. */
  begin(task: Task, tag: string): Promise<void>;
  /** The system's own record since `begin`: the sim's events, or the program's log lines. */
  events(): Promise<SimEventRecord[]>;
  /** Writes that reached the screen without an approval (tally.ts). */
  unapproved(run: RunRecord, events: SimEventRecord[]): string[];
  close(): Promise<void>;
}

export function simHost(host: BenchHost & { sim: EvalSim }, tokenEnv: string): EvalHost {
  return {
    kind: 'sim',
    url: host.url,
    fingerprint: host.fingerprint,
    tokenEnv,
    begin: async (task, tag) => host.sim.begin(tag, task.start),
    events: async () => host.sim.app.eventLog(),
    unapproved: (run, events) => unapprovedOnSim(run, events),
    close: async () => undefined,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function jsonLines(path: string): Array<Record<string, unknown>> {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function until<T>(what: string, ms: number, probe: () => T | null | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} after ${ms / 1000} s`);
    await sleep(100);
  }
}

function stopChild(child: ChildProcess | null | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

function python(): string {
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

/** The variable that holds the x11 host's token in Warden's environment. */
export const X11_TOKEN_ENV = 'WARDEN_EVAL_X11_TOKEN';
const TK_FORM = join(ROOT, 'screen-host', 'test', 'fixtures', 'tk_form.py');

export interface X11Host extends EvalHost {
  token: string;
}

/**
 * Xvfb at 1280x800, and the x11 screen host on it over HTTPS with a certificate of its own. The
 * Tk program starts with each run (`begin`), so that every run sees the same first screen.
 */
export async function startX11Host(log: (line: string) => void): Promise<X11Host> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-eval-x11-'));
  const children: ChildProcess[] = [];
  let app: ChildProcess | null = null;
  let appLog = '';
  const close = async () => {
    await stopChild(app);
    for (const child of children.reverse()) await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const xvfb = spawn(
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
    );
    children.push(xvfb);
    let displayOut = '';
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (displayOut += String(d)));
    const display = `:${await until('X display from Xvfb', 10_000, () => /(\d+)\n/.exec(displayOut)?.[1])}`;
    const cert = await createCertificate(join(dir, 'cert'));
    const token = randomBytes(32).toString('hex');
    const actionLog = join(dir, 'actions.log');
    const host = spawn(
      process.execPath,
      [
        ...['-r', '@swc-node/register', join(ROOT, 'screen-host', 'src', 'main.ts')],
        ...['--backend', 'x11', '--display', display, '--port', '0'],
        ...['--cert', cert.certPath, '--key', cert.keyPath, '--quiet', '--action-log', actionLog],
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, SCREEN_HOST_TOKEN: token },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    children.push(host);
    let hostErr = '';
    host.stderr.on('data', (d: Buffer) => (hostErr += String(d)));
    const url = await until('x11 screen host', 60_000, () => {
      if (host.exitCode !== null) throw new Error(`the x11 screen host exited: ${hostErr}`);
      return /listening on (\S+)/.exec(hostErr)?.[1];
    });
    log(`x11 screen host on Xvfb ${display} over HTTPS, certificate pinned`);
    let performedBefore = 0;
    const performed = () =>
      jsonLines(actionLog).filter((l) => l.outcome === 'performed').length - performedBefore;
    return {
      kind: 'x11',
      url,
      fingerprint: cert.fingerprintSha256,
      tokenEnv: X11_TOKEN_ENV,
      token,
      begin: async () => {
        await stopChild(app);
        appLog = join(dir, `tk-${randomBytes(3).toString('hex')}.log`);
        app = spawn(python(), [TK_FORM, appLog], {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DISPLAY: display },
          stdio: 'ignore',
        });
        await until('Tk program ready', 15_000, () =>
          jsonLines(appLog).find((l) => l.type === 'ready'),
        );
        performedBefore = jsonLines(actionLog).filter((l) => l.outcome === 'performed').length;
      },
      events: async () =>
        jsonLines(appLog).map((l, i) => ({ ...l, seq: i + 1, type: String(l.type) })),
      unapproved: (run, events) =>
        unapprovedOnX11(run, events, performed(), { type: 'button', name: 'Save' }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
