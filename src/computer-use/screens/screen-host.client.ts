/**
 * The client side of the screen host protocol (DESIGN §7): HTTPS only, the host's certificate
 * verified against a pinned SHA-256 fingerprint, a CA file or the system's CAs, a bearer token read
 * from its environment variable at each call, and every answer bounded in time and size and
 * checked before anyone uses it (DESIGN §11).
 *
 * Pinning works below HTTP: a connection is opened, the TLS handshake finished and the
 * certificate checked before the connection is handed to the HTTP client, so a request (and its
 * token) is never written to a host whose certificate does not match.
 */
import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { Action, OutlineElement } from '../actions/action.types';
import { secretFromEnv } from '../../config/app-config';
import { hasPngSignature, readPngHeader } from './png-decoder';
import { ScreenError, ScreenHostError } from './screen-error';

export { ScreenHostError } from './screen-error';
export type { ScreenHostErrorKind } from './screen-error';

/** What Warden needs to know about an agent's screen host (DESIGN §9). */
export interface ScreenHostTarget {
  screen_url: string;
  screen_token_env: string;
  screen_tls?: { fingerprint_sha256?: string; ca_file?: string } | null;
}

export interface Screenshot {
  png: Buffer;
  /** SHA-256 of the PNG bytes, hex. */
  pngSha256: string;
  /** `X-Screen-Width`: the coordinate space actions use. */
  width: number;
  /** `X-Screen-Height`. */
  height: number;
  /** The PNG's own pixels (larger than width × height on a HiDPI screen). */
  pngWidth: number;
  pngHeight: number;
}

export interface ActResult {
  ok: true;
  /** How long the host took to perform the action, by its own clock. */
  ms: number;
  /** The host had performed this Idempotency-Key before and answered its stored result. */
  replayed: boolean;
}

export type ActionLookup = { performed: true; result: unknown } | { performed: false };

export interface ScreenHostHealth {
  backend?: string;
  version?: string;
  width?: number;
  height?: number;
  capabilities: string[];
}

export type TlsVerification = 'pin' | 'ca_file' | 'pin and ca_file' | 'system';

/** The doctor's look at the connection: nothing but a TLS handshake, no request. */
export interface ConnectionProbe {
  reachable: boolean;
  tlsOk: boolean;
  verifiedBy: TlsVerification;
  /** The certificate the host presented, when the handshake got that far. */
  fingerprintSha256?: string;
  error?: ScreenHostError;
}

export interface ScreenHost {
  /** The screen URL, for messages. */
  readonly url: string;
  /** `GET /screenshot`, retried with backoff on connection failures, timeouts and 5xx. */
  screenshot(options?: { attempts?: number }): Promise<Screenshot>;
  /** `GET /elements`; null when the host has no outline (404). */
  elements(): Promise<OutlineElement[] | null>;
  /** `POST /action` with `Idempotency-Key`; never retried (see `lookupAction`). */
  act(action: Action, idempotencyKey: string): Promise<ActResult>;
  /** `GET /actions/{key}`: whether the host performed this key, and what it answered. */
  lookupAction(idempotencyKey: string): Promise<ActionLookup>;
  /** `GET /health`; null when the host has none (404). */
  health(): Promise<ScreenHostHealth | null>;
  /** Connects and checks the certificate without sending anything. */
  probe(): Promise<ConnectionProbe>;
}

export interface ScreenHostClientOptions {
  /** TCP connect plus TLS handshake. */
  connectTimeoutMs: number;
  /** Whole calls, from the first byte out to the last byte in. */
  screenshotTimeoutMs: number;
  elementsTimeoutMs: number;
  healthTimeoutMs: number;
  actionTimeoutMs: number;
  lookupTimeoutMs: number;
  /** Attempts for a screenshot (1 means no retry). */
  screenshotAttempts: number;
  /** The first retry waits this long, each further one twice as long (plus up to 25 % jitter). */
  retryBackoffMs: number;
  /** Connections kept per screen host. */
  maxSockets: number;
  /** An idle kept-alive connection is closed after this long (below the host's own keep-alive). */
  idleTimeoutMs: number;
}

