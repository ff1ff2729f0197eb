/**
 * FeatherPad (Debian's 1.3.5, a Qt 5.15 text editor), a real application nobody here wrote, on an
 * X display: a HOME of its own (its settings, and where its Save dialog opens), and Qt's
 * accessibility on the bus the screen host announces: Qt finds that bus by asking its session bus
 * for `org.a11y.Bus`, which the host answers on its own bus, so the application's session bus is
 * the accessibility bus (docs/screen-host.md). What it saves is plain text, read back as it is.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stopGroup } from './children';
import { until } from './until';

const run = promisify(execFile);

/** The accessibility bus the display announces (the root window's AT_SPI_BUS), as xprop says it. */
export async function announcedBus(display: string): Promise<string> {
  const { stdout } = await run('xprop', ['-root', 'AT_SPI_BUS'], {
    env: { ...process.env, DISPLAY: display },
  });
  const address = /"(.*)"/.exec(stdout)?.[1];
  if (!address) throw new Error(`the display announces no accessibility bus: ${stdout.trim()}`);
  return address;
}

/**
 * The environment a Qt 5 or 6 application publishes its tree in, on `display` with `home`: its
 * session bus is the accessibility bus (where the host answers `org.a11y.Bus`); nothing else.
 */
export async function qtEnvironment(display: string, home: string): Promise<NodeJS.ProcessEnv> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_RUNTIME_DIR: home,
    LANG: 'C.UTF-8',
    DISPLAY: display,
    DBUS_SESSION_BUS_ADDRESS: await announcedBus(display),
  };
}

export interface QtApp {
  /** Its HOME: where its Save dialog opens. */
  home: string;
  process: ChildProcess;
  /** Whether the process is still there (not ended, not killed by a signal). */
  alive(): boolean;
  close(): Promise<void>;
}

/**
 * Starts `command` (a Qt application) on `display` with a HOME of its own in `dir`, and waits
 * for its window to show (`title`, as xdotool finds it). A process group of its own, ended whole.
 */
export async function startQtApp(
  display: string,
  dir: string,
  command: string,
  title: string,
  args: string[] = [],
): Promise<QtApp> {
  const home = join(dir, `${command}-home`);
  mkdirSync(home, { recursive: true });
  let err = '';
  const app: ChildProcess = spawn(command, args, {
    env: await qtEnvironment(display, home),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  app.stderr?.on('data', (d: Buffer) => (err = (err + String(d)).slice(-4000)));
  const alive = () => app.exitCode === null && app.signalCode === null;
  const close = () => stopGroup(app);
  try {
    await until(
      `${command} window`,
      async () => {
        if (!alive())
          throw new Error(`${command} ended (${app.exitCode ?? app.signalCode}): ${err}`);
        const found = await run('xdotool', ['search', '--onlyvisible', '--name', title], {
          env: { ...process.env, DISPLAY: display },
        }).catch(() => null);
        return found && found.stdout.trim() !== '' ? true : null;
      },
      60_000,
      100,
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { home, process: app, alive, close };
}

/** FeatherPad on `display`, an empty Untitled document, its HOME in `dir`. */
export function startFeatherPad(display: string, dir: string): Promise<QtApp> {
  return startQtApp(display, dir, 'featherpad', 'Untitled');
}
