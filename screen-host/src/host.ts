/** Starting a screen host in-process: what the CLI does, and what Warden's tests and demo call. */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { ActionLog } from './action-log';
import type { ScreenBackend } from './backends/backend';
import { SimBackend } from './backends/sim/sim-backend';
import type { SimLang } from './backends/sim/sim-labels';
import { registerSimTestRoutes } from './backends/sim/sim-routes';
import type { SapGuiMode } from './backends/windows/sapgui/sapgui-provider';
import { WindowsBackend } from './backends/windows/windows-backend';
import { X11Backend } from './backends/x11/x11-backend';
import { buildServer } from './server';

export type BackendName = 'sim' | 'x11' | 'windows';

export type TlsOptions =
  { cert: string | Buffer; key: string | Buffer } | { certPath: string; keyPath: string };

export interface StartScreenHostOptions {
  /** A backend by name, or a backend object (for tests of the HTTP layer). */
  backend: BackendName | ScreenBackend;
  /** The bearer token; at least 32 characters. */
  token: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8443; 0 picks a free port. */
  port?: number;
  /** The certificate and key: PEM text, or file paths. Required unless `insecureLoopback`. */
  tls?: TlsOptions;
  /** Plain HTTP, allowed only on a loopback address, for local experiments. */
  insecureLoopback?: boolean;
  /** sim: labels in English (default) or German. */
  lang?: SimLang;
  /** Serve GET /elements where the backend has an outline (default true; false is `--no-elements`). */
  elements?: boolean;
  /** sim: GET /sim/events, POST /sim/poke, /sim/popup, /sim/reset, /sim/blink. */
  testRoutes?: boolean;
  /** Append every performed action to this JSON-lines file (default: no log). */
  actionLogPath?: string | null;
  /** x11: the display, default DISPLAY. */
  display?: string;
  /**
   * windows: SAP GUI Scripting for the outline: `tree` (default: GetObjectTree where the SAP GUI
   * release has it, element by element otherwise), `walk` (always element by element), `off`.
   */
  sapGui?: SapGuiMode;
  /**
   * windows: the PowerShell that reads SAP GUI (default the one of the screen helper); a 32-bit
   * SAP GUI's SapROTWr may need the 32-bit one (`C:\Windows\SysWOW64\WindowsPowerShell\v1.0\powershell.exe`).
   */
  sapGuiPowershell?: string;
  /** Log requests as JSON lines on stdout (default false). */
  logger?: boolean;
  /**
   * For tests of Warden against older hosts: false serves no frame hash, announces no
   * `frame_precondition` and ignores `X-Expect-Frame` (default true).
   */
  framePrecondition?: boolean;
}

export interface RunningScreenHost {
  /** e.g. `https://127.0.0.1:43817` */
  url: string;
  port: number;
  backend: ScreenBackend;
  close(): Promise<void>;
}

export const MIN_TOKEN_LENGTH = 32;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** PEM text as it is; a string that is no PEM is taken for a file path. */
function pem(value: string | Buffer): string | Buffer {
  return typeof value === 'string' && !value.includes('-----BEGIN') ? readFileSync(value) : value;
}

function tlsMaterial(tls: TlsOptions): { cert: string | Buffer; key: string | Buffer } {
  if ('certPath' in tls) {
    return { cert: readFileSync(tls.certPath), key: readFileSync(tls.keyPath) };
  }
  return { cert: pem(tls.cert), key: pem(tls.key) };
}

async function createBackend(options: StartScreenHostOptions): Promise<ScreenBackend> {
  if (typeof options.backend !== 'string') return options.backend;
  switch (options.backend) {
    case 'sim':
      return new SimBackend(options.lang ?? 'en');
    case 'x11':
      return X11Backend.start({ display: options.display, elements: options.elements });
    case 'windows':
      return WindowsBackend.start({
        // --no-elements: no outline is served, so SAP GUI is not read at all.
        sapGui: options.elements === false ? 'off' : options.sapGui,
        sapGuiPowershell: options.sapGuiPowershell,
      });
    default:
      throw new Error(`unknown backend "${String(options.backend)}": use sim, x11 or windows`);
  }
}

export async function startScreenHost(options: StartScreenHostOptions): Promise<RunningScreenHost> {
  if (typeof options.token !== 'string' || options.token.length < MIN_TOKEN_LENGTH) {
    throw new Error(`the screen host token must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  const host = options.host ?? '127.0.0.1';
  if (!options.tls && !options.insecureLoopback) {
    throw new Error(
      'a screen host needs TLS (a certificate and key); plain HTTP only with insecureLoopback',
    );
  }
  if (!options.tls && !LOOPBACK.has(host)) {
    throw new Error(
      'plain HTTP (insecure loopback) is allowed on 127.0.0.1, ::1 or localhost only',
    );
  }
  if (options.lang !== undefined && options.lang !== 'en' && options.lang !== 'de') {
    throw new Error('lang must be en or de');
  }
  if (options.sapGui !== undefined && !['tree', 'walk', 'off'].includes(options.sapGui)) {
    throw new Error('sapGui must be tree, walk or off');
  }
  const https = options.tls ? tlsMaterial(options.tls) : null;
  const backend = await createBackend(options);
  const recordedKeys = options.actionLogPath ? ActionLog.recordedKeys(options.actionLogPath) : [];
  const actionLog = options.actionLogPath ? new ActionLog(options.actionLogPath) : null;
  const sim = backend instanceof SimBackend ? backend : null;
  const testRoutes = Boolean(options.testRoutes && sim);
  const app = buildServer({
    backend,
    token: options.token,
    elements: options.elements ?? true,
    actionLog,
    recordedKeys,
    https,
    logger: options.logger ?? false,
    framePrecondition: options.framePrecondition ?? true,
    extraRoutes: testRoutes ? (instance) => registerSimTestRoutes(instance, sim!) : undefined,
    extraCapabilities: testRoutes ? ['sim-test-routes'] : [],
  });
  try {
    await app.listen({ host, port: options.port ?? 8443 });
  } catch (err) {
    await backend.close();
    await actionLog?.close();
    throw err;
  }
  const port = (app.server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    url: `${https ? 'https' : 'http'}://${urlHost}:${port}`,
    port,
    backend,
    close: () => {
      closing ??= (async () => {
        await app.close();
        await backend.close();
        await actionLog?.close();
      })();
      return closing;
    },
  };
}
