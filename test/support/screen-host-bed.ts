/**
 * The bed the screen host e2e suites share (host-client, host-client-actions, screen-store,
 * doctor): a sim screen host over real HTTPS (in-process), small hand-made HTTPS and TLS servers
 * that misbehave on purpose, secret grants in a real PostgreSQL database, and a ScreenHostClient
 * with short bounds. Each spec file that imports it gets its own (Jest loads modules per file).
 */
import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  AddressInfo,
  createServer as createNetServer,
  Server as NetServer,
  Socket,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { PNG } from 'pngjs';
import {
  createCertificate,
  CreatedCertificate,
  RunningScreenHost,
  startScreenHost,
} from '../../screen-host/src';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host-error';
import {
  ScreenHost,
  ScreenHostClient,
  ScreenHostTarget,
} from '../../src/computer-use/host-client/screen-host.client';
import { AuditModule } from '../../src/audit/audit.module';
import { loadConfig } from '../../src/config/app-config';
import { ConfigModule } from '../../src/config/config.module';
import { databaseOptions } from '../../src/database/database.options';
import {
  ReleasedSecret,
  SecretGrants,
  SecretRefused,
} from '../../src/secrets/secret-grants.service';
import { SecretsModule } from '../../src/secrets/secrets.module';
import { createTestDatabase, TestDatabase } from './database';

export const TOKEN = randomBytes(24).toString('hex');
export const TOKEN_ENV = `WARDEN_SCREENS_E2E_TOKEN_${randomBytes(3).toString('hex').toUpperCase()}`;
export const UNSET_ENV = `WARDEN_SCREENS_E2E_UNSET_${randomBytes(3).toString('hex').toUpperCase()}`;

/** Short bounds, so that failure cases finish quickly. */
export const CLIENT_BOUNDS = {
  connectTimeoutMs: 1000,
  screenshotTimeoutMs: 1500,
  elementsTimeoutMs: 1500,
  healthTimeoutMs: 1500,
  actionTimeoutMs: 3000,
  lookupTimeoutMs: 1500,
  retryBackoffMs: 50,
  caDir: tmpdir(),
};
export const client = new ScreenHostClient(CLIENT_BOUNDS);

export let certA: CreatedCertificate & { cert: Buffer; key: Buffer };
export let certB: CreatedCertificate & { cert: Buffer; key: Buffer };
export let sim: RunningScreenHost;

async function certificate(): Promise<CreatedCertificate & { cert: Buffer; key: Buffer }> {
  const created = await createCertificate(mkdtempSync(join(tmpdir(), 'warden-screens-')));
  return { ...created, cert: readFileSync(created.certPath), key: readFileSync(created.keyPath) };
}

export function target(url: string, overrides: Partial<ScreenHostTarget> = {}): ScreenHostTarget {
  return {
    screen_url: url,
    screen_token_env: TOKEN_ENV,
    screen_tls: { fingerprint_sha256: certA.fingerprintSha256 },
    ...overrides,
  };
}

export async function refusal(promise: Promise<unknown>): Promise<SecretRefused> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SecretRefused) return error;
    throw error;
  }
  throw new Error('expected a SecretRefused, the secret was released');
}

export async function failure(promise: Promise<unknown>): Promise<ScreenHostError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ScreenHostError) return error;
    throw error;
  }
  throw new Error('expected a ScreenHostError, the call succeeded');
}

export function expectNoToken(error: Error): void {
  expect(error.message).not.toContain(TOKEN);
  expect(JSON.stringify(error)).not.toContain(TOKEN);
  expect(String(error.stack)).not.toContain(TOKEN);
}

/** Closes a server and every connection it holds. */
export interface Closable {
  url: string;
  close(): Promise<void>;
}

export function track(server: NetServer): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

export async function listen(server: NetServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export interface FakeHost extends Closable {
  requests: Array<{ method: string; path: string; authorization?: string }>;
  connections: () => number;
}

/** An HTTPS server with certificate A that answers as `handler` says. */
export async function fakeHost(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<FakeHost> {
  const requests: FakeHost['requests'] = [];
  let connections = 0;
  const server = createHttpsServer({ cert: certA.cert, key: certA.key }, (req, res) => {
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
    });
    res.on('error', () => undefined);
    handler(req, res);
  });
  server.on('secureConnection', () => connections++);
  server.on('clientError', () => undefined);
  const close = track(server);
  const port = await listen(server);
  return { url: `https://127.0.0.1:${port}`, requests, connections: () => connections, close };
}