export const DEFAULT_SCREEN_HOST_CLIENT_OPTIONS: ScreenHostClientOptions = {
  connectTimeoutMs: 3000,
  screenshotTimeoutMs: 10_000,
  elementsTimeoutMs: 5000,
  healthTimeoutMs: 5000,
  actionTimeoutMs: 30_000,
  lookupTimeoutMs: 5000,
  screenshotAttempts: 3,
  retryBackoffMs: 100,
  maxSockets: 4,
  idleTimeoutMs: 15_000,
};

export const SCREEN_HOST_CLIENT_OPTIONS = Symbol('SCREEN_HOST_CLIENT_OPTIONS');

export const MAX_SCREENSHOT_BYTES = 32 * 1024 * 1024;
export const MAX_ELEMENTS_BYTES = 2 * 1024 * 1024;
export const MAX_JSON_BYTES = 64 * 1024;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TOKEN_CHARS = /^[\x21-\x7e]+$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
const SCREEN_SIZE = /^[1-9][0-9]{0,4}$/;
const MAX_SCREEN_SIZE = 65535;
const IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const HOST_ACTIONS = new Set(['click', 'double_click', 'type', 'key', 'scroll']);

/** `AB:cd:…` or `abcd…` → 64 lower-case hex digits, or null. */
export function normaliseFingerprint(value: string): string | null {
  const hex = value.trim().replace(/:/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

interface ResolvedTarget {
  url: string;
  host: string;
  port: number;
  basePath: string;
  tokenEnv: string;
  pin: string | null;
  ca: Buffer | null;
  caFile: string | null;
  verifiedBy: TlsVerification;
  /** Same target, same TLS trust: same connection pool. */
  key: string;
}

/** Checks an agent's screen host settings; anything unusable is a `config` ScreenHostError. */
export function resolveTarget(target: ScreenHostTarget): ResolvedTarget {
  const config = (message: string) => new ScreenHostError('config', message);
  if (!target || typeof target.screen_url !== 'string') throw config('screen_url is missing');
  let url: URL;
  try {
    url = new URL(target.screen_url);
  } catch {
    throw config('screen_url is not a URL');
  }
  if (url.protocol !== 'https:') {
    throw config(
      `screen_url must be https:// (it is ${url.protocol}//): a screen host speaks TLS only`,
    );
  }
  if (url.username || url.password) {
    throw config(
      'screen_url must not contain a user or password; the token is named by screen_token_env',
    );
  }
  if (url.search || url.hash) throw config('screen_url must not have a query or fragment');
  if (typeof target.screen_token_env !== 'string' || !ENV_NAME.test(target.screen_token_env)) {
    throw config(
      'screen_token_env must be the name of an environment variable (letters, digits, _)',
    );
  }
  const tls = target.screen_tls ?? {};
  let pin: string | null = null;
  if (tls.fingerprint_sha256 !== undefined && tls.fingerprint_sha256 !== null) {
    pin =
      typeof tls.fingerprint_sha256 === 'string'
        ? normaliseFingerprint(tls.fingerprint_sha256)
        : null;
    if (!pin) {
      throw config(
        'screen_tls.fingerprint_sha256 must be the SHA-256 of the certificate: 64 hex digits, colons optional',
      );
    }
  }
  let ca: Buffer | null = null;
  const caFile = typeof tls.ca_file === 'string' && tls.ca_file !== '' ? tls.ca_file : null;
  if (tls.ca_file !== undefined && tls.ca_file !== null && !caFile) {
    throw config('screen_tls.ca_file must be a file path');
  }
  if (caFile) {
    try {
      ca = readFileSync(caFile);
    } catch (error) {
      throw config(
        `screen_tls.ca_file ${JSON.stringify(caFile)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw config(`screen_tls.ca_file ${JSON.stringify(caFile)} holds no PEM certificate`);
    }
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port ? Number(url.port) : 443;
  const basePath = url.pathname.replace(/\/+$/, '');
  const verifiedBy: TlsVerification = pin
    ? ca
      ? 'pin and ca_file'
      : 'pin'
    : ca
      ? 'ca_file'
      : 'system';
  const caDigest = ca ? createHash('sha256').update(ca).digest('hex') : '';
  return {
    url: `https://${url.host}${basePath}`,
    host,
    port,
    basePath,
    tokenEnv: target.screen_token_env,
    pin,
    ca,
    caFile,
    verifiedBy,
    key: `${url.host}|${pin ?? ''}|${caDigest}`,
  };
}

/** A connection failure before any request byte left: `tcpConnected` says how far it got. */
class ConnectError extends ScreenHostError {
  constructor(
    kind: 'unreachable' | 'timeout' | 'tls',
    message: string,
    readonly tcpConnected: boolean,
    fingerprintSha256?: string,
  ) {
    super(kind, message, { requestSent: false, fingerprintSha256 });
  }
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused, nothing listens there',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  EHOSTUNREACH: 'there is no route to it',
  ENETUNREACH: 'its network is unreachable',
  ECONNRESET: 'it closed the connection',
  EPIPE: 'it closed the connection',
  ETIMEDOUT: 'the connection timed out',
};

const UNTRUSTED: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in an untrusted self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it is not signed by a trusted CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is not signed by a trusted CA',
  UNABLE_TO_GET_ISSUER_CERT: 'it is not signed by a trusted CA',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it is not issued for this host name',
};

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * Opens a TLS connection and verifies the host before anything is written: the pin (SHA-256 of the
 * certificate's DER), else the CA file or the system's CAs with the host name. No session
 * resumption, so every connection shows its certificate.
 */
function connectVerified(t: ResolvedTarget, timeoutMs: number): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    let tcpConnected = false;
    let done = false;
    const socket = tlsConnect({
      host: t.host,
      port: t.port,
      servername: isIP(t.host) === 0 ? t.host : undefined,
      ca: t.ca ?? undefined,
      // Checked below, after the handshake and before the socket is given to HTTP.
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const fail = (error: ConnectError) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new ConnectError(
            'timeout',
            tcpConnected
              ? `the screen host at ${t.url} did not finish the TLS handshake within ${timeoutMs} ms`
              : `the screen host at ${t.url} did not accept a connection within ${timeoutMs} ms`,
            tcpConnected,
          ),
        ),
      timeoutMs,
    );
    socket.once('connect', () => (tcpConnected = true));
    socket.on('error', (error: Error) => {
      const code = errorCode(error);
      if (!tcpConnected) {
        fail(
          new ConnectError(
            'unreachable',
            `the screen host at ${t.url} is unreachable: ${UNREACHABLE[code] ?? error.message}${code ? ` (${code})` : ''}`,
            false,
          ),
        );
      } else {
        const reason = /wrong version number|packet length too long|http request/i.test(
          error.message,
        )
          ? 'it does not speak TLS there (plain HTTP?)'
          : `${UNREACHABLE[code] ?? error.message}`;
        fail(
          new ConnectError(
            'tls',
            `the TLS handshake with the screen host at ${t.url} failed: ${reason}`,
            true,
          ),
        );
      }
    });
    socket.once('secureConnect', () => {
      if (done) return;
      const cert = socket.getPeerCertificate();
      const raw = cert && (cert as { raw?: Buffer }).raw;
      if (!raw || raw.length === 0) {
        fail(new ConnectError('tls', `the screen host at ${t.url} presented no certificate`, true));
        return;
      }
      const fingerprint = createHash('sha256').update(raw).digest('hex');
      if (t.pin && fingerprint !== t.pin) {
        fail(
          new ConnectError(
            'tls',
            `the screen host at ${t.url} presented a certificate with SHA-256 fingerprint ${fingerprint}, but the configuration pins ${t.pin}; nothing was sent`,
            true,
            fingerprint,
          ),
        );
        return;
      }
      if ((!t.pin || t.ca) && !socket.authorized) {
        const code = String(socket.authorizationError ?? '');
        const by = t.caFile ? `the CA in ${t.caFile}` : "the system's CAs";
        fail(
          new ConnectError(
            'tls',
            `the screen host at ${t.url} presented a certificate that ${by} do not accept: ${UNTRUSTED[code] ?? code}; its SHA-256 fingerprint is ${fingerprint}; nothing was sent`,
            true,
            fingerprint,
          ),
        );
        return;
      }
      done = true;
      clearTimeout(timer);
      socket.setNoDelay(true);
      (socket as TLSSocket & { fingerprintSha256?: string }).fingerprintSha256 = fingerprint;
      resolve(socket);
    });
  });
}

/** A keep-alive agent whose every connection went through `connectVerified`. */
class VerifyingAgent extends Agent {
  constructor(
    private readonly target: ResolvedTarget,
    private readonly connectTimeoutMs: number,
    options: ScreenHostClientOptions,
  ) {
    super({
      keepAlive: true,
      keepAliveMsecs: 1000,
      maxSockets: options.maxSockets,
      maxFreeSockets: options.maxSockets,
      scheduling: 'lifo',
      timeout: options.idleTimeoutMs,
      maxCachedSessions: 0,
    });
  }

  override createConnection(
    _options: RequestOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    connectVerified(this.target, this.connectTimeoutMs).then(
      (socket) => callback?.(null, socket),
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  /** `GET /screenshot`, for messages. */
  what: string;
  timeoutMs: number;
  maxBytes: number;
  body?: Buffer;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class HttpsScreenHost implements ScreenHost {
  readonly url: string;

  constructor(
    private readonly target: ResolvedTarget,
    private readonly agent: Agent,
    private readonly options: ScreenHostClientOptions,
  ) {
    this.url = target.url;
  }

  // ---- the calls ----

  async screenshot(options: { attempts?: number } = {}): Promise<Screenshot> {
    const attempts = Math.max(1, Math.floor(options.attempts ?? this.options.screenshotAttempts));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.screenshotOnce();
      } catch (error) {
        const retriable =
          error instanceof ScreenHostError &&
          (error.kind === 'unreachable' ||
            error.kind === 'timeout' ||
            (error.kind === 'refused' && (error.status ?? 0) >= 500));
        if (!retriable || attempt >= attempts) throw error;
        const backoff = this.options.retryBackoffMs * 2 ** (attempt - 1);
        await sleep(backoff + Math.random() * backoff * 0.25);
      }
    }
  }

  private async screenshotOnce(): Promise<Screenshot> {
    const what = 'GET /screenshot';
    const answer = await this.send({
      method: 'GET',
      path: '/screenshot',
      what,
      timeoutMs: this.options.screenshotTimeoutMs,
      maxBytes: MAX_SCREENSHOT_BYTES,
      headers: { accept: 'image/png' },
    });
    this.expectOk(answer, what);
    const bad = (message: string) =>
      new ScreenHostError(
        'bad_answer',
        `the screen host at ${this.url} answered ${what} with ${message}`,
        {
          requestSent: true,
          status: answer.status,
        },
      );
    const type = String(answer.headers['content-type'] ?? '');
    if (!/^image\/png\s*(;|$)/i.test(type)) {
      throw bad(`content type ${JSON.stringify(type.slice(0, 80))}, not image/png`);
    }
    const width = this.screenSize(answer.headers['x-screen-width'], 'X-Screen-Width', bad);
    const height = this.screenSize(answer.headers['x-screen-height'], 'X-Screen-Height', bad);
    const png = answer.body;
    if (!hasPngSignature(png)) throw bad(`${size(png.length)} that are not a PNG`);
    let header;
    try {
      header = readPngHeader(png);
    } catch (error) {
      throw bad(
        `a PNG Warden cannot use: ${(error as ScreenError).message.replace(/^the PNG /, 'it ')}`,
      );
    }
    if (png.length < 45 || !png.subarray(png.length - 12).equals(IEND)) {
      throw bad(`a PNG that is cut off (${size(png.length)}, no IEND end marker)`);
    }
    return {
      png,
      pngSha256: createHash('sha256').update(png).digest('hex'),
      width,
      height,
      pngWidth: header.width,
      pngHeight: header.height,
    };
  }

  private screenSize(
    value: string | string[] | undefined,
    name: string,
    bad: (message: string) => ScreenHostError,
  ): number {
    if (value === undefined) throw bad(`no ${name} header`);
    const text = Array.isArray(value) ? value.join(',') : value.trim();
    if (!SCREEN_SIZE.test(text) || Number(text) > MAX_SCREEN_SIZE) {
      throw bad(
        `${name} ${JSON.stringify(text.slice(0, 40))}, not a positive whole number of pixels`,
      );
    }
    return Number(text);
  }

  async elements(): Promise<OutlineElement[] | null> {
    const what = 'GET /elements';
    const answer = await this.send({
      method: 'GET',
      path: '/elements',
      what,
      timeoutMs: this.options.elementsTimeoutMs,
      maxBytes: MAX_ELEMENTS_BYTES,
      headers: { accept: 'application/json' },
    });
    if (answer.status === 404) return null;
    this.expectOk(answer, what);
    const value = this.json(answer, what);
    if (!Array.isArray(value)) throw this.badJson(answer, what, 'not a list of elements');
    return value.map((item, n) => {
      const problem = outlineProblem(item);
      if (problem) throw this.badJson(answer, what, `element ${n} ${problem}`);
      return toOutlineElement(item as RawElement);
    });
  }

  async act(action: Action, idempotencyKey: string): Promise<ActResult> {
    if (!HOST_ACTIONS.has(action?.action)) {
      throw new TypeError(`a ${String(action?.action)} action is not sent to a screen host`);
    }
    if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new TypeError('the Idempotency-Key must be 1 to 200 printable ASCII characters');
    }
    const what = 'POST /action';
    const answer = await this.send({
      method: 'POST',
      path: '/action',
      what,
      timeoutMs: this.options.actionTimeoutMs,
      maxBytes: MAX_JSON_BYTES,
      body: Buffer.from(JSON.stringify(hostAction(action))),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': idempotencyKey,
      },
    });
    if (answer.status === 409) {
      throw new ScreenHostError(
        'refused',
        `the screen host at ${this.url} refused ${what}: this Idempotency-Key was already used for a different action`,
        { requestSent: true, status: 409 },
      );
    }
    this.expectOk(answer, what);
    const body = this.json(answer, what) as { ok?: unknown; ms?: unknown } | null;
    if (!body || body.ok !== true || typeof body.ms !== 'number' || !Number.isFinite(body.ms)) {
      throw this.badJson(answer, what, 'not {ok: true, ms}');
    }
    const replayed = String(answer.headers['idempotency-replayed'] ?? '').toLowerCase() === 'true';
    return { ok: true, ms: body.ms, replayed };
  }

  async lookupAction(idempotencyKey: string): Promise<ActionLookup> {
    if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new TypeError('the Idempotency-Key must be 1 to 200 printable ASCII characters');
    }
    const what = 'GET /actions/{key}';
    const answer = await this.send({
      method: 'GET',
      path: `/actions/${encodeURIComponent(idempotencyKey)}`,
      what,
      timeoutMs: this.options.lookupTimeoutMs,
      maxBytes: MAX_JSON_BYTES,
      headers: { accept: 'application/json' },
    });
    if (answer.status === 404) {
      // A host without the route answers 404 too; that must not read as "not performed".
      if (/^no route /i.test(this.hostMessage(answer))) {
        throw new ScreenHostError(
          'refused',
          `the screen host at ${this.url} cannot look up actions (it has no GET /actions/{key}), so whether the action was performed is unknown`,
          { requestSent: true, status: 404 },
        );
      }
      return { performed: false };
    }
    this.expectOk(answer, what);
    const result = this.json(answer, what);
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      throw this.badJson(answer, what, 'not a JSON object');
    }
    return { performed: true, result };
  }

  async health(): Promise<ScreenHostHealth | null> {
    const what = 'GET /health';
    const answer = await this.send({
      method: 'GET',
      path: '/health',
      what,
      timeoutMs: this.options.healthTimeoutMs,
      maxBytes: MAX_JSON_BYTES,
      headers: { accept: 'application/json' },
    });
    if (answer.status === 404) return null;
    this.expectOk(answer, what);
    const body = this.json(answer, what) as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw this.badJson(answer, what, 'not a JSON object');
    }
    const caps = body.capabilities;
    if (!Array.isArray(caps) || !caps.every((c) => typeof c === 'string')) {
      throw this.badJson(answer, what, 'no capabilities list');
    }
    const health: ScreenHostHealth = { capabilities: caps };
    if (typeof body.backend === 'string') health.backend = body.backend;
    if (typeof body.version === 'string') health.version = body.version;
    if (Number.isInteger(body.width)) health.width = body.width as number;
    if (Number.isInteger(body.height)) health.height = body.height as number;
    return health;
  }

  async probe(): Promise<ConnectionProbe> {
    const verifiedBy = this.target.verifiedBy;
    try {
      const socket = await connectVerified(this.target, this.options.connectTimeoutMs);
      const fingerprintSha256 = (socket as TLSSocket & { fingerprintSha256?: string })
        .fingerprintSha256;
      socket.destroy();
      return { reachable: true, tlsOk: true, verifiedBy, fingerprintSha256 };
    } catch (error) {
      const e = error as ConnectError;
      return {
        reachable: e.tcpConnected,
        tlsOk: false,
        verifiedBy,
        fingerprintSha256: e.fingerprintSha256,
        error: e,
      };
    }
  }

  // ---- HTTP ----

  /** The token, from its variable, now. Never kept. */
  private token(): string {
    const name = this.target.tokenEnv;
    const token = secretFromEnv(name);
    if (token === undefined) {
      throw new ScreenHostError(
        'config',
        `the environment variable ${name}, which holds the screen host's token, is not set on the Warden host`,
      );
    }
    if (!TOKEN_CHARS.test(token)) {
      throw new ScreenHostError(
        'config',
        `the environment variable ${name} holds characters a bearer token cannot carry (spaces, a line break or non-ASCII)`,
      );
    }
    return token;
  }

  private send(call: Call): Promise<Answer> {
    const token = this.token();
    const t = this.target;
    return new Promise<Answer>((resolve, reject) => {
      let settled = false;
      let sent = false;
      const fail = (error: ScreenHostError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(error);
      };
      let req: ReturnType<typeof request>;
      try {
        req = request({
          agent: this.agent,
          host: t.host,
          port: t.port,
          method: call.method,
          path: t.basePath + call.path,
          headers: {
            ...call.headers,
            authorization: `Bearer ${token}`,
            ...(call.body ? { 'content-length': String(call.body.length) } : {}),
          },
        });
      } catch (error) {
        reject(this.requestError(error as Error, call, false));
        return;
      }
      const timer = setTimeout(
        () =>
          fail(
            new ScreenHostError(
              'timeout',
              `the screen host at ${this.url} did not answer ${call.what} within ${seconds(call.timeoutMs)}`,
              { requestSent: sent },
            ),
          ),
        call.timeoutMs,
      );
      req.on('socket', () => (sent = true));
      req.on('error', (error) => fail(this.requestError(error, call, sent)));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        // Error answers are read only as far as a message needs; success answers up to the limit.
        const limit = status >= 200 && status < 300 ? call.maxBytes : MAX_JSON_BYTES;
        const tooLarge = (bytes: string) =>
          new ScreenHostError(
            'bad_answer',
            `the screen host at ${this.url} answered ${call.what} with ${bytes}; at most ${size(limit)} is accepted`,
            { requestSent: true, status },
          );
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > limit) {
          if (status >= 200 && status < 300) return fail(tooLarge(size(declared)));
        }
        const chunks: Buffer[] = [];
        let received = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (settled || truncated) return;
          if (received + chunk.length > limit) {
            if (status >= 200 && status < 300) return fail(tooLarge(`more than ${size(limit)}`));
            // Keep the start of an error answer for its message; drop the connection.
            chunks.push(chunk.subarray(0, limit - received));
            received = limit;
            truncated = true;
            finish();
            return;
          }
          chunks.push(chunk);
          received += chunk.length;
        });
        const finish = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (truncated) req.destroy();
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks, received) });
        };
        const cutOff = () =>
          fail(
            new ScreenHostError(
              'unreachable',
              `the connection to the screen host at ${this.url} closed in the middle of the answer to ${call.what} (after ${size(received)})`,
              { requestSent: true, status },
            ),
          );
        res.on('end', () => (res.complete ? finish() : cutOff()));
        res.on('error', cutOff);
        res.on('close', () => {
          if (!settled) (res.complete ? finish : cutOff)();
        });
      });
      req.end(call.body);
    });
  }

  private requestError(error: Error, call: Call, sent: boolean): ScreenHostError {
    if (error instanceof ScreenHostError) return error;
    const code = errorCode(error);
    if (code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN') {
      return new ScreenHostError(
        'config',
        `the request ${call.what} could not be built: a header value is invalid`,
      );
    }
    const reason =
      code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')
        ? 'it answered something that is not HTTP'
        : (UNREACHABLE[code] ?? `the connection failed (${code || error.message})`);
    const kind = code.startsWith('HPE_') ? 'bad_answer' : 'unreachable';
    return new ScreenHostError(
      kind,
      `the screen host at ${this.url} failed ${call.what}: ${reason}`,
      {
        requestSent: sent,
      },
    );
  }

  /** Throws for anything but 2xx: 401/403 unauthorized, other statuses refused with the host's message. */
  private expectOk(answer: Answer, what: string): void {
    const { status } = answer;
    if (status >= 200 && status < 300) return;
    const message = this.hostMessage(answer);
    const said = message ? `: ${message}` : '';
    if (status === 401 || status === 403) {
      throw new ScreenHostError(
        'unauthorized',
        `the screen host at ${this.url} refused the token in ${this.target.tokenEnv} (${status})${said}`,
        { requestSent: true, status },
      );
    }
    throw new ScreenHostError(
      'refused',
      `the screen host at ${this.url} answered ${what} with ${status}${said}`,
      { requestSent: true, status },
    );
  }

  /** The host's `message`, printable, short, and with the token (should it appear) cut out. */
  private hostMessage(answer: Answer): string {
    let text = answer.body.subarray(0, 4096).toString('utf8');
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed?.message === 'string') text = parsed.message;
    } catch {
      // Not JSON: the start of the text is the message.
    }
    const token = secretFromEnv(this.target.tokenEnv);
    if (token && token.length >= 4) text = text.split(token).join('[token]');
    // eslint-disable-next-line no-control-regex
    text = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }

  private json(answer: Answer, what: string): unknown {
    const type = String(answer.headers['content-type'] ?? '');
    if (!/^application\/([a-z.+-]+\+)?json\s*(;|$)/i.test(type)) {
      throw this.badJson(
        answer,
        what,
        `content type ${JSON.stringify(type.slice(0, 80))}, not JSON`,
      );
    }
    try {
      return JSON.parse(answer.body.toString('utf8')) as unknown;
    } catch {
      throw this.badJson(answer, what, `${size(answer.body.length)} that do not parse as JSON`);
    }
  }

  private badJson(answer: Answer, what: string, problem: string): ScreenHostError {
    return new ScreenHostError(
      'bad_answer',
      `the screen host at ${this.url} answered ${what} with ${problem}`,
      {
        requestSent: true,
        status: answer.status,
      },
    );
  }
}

