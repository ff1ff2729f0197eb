/**
 * A real X display for a desktop application and the x11 screen host on it: Xvfb at 1280x800 and
 * the host as a process of its own over HTTPS with a certificate of its own, its token and its
 * action log. What runs on the display (the Tk form, GnuCash, LibreOffice Calc) is the caller's.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:https';
import { join } from 'node:path';
import type { OutlineElement } from '@warden/protocol';
import { ROOT } from '../../scripts/lib/processes';
import { createCertificate } from '../../screen-host/src';
import { stopChild } from './children';
import { until } from './until';
import { startXvfb } from './xvfb';

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
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const xvfb = await startXvfb(1280, 800);
    closers.push(() => xvfb.close());
    const { display } = xvfb;
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
    closers.push(() => stopChild(host));
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
