/**
 * The screens an eval suite runs on, each with the system's own record of what happened there:
 * - sim: the bench's sim host in this process (EvalSim), its event log (`/sim/events`);
 * - x11: a throwaway Xvfb display with the x11 screen host (x11-screen.ts), and the Tk test
 *   program of the screen host's own tests (screen-host/test/fixtures/tk_form.py, which logs every
 *   input it gets as JSON lines, started afresh for each run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchHost } from '../../bench/engine-stack';
import { ROOT } from '../../scripts/lib/processes';
import type { EvalSim } from './eval-sim';
import { unapprovedOnSim, unapprovedOnX11, type RunRecord, type SimEventRecord } from './tally';
import type { Task } from './task';
import { jsonLines, startX11Screen, stopChild, until } from './x11-screen';

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
  const screen = await startX11Screen(log);
  let app: ChildProcess | null = null;
  let appLog = '';
  let performedBefore = 0;
  const performed = () =>
    screen.actions().filter((l) => l.outcome === 'performed').length - performedBefore;
  return {
    kind: 'x11',
    url: screen.url,
    fingerprint: screen.fingerprint,
    tokenEnv: X11_TOKEN_ENV,
    token: screen.token,
    begin: async () => {
      await stopChild(app);
      appLog = join(screen.dir, `tk-${randomBytes(3).toString('hex')}.log`);
      app = spawn(python(), [TK_FORM, appLog], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DISPLAY: screen.display },
        stdio: 'ignore',
      });
      await until('Tk program ready', 15_000, () =>
        jsonLines(appLog).find((l) => l.type === 'ready'),
      );
      performedBefore = screen.actions().filter((l) => l.outcome === 'performed').length;
    },
    events: async () =>
      jsonLines(appLog).map((l, i) => ({ ...l, seq: i + 1, type: String(l.type) })),
    unapproved: (run, events) =>
      unapprovedOnX11(run, events, performed(), { type: 'button', name: 'Save' }),
    close: async () => {
      await stopChild(app);
      await screen.close();
    },
  };
}