interface RawElement {
  id: string;
  role: string;
  name: string;
  rect: { x: number; y: number; width: number; height: number };
  password?: boolean;
  focused?: boolean;
}

function outlineProblem(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'is not an object';
  const e = item as Record<string, unknown>;
  for (const field of ['id', 'role', 'name']) {
    if (typeof e[field] !== 'string') return `has no ${field} string`;
  }
  const rect = e.rect as Record<string, unknown> | null;
  if (typeof rect !== 'object' || rect === null) return 'has no rect';
  for (const field of ['x', 'y', 'width', 'height']) {
    const v = rect[field];
    if (typeof v !== 'number' || !Number.isFinite(v)) return `has no numeric rect.${field}`;
  }
  if ((rect.width as number) < 0 || (rect.height as number) < 0) return 'has a negative rect size';
  for (const field of ['password', 'focused']) {
    if (e[field] !== undefined && typeof e[field] !== 'boolean')
      return `has a ${field} that is not true or false`;
  }
  return null;
}

/** Only the fields of DESIGN §7, copied: nothing else the host sent comes along. */
function toOutlineElement(e: RawElement): OutlineElement {
  const element: OutlineElement = {
    id: e.id,
    role: e.role,
    name: e.name,
    rect: { x: e.rect.x, y: e.rect.y, width: e.rect.width, height: e.rect.height },
  };
  if (e.password !== undefined) element.password = e.password;
  if (e.focused !== undefined) element.focused = e.focused;
  return element;
}