export interface Recorder extends Closable {
  received: () => Buffer;
  /** TCP connections accepted (a TLS 1.3 client that drops the handshake is never "secure" here). */
  connections: () => number;
}

/** A raw TLS server with `cert` that records every decrypted byte and never answers. */
export async function recordingTlsServer(cert: { cert: Buffer; key: Buffer }): Promise<Recorder> {
  const chunks: Buffer[] = [];
  let connections = 0;
  const server = createTlsServer({ cert: cert.cert, key: cert.key }, (socket) => {
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined);
  });
  server.on('tlsClientError', () => undefined);
  server.on('connection', () => connections++);
  const close = track(server);
  const port = await listen(server);
  return {
    url: `https://127.0.0.1:${port}`,
    received: () => Buffer.concat(chunks),
    connections: () => connections,
    close,
  };
}

export function png(width: number, height: number, fill = 200): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(fill);
  return PNG.sync.write(image);
}

export function sendPng(
  res: ServerResponse,
  body: Buffer,
  width: number | string,
  height: number | string,
  frameSha256?: string,
) {
  res.writeHead(200, {
    'content-type': 'image/png',
    'content-length': body.length,
    'x-screen-width': String(width),
    'x-screen-height': String(height),
    ...(frameSha256 === undefined ? {} : { 'x-frame-sha256': frameSha256 }),
  });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A loopback port where nothing listens. */
export async function deadPort(): Promise<number> {
  const server = createNetServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const cleanups: Array<() => Promise<void>> = [];
export async function later<T extends Closable>(closable: Promise<T>): Promise<T> {
  const value = await closable;
  cleanups.push(() => value.close());
  return value;
}

/** Secret grants as the operator makes them, in a real database (docs/screen-host.md). */
let grantsDb: TestDatabase;
let grantsModule: TestingModule;
export let grants: SecretGrants;
/** The sim's token, released for the sim's origin. */
export let simToken: ReleasedSecret;

/** The target, with its token granted to its origin in tenant acme (when the URL has one). */
export async function granted(t: ScreenHostTarget): Promise<ScreenHostTarget> {
  try {
    await grants.grant('acme', t.screen_token_env, new URL(t.screen_url).origin, 'os:test');
  } catch {
    // Not a grantable origin or variable: the check under test says why.
  }
  return t;
}

/** The host of `t`, its token granted and released as a step's would be. */
export async function hostFor(
  t: ScreenHostTarget,
  using: ScreenHostClient = client,
): Promise<ScreenHost> {
  await granted(t);
  const token = await grants.release({
    tenant: 'acme',
    envName: t.screen_token_env,
    destination: t.screen_url,
    what: "the screen host's token",
  });
  return using.forTarget(t, token);
}

/**
 * Registers the bed's setup and teardown: call it once, at the top of a spec file, before its
 * tests use anything above.
 */
export function useScreenHostBed(): void {
  beforeAll(async () => {
    process.env[TOKEN_ENV] = TOKEN;
    delete process.env[UNSET_ENV];
    grantsDb = await createTestDatabase();
    grantsModule = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(databaseOptions({ DATABASE_URL: grantsDb.url })),
        ConfigModule.forRoot(loadConfig({})),
        AuditModule,
        SecretsModule,
      ],
    }).compile();
    await grantsModule.init();
    grants = grantsModule.get(SecretGrants);
    [certA, certB] = await Promise.all([certificate(), certificate()]);
    sim = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
      testRoutes: true,
    });
    await granted(target(sim.url));
    simToken = await grants.release({
      tenant: 'acme',
      envName: TOKEN_ENV,
      destination: sim.url,
      what: "the screen host's token",
    });
  });

  afterAll(async () => {
    await grantsModule?.close();
    await grantsDb?.drop();
    client.close();
    await Promise.all(cleanups.map((c) => c()));
    await sim?.close();
    delete process.env[TOKEN_ENV];
  });
}

export async function fetchSim(path: string, method = 'POST', body: unknown = {}): Promise<any> {
  // The sim's test routes, through a plain HTTPS call trusting certificate A.
  const { request } = await import('node:https');
  return new Promise((resolve, reject) => {
    const req = request(
      `${sim.url}${path}`,
      {
        method,
        ca: certA.cert,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? JSON.stringify(body) : undefined);
  });
}
