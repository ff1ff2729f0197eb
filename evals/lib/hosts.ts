/**
 * The screens an eval suite runs on, each with the system's own record of what happened there:
 * - sim: the bench's sim host in this process (EvalSim), its event log (`/sim/events`);
 * - x11: throwaway Xvfb displays with the x11 screen host (test/support/x11-screen.ts), one serving its
 *   outline from AT-SPI and, where a task asks for it, one without (--no-elements: every label
 *   from OCR); the task's application (x11-apps.ts) starts afresh for each run, so that every run
 *   sees the same first screen.
 */
import type { StackHost } from '../../test/support/process-stack';
import type { EvalSim } from './eval-sim';
import { unapprovedOnSim, unapprovedOnX11, type RunRecord, type SimEventRecord } from './tally';
import type { Task } from './task';
import { startApp, type X11App } from './x11-apps';
import { startX11Screen, type X11Screen } from '../../test/support/x11-screen';

/** Where a task's agent reaches its screen host. */
export interface HostTarget {
  url: string;
  fingerprint: string;
  /** The variable of Warden's environment that holds the host's token. */
  tokenEnv: string;
  /** What the agent's config calls the system. */
  system: string;
}

export interface EvalHost {
  kind: 'sim' | 'x11';
  /** The host a task runs on. */
  target(task: Task): HostTarget;
  /** Puts the screen in the task's start state. */
  begin(task: Task, tag: string): Promise<void>;
  /** The system's own record since `begin`: the sim's events, or the application's. */
  events(): Promise<SimEventRecord[]>;
  /** Writes that reached the screen without an approval (tally.ts). */
  unapproved(run: RunRecord, events: SimEventRecord[]): string[];
  close(): Promise<void>;
}

export function simHost(host: StackHost<EvalSim>, tokenEnv: string): EvalHost {
  return {
    kind: 'sim',
    target: () => ({
      url: host.url,
      fingerprint: host.fingerprint,
      tokenEnv,
      system: 'SAP GUI (sim)',
    }),
    begin: async (task, tag) => host.sim.begin(tag, task.start),
    events: async () => host.sim.app.eventLog(),
    unapproved: (run, events) => unapprovedOnSim(run, events),
    close: async () => undefined,
  };
}

/** The variables that hold the x11 hosts' tokens in Warden's environment. */
export const X11_TOKEN_ENV = {
  outline: 'WARDEN_EVAL_X11_TOKEN',
  pixels: 'WARDEN_EVAL_X11_OCR_TOKEN',
};

export interface X11Host extends EvalHost {
  /** Each screen's variable and token, and its origin, for Warden's environment and grants. */
  secrets: Array<{ env: string; token: string; url: string }>;
}

const withOutline = (task: Task) => task.start.outline !== false;

/**
 * Xvfb at 1280x800 with the x11 screen host serving its outline, and, when one of `tasks` asks
 * for none, another with the host started with --no-elements.
 */
export async function startX11Host(log: (line: string) => void, tasks: Task[]): Promise<X11Host> {
  const screens: { outline: X11Screen; pixels: X11Screen | null } = {
    outline: await startX11Screen(log),
    pixels: null,
  };
  try {
    if (tasks.some((t) => !withOutline(t))) {
      screens.pixels = await startX11Screen(log, { elements: false });
    }
  } catch (error) {
    await screens.outline.close();
    throw error;
  }
  const screenOf = (task: Task): X11Screen => {
    const screen = withOutline(task) ? screens.outline : screens.pixels;
    if (!screen) throw new Error(`task ${task.name}: no host without an outline was started`);
    return screen;
  };
  let app: X11App | null = null;
  let screen: X11Screen = screens.outline;
  let performedBefore = 0;
  const performed = () =>
    screen.actions().filter((l) => l.outcome === 'performed').length - performedBefore;
  return {
    kind: 'x11',
    secrets: [
      { env: X11_TOKEN_ENV.outline, token: screens.outline.token, url: screens.outline.url },
      ...(screens.pixels
        ? [{ env: X11_TOKEN_ENV.pixels, token: screens.pixels.token, url: screens.pixels.url }]
        : []),
    ],
    target: (task) => {
      const s = screenOf(task);
      return {
        url: s.url,
        fingerprint: s.fingerprint,
        tokenEnv: s === screens.outline ? X11_TOKEN_ENV.outline : X11_TOKEN_ENV.pixels,
        system: app?.system ?? 'x11',
      };
    },
    begin: async (task) => {
      await app?.stop();
      app = null;
      screen = screenOf(task);
      app = await startApp(task.start.app ?? 'tk-form', screen, {
        outline: withOutline(task),
        rows: task.start.rows,
      });
      performedBefore = screen.actions().filter((l) => l.outcome === 'performed').length;
    },
    events: async () => (app ? app.events() : []),
    unapproved: (run, events) => unapprovedOnX11(run, events, performed(), app?.commits ?? null),
    close: async () => {
      await app?.stop();
      await screens.outline.close();
      await screens.pixels?.close();
    },
  };
}
