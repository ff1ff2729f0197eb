/**
 * The accessibility bus of an X display: the D-Bus on which GTK, Qt and LibreOffice applications
 * publish their accessible trees (AT-SPI). Applications find it in the root window's AT_SPI_BUS
 * property when they start (libatspi reads it before asking a session bus). A display that has
 * one (a desktop session's at-spi-bus-launcher) is used as it is; on a bare display (Xvfb) the
 * host starts at-spi2-core's bus itself (dbus-daemon with at-spi2-core's configuration, which
 * starts the registry daemon on the first call) and sets the property, and takes both away again
 * when it closes. Applications started before the host cannot see a bus it started. On a bus it
 * started, the host also answers as at-spi2-core's bus launcher (atspi-bus-service.ts), which is
 * how Qt finds the bus.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BusService, serveBusLauncher } from './atspi-bus-service';

export const AT_SPI_BUS_PROPERTY = 'AT_SPI_BUS';

/**
 * at-spi2-core's registry daemon, where Debian, Fedora and Arch put it. Started by the host: the
 * bus would start it on the first call with `--use-gnome-session`, which on a display without a
 * session bus waits for one and never answers.
 */
export const REGISTRY_DAEMONS = [
  '/usr/libexec/at-spi2-registryd',
  '/usr/lib/at-spi2-core/at-spi2-registryd',
  '/usr/lib/at-spi2-registryd',
];

/** at-spi2-core's configuration of the bus, where Debian, Fedora and Arch put it. */
export const BUS_CONFIGS = [
  '/usr/share/defaults/at-spi2/accessibility.conf',
  '/etc/at-spi2/accessibility.conf',
];

const START_TIMEOUT_MS = 5000;

/** The root window's string properties (the x11 backend's X connection). */
export interface RootProperties {
  get(name: string): Promise<string | null>;
  /** Sets the property; null deletes it. */
  set(name: string, value: string | null): Promise<void>;
}

export interface AccessibilityBus {
  /** The D-Bus address applications and the host connect to. */
  address: string;
  /** `display`: the display had one; `started`: this host started it. */
  origin: 'display' | 'started';
  close(): Promise<void>;
}

/** The bus the display names, else one this host starts; null (and why) when neither can be had. */
export async function accessibilityBus(
  root: RootProperties,
  options: { dbusDaemon?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<AccessibilityBus | { unavailable: string }> {
  const named = (await root.get(AT_SPI_BUS_PROPERTY))?.trim() ?? '';
  // A bus whose socket is gone (its session, or a host that was killed, left the property behind)
  // is replaced by one of this host's own.
  if (named !== '' && !isStale(named)) {
    return { address: named, origin: 'display', close: async () => undefined };
  }
  const config = BUS_CONFIGS.find((path) => existsSync(path));
  const registryd = REGISTRY_DAEMONS.find((path) => existsSync(path));
  if (!config || !registryd) {
    return {
      unavailable: `at-spi2-core is not installed (no ${config ? 'at-spi2-registryd' : 'accessibility.conf'}): install at-spi2-core`,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'screen-host-atspi-'));
  let daemon: ChildProcess;
  try {
    daemon = spawn(
      options.dbusDaemon ?? 'dbus-daemon',
      [
        `--config-file=${config}`,
        '--nofork',
        '--print-address=1',
        `--address=unix:path=${join(dir, 'bus')}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env },
    );
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `dbus-daemon could not be started: ${(err as Error).message}` };
  }
  const stop = () => stopChild(daemon).finally(() => rmSync(dir, { recursive: true, force: true }));
  const address = await new Promise<string | Error>((resolve) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => resolve(new Error(`no address within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    daemon.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const line = /^(\S+)\n/.exec(out);
      if (line) {
        clearTimeout(timer);
        resolve(line[1]);
      }
    });
    daemon.stderr!.on('data', (d: Buffer) => (err = (err + String(d)).slice(-2000)));
    daemon.once('error', (e) => {
      clearTimeout(timer);
      resolve(e);
    });
    daemon.once('exit', (code) => {
      clearTimeout(timer);
      resolve(new Error(`dbus-daemon exited (${code}): ${err.trim()}`));
    });
  });
  if (address instanceof Error) {
    await stop();
    return { unavailable: `the accessibility bus could not be started: ${address.message}` };
  }
  daemon.stdout!.resume();
  daemon.stderr!.resume();
  // Its session bus is the accessibility bus too: it must not go looking for another one.
  const registry = spawn(registryd, [], {
    stdio: 'ignore',
    env: { PATH: process.env.PATH, AT_SPI_BUS_ADDRESS: address, DBUS_SESSION_BUS_ADDRESS: address },
  });
  registry.on('error', () => undefined); // a registry that does not start: no applications
  // Without it GTK and LibreOffice still publish (they read AT_SPI_BUS); Qt does not.
  const launcher: BusService | null = await serveBusLauncher(address).catch(() => null);
  const stopAll = async () => {
    launcher?.close();
    await stopChild(registry);
    await stop();
  };
  try {
    await root.set(AT_SPI_BUS_PROPERTY, address);
  } catch (err) {
    await stopAll();
    return {
      unavailable: `the bus could not be announced on the display: ${(err as Error).message}`,
    };
  }
  return {
    address,
    origin: 'started',
    close: async () => {
      // Taken away only while it is still ours: another bus may have been announced since.
      const now = await root.get(AT_SPI_BUS_PROPERTY).catch(() => null);
      if (now === address) await root.set(AT_SPI_BUS_PROPERTY, null).catch(() => {});
      await stopAll();
    },
  };
}

/**
 * Whether a D-Bus address names only Unix socket paths, none of which exists any more (an
 * abstract socket or a TCP address cannot be checked so: taken as live).
 */
export function isStale(address: string, exists: (path: string) => boolean = existsSync): boolean {
  const paths: string[] = [];
  for (const entry of address.split(';')) {
    const [transport, params = ''] = entry.split(/:(.*)/s);
    const path = /(?:^|,)path=([^,]*)/.exec(params)?.[1];
    if (transport !== 'unix' || path === undefined) return false;
    paths.push(decodeURIComponent(path));
  }
  return paths.length > 0 && !paths.some((p) => exists(p));
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
      return resolve();
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 2000).unref();
  });
}