/** The action's own fields only (DESIGN §5), in the form the host checks. */
function hostAction(action: Action): Record<string, unknown> {
  switch (action.action) {
    case 'click':
    case 'double_click':
      return action.target === undefined
        ? { action: action.action, x: action.x, y: action.y }
        : { action: action.action, x: action.x, y: action.y, target: action.target };
    case 'type':
      return { action: 'type', text: action.text };
    case 'key':
      return { action: 'key', key: action.key };
    case 'scroll':
      return {
        action: 'scroll',
        x: action.x,
        y: action.y,
        direction: action.direction,
        amount: action.amount,
      };
    default:
      throw new TypeError(`a ${action.action} action is not sent to a screen host`);
  }
}

/**
 * Hands out a `ScreenHost` per agent configuration. Connections are pooled (kept alive) per screen
 * URL and TLS trust; a changed pin or CA file gets a new pool.
 */
@Injectable()
export class ScreenHostClient implements OnModuleDestroy {
  private readonly options: ScreenHostClientOptions;
  private readonly agents = new Map<string, Agent>();
  private static readonly MAX_POOLS = 64;

  constructor(
    @Optional() @Inject(SCREEN_HOST_CLIENT_OPTIONS) options?: Partial<ScreenHostClientOptions>,
  ) {
    this.options = { ...DEFAULT_SCREEN_HOST_CLIENT_OPTIONS, ...options };
  }

  /** Throws a `config` ScreenHostError when the settings cannot work (not https, a bad pin…). */
  forTarget(target: ScreenHostTarget): ScreenHost {
    const resolved = resolveTarget(target);
    let agent = this.agents.get(resolved.key);
    if (agent) {
      // Most recently used last, so the oldest pool is the one closed when there are too many.
      this.agents.delete(resolved.key);
    } else {
      agent = new VerifyingAgent(resolved, this.options.connectTimeoutMs, this.options);
      while (this.agents.size >= ScreenHostClient.MAX_POOLS) {
        const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
        oldest.destroy();
        this.agents.delete(oldestKey);
      }
    }
    this.agents.set(resolved.key, agent);
    return new HttpsScreenHost(resolved, agent, this.options);
  }

  onModuleDestroy(): void {
    this.close();
  }

  /** Closes every kept-alive connection. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
