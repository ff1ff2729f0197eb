/**
 * A real X display for a desktop application and the x11 screen host on it: Xvfb at 1280x800 and
 * the host as a process of its own over HTTPS with a certificate of its own, its token and its
 * action log. What runs on the display (the Tk form, GnuCash, LibreOffice Calc) is the caller's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:https';
import { join } from 'node:path';
import type { OutlineElement } from '@warden/protocol';
import { ROOT } from '../../scripts/lib/processes';
import { createCertificate } from '../../screen-host/src';
import { until } from '../../test/support/until';

export interface X11Screen {
  /** The X display, `:N`. */
  display: string;
  url: string;
  fingerprint: string;
  token: string;
  /** A folder of its own, removed on close: the caller may keep its application's files there. */
  dir: string;
  /** The host's action log (JSON lines, one per action it performed or refused). */
  actions(): Array<Record<string, unknown>>;
  /** The host's outline as Warden asks for it (GET /elements over HTTPS); null when it has none. */
  elements(): Promise<OutlineElement[] | null>;
  close(): Promise<void>;
}

/** GET /elements of a host over HTTPS, its certificate the CA: the outline, or null (404, 503). */
function getElements(url: string, token: string, ca: Buffer): Promise<OutlineElement[] | null> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/elements', url),
      { ca, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += String(d)));
        res.on('end', () =>
          resolve(res.statusCode === 200 ? (JSON.parse(body) as OutlineElement[]) : null),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export function jsonLines(path: string): Array<Record<string, unknown>> {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function stopChild(child: ChildProcess | null | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

/** Ends the process group `child` leads (SIGTERM, then SIGKILL). */
export function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  const pid = child.pid;
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      resolve();
    }
    setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, 3000).unref();
  });
}

export interface X11ScreenOptions {
  /**
   * Serve the accessibility outline from AT-SPI (default true). False starts the host with
   * --no-elements: every label is then read from the pixels.
   */
  elements?: boolean;
}

/**
 * Xvfb at 1280x800, and the x11 screen host on it (which starts the display's accessibility bus:
 * start the applications after it).
 */
export async function startX11Screen(
  log: (line: string) => void,
  options: X11ScreenOptions = {},
): Promise<X11Screen> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-x11-'));
  const children: ChildProcess[] = [];
  const close = async () => {
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
    const display = `:${await until('X display from Xvfb', () => /(\d+)\n/.exec(displayOut)?.[1], 10_000, 100)}`;
    const cert = await createCertificate(join(dir, 'cert'));
    const token = randomBytes(32).toString('hex');
    const actionLog = join(dir, 'actions.log');
    const host = spawn(
      process.execPath,
      [
        ...['-r', '@swc-node/register', join(ROOT, 'screen-host', 'src', 'main.ts')],
        ...['--backend', 'x11', '--display', display, '--port', '0'],
        ...['--cert', cert.certPath, '--key', cert.keyPath, '--quiet', '--action-log', actionLog],
        ...(options.elements === false ? ['--no-elements'] : []),
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
    const url = await until(
      'x11 screen host',
      () => {
        if (host.exitCode !== null) throw new Error(`the x11 screen host exited: ${hostErr}`);
        return /listening on (\S+)/.exec(hostErr)?.[1];
      },
      60_000,
      100,
    );
    log(`x11 screen host on Xvfb ${display} over HTTPS, certificate pinned`);
    return {
      display,
      url,
      fingerprint: cert.fingerprintSha256,
      token,
      dir,
      actions: () => jsonLines(actionLog),
      elements: () => getElements(url, token, readFileSync(cert.certPath)),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
