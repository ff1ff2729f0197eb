/**
 * Screens against real parts: sim screen hosts over real HTTPS (in-process), small hand-made HTTPS
 * and TLS servers that misbehave on purpose, and a real PostgreSQL database.
 */
import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
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
import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import { DataSource } from 'typeorm';
import {
  createCertificate,
  CreatedCertificate,
  RunningScreenHost,
  startScreenHost,
} from '../screen-host/src';
import type { ScreenBackend } from '../screen-host/src/backends/backend';
import { SimBackend } from '../screen-host/src/backends/sim/sim-backend';
import { SapGuiProvider } from '../screen-host/src/backends/windows/sapgui/sapgui-provider';
import { DoctorReport, DoctorService } from '../src/computer-use/doctor/doctor.service';
import { decodePng, pixelSha256, ScreenError } from '../src/computer-use/pixels/pixels';
import { ScreenHostError } from '../src/computer-use/host-client/screen-host-error';
import {
  ScreenHost,
  ScreenHostClient,
  ScreenHostTarget,
} from '../src/computer-use/host-client/screen-host.client';
import { ScreensModule } from '../src/computer-use/screens/screens.module';
import { ScreensService } from '../src/computer-use/screens/screens.service';
import { AuditModule } from '../src/audit/audit.module';
import { loadConfig } from '../src/config/app-config';
import { ConfigModule } from '../src/config/config.module';
import { databaseOptions } from '../src/database/database.options';
import { ReleasedSecret, SecretGrants, SecretRefused } from '../src/secrets/secret-grants.service';
import { SecretsModule } from '../src/secrets/secrets.module';
import { createTestDatabase, TestDatabase } from './support/database';
import { corruptIdat } from './support/crafted-png';

const TOKEN = randomBytes(24).toString('hex');
const TOKEN_ENV = `WARDEN_SCREENS_E2E_TOKEN_${randomBytes(3).toString('hex').toUpperCase()}`;
const UNSET_ENV = `WARDEN_SCREENS_E2E_UNSET_${randomBytes(3).toString('hex').toUpperCase()}`;

/** Short bounds, so that failure cases finish quickly. */
const client = new ScreenHostClient({
  connectTimeoutMs: 1000,
  screenshotTimeoutMs: 1500,
  elementsTimeoutMs: 1500,
  healthTimeoutMs: 1500,
  actionTimeoutMs: 3000,
  lookupTimeoutMs: 1500,
  retryBackoffMs: 50,
  caDir: tmpdir(),
});

let certA: CreatedCertificate & { cert: Buffer; key: Buffer };
let certB: CreatedCertificate & { cert: Buffer; key: Buffer };
let sim: RunningScreenHost;

async function certificate(): Promise<CreatedCertificate & { cert: Buffer; key: Buffer }> {
  const created = await createCertificate(mkdtempSync(join(tmpdir(), 'warden-screens-')));
  return { ...created, cert: readFileSync(created.certPath), key: readFileSync(created.keyPath) };
}

function target(url: string, overrides: Partial<ScreenHostTarget> = {}): ScreenHostTarget {
  return {
    screen_url: url,
    screen_token_env: TOKEN_ENV,
    screen_tls: { fingerprint_sha256: certA.fingerprintSha256 },
    ...overrides,
  };
}

async function refusal(promise: Promise<unknown>): Promise<SecretRefused> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SecretRefused) return error;
    throw error;
  }
  throw new Error('expected a SecretRefused, the secret was released');
}

async function failure(promise: Promise<unknown>): Promise<ScreenHostError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ScreenHostError) return error;
    throw error;
  }
  throw new Error('expected a ScreenHostError, the call succeeded');
}

function expectNoToken(error: Error): void {
  expect(error.message).not.toContain(TOKEN);
  expect(JSON.stringify(error)).not.toContain(TOKEN);
  expect(String(error.stack)).not.toContain(TOKEN);
}

/** Closes a server and every connection it holds. */
interface Closable {
  url: string;
  close(): Promise<void>;
}

function track(server: NetServer): () => Promise<void> {
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

async function listen(server: NetServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

interface FakeHost extends Closable {
  requests: Array<{ method: string; path: string; authorization?: string }>;
  connections: () => number;
}

/** An HTTPS server with certificate A that answers as `handler` says. */
async function fakeHost(
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

interface Recorder extends Closable {
  received: () => Buffer;
  /** TCP connections accepted (a TLS 1.3 client that drops the handshake is never "secure" here). */
  connections: () => number;
}

/** A raw TLS server with `cert` that records every decrypted byte and never answers. */
async function recordingTlsServer(cert: { cert: Buffer; key: Buffer }): Promise<Recorder> {
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

function png(width: number, height: number, fill = 200): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(fill);
  return PNG.sync.write(image);
}

function sendPng(
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

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A loopback port where nothing listens. */
async function deadPort(): Promise<number> {
  const server = createNetServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const cleanups: Array<() => Promise<void>> = [];
async function later<T extends Closable>(closable: Promise<T>): Promise<T> {
  const value = await closable;
  cleanups.push(() => value.close());
  return value;
}

/** Secret grants as the operator makes them, in a real database (DESIGN §7). */
let grantsDb: TestDatabase;
let grantsModule: TestingModule;
let grants: SecretGrants;
/** The sim's token, released for the sim's origin. */
let simToken: ReleasedSecret;

/** The target, with its token granted to its origin in tenant acme (when the URL has one). */
async function granted(t: ScreenHostTarget): Promise<ScreenHostTarget> {
  try {
    await grants.grant('acme', t.screen_token_env, new URL(t.screen_url).origin, 'os:test');
  } catch {
    // Not a grantable origin or variable: the check under test says why.
  }
  return t;
}

/** The host of `t`, its token granted and released as a step's would be. */
async function hostFor(t: ScreenHostTarget): Promise<ScreenHost> {
  await granted(t);
  const token = await grants.release({
    tenant: 'acme',
    envName: t.screen_token_env,
    destination: t.screen_url,
    what: "the screen host's token",
  });
  return client.forTarget(t, token);
}

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

describe('TLS', () => {
  it('talks to a host whose certificate matches the pinned fingerprint', async () => {
    const shot = await (await hostFor(target(sim.url))).screenshot();
    expect(shot).toMatchObject({ width: 1280, height: 800, pngWidth: 1280, pngHeight: 800 });
    expect(shot.pngSha256).toBe(createHash('sha256').update(shot.png).digest('hex'));
    expect(decodePng(shot.png).width).toBe(1280);
    // The host's frame hash is the pixel SHA-256 Warden computes from the PNG.
    expect(shot.frameSha256).toBe(pixelSha256(decodePng(shot.png)));
  });

  it('accepts the pin with colons and in upper case', async () => {
    const pin = certA.fingerprintSha256.toUpperCase().match(/../g)!.join(':');
    const host = await hostFor(target(sim.url, { screen_tls: { fingerprint_sha256: pin } }));
    await expect(host.screenshot()).resolves.toMatchObject({ width: 1280 });
  });

  it('talks to a host whose certificate the CA file vouches for', async () => {
    const host = await hostFor(target(sim.url, { screen_tls: { ca_file: certA.certPath } }));
    await expect(host.screenshot()).resolves.toMatchObject({ width: 1280, height: 800 });
  });

  it('sends nothing, not even the token, to a host whose certificate is not the pinned one', async () => {
    const impostor = await later(recordingTlsServer(certB));
    const error = await failure((await hostFor(target(impostor.url))).screenshot());
    expect(error.kind).toBe('tls');
    expect(error.requestSent).toBe(false);
    expect(error.message).toContain(`fingerprint ${certB.fingerprintSha256}`);
    expect(error.message).toContain(`pins ${certA.fingerprintSha256}`);
    expect(error.message).toContain('nothing was sent');
    expectNoToken(error);
    await new Promise((r) => setTimeout(r, 200));
    expect(impostor.connections()).toBeGreaterThanOrEqual(1);
    expect(impostor.received()).toHaveLength(0);

    // The recorder does record: pinned to its own certificate, the request reaches it.
    const control = await hostFor(
      target(impostor.url, { screen_tls: { fingerprint_sha256: certB.fingerprintSha256 } }),
    );
    const timedOut = await failure(control.screenshot({ attempts: 1 }));
    expect(timedOut.kind).toBe('timeout');
    expect(impostor.received().toString('latin1')).toContain(`Bearer ${TOKEN}`);
  });

  it('refuses a pinned host when the certificate does not match, on the real sim host too', async () => {
    const host = await hostFor(
      target(sim.url, { screen_tls: { fingerprint_sha256: certB.fingerprintSha256 } }),
    );
    const error = await failure(host.screenshot());
    expect(error).toMatchObject({ kind: 'tls', fingerprintSha256: certA.fingerprintSha256 });
  });

  it("refuses a self-signed host with the system's CAs, and with another CA file", async () => {
    const system = await failure(
      (await hostFor(target(sim.url, { screen_tls: undefined }))).screenshot(),
    );
    expect(system.kind).toBe('tls');
    expect(system.message).toMatch(/the system's CAs do not accept: it is self-signed/);
    expect(system.message).toContain(certA.fingerprintSha256);
    const otherCa = await failure(
      (await hostFor(target(sim.url, { screen_tls: { ca_file: certB.certPath } }))).screenshot(),
    );
    expect(otherCa.kind).toBe('tls');
    expect(otherCa.message).toContain(`the CA in ${certB.certPath}`);
  });

  it('refuses http:// and unusable TLS settings as configuration errors', () => {
    const config = (t: ScreenHostTarget) => {
      try {
        client.forTarget(t, simToken);
      } catch (error) {
        return error as ScreenHostError;
      }
      throw new Error('accepted');
    };
    expect(config(target(sim.url.replace('https:', 'http:')))).toMatchObject({
      kind: 'config',
      message: 'screen_url must be https:// (it is http://): a screen host speaks TLS only',
    });
    expect(config(target(sim.url, { screen_tls: { fingerprint_sha256: 'abc' } })).message).toMatch(
      /64 hex digits, colons optional/,
    );
    expect(
      config(target(sim.url, { screen_tls: { ca_file: '/nonexistent/ca.pem' } })).message,
    ).toBe(`screen_tls.ca_file must be a file under the deployment's CA_DIR (${tmpdir()})`);
    const missing = join(tmpdir(), `warden-missing-${randomBytes(4).toString('hex')}.pem`);
    expect(config(target(sim.url, { screen_tls: { ca_file: missing } })).message).toBe(
      `screen_tls.ca_file ${JSON.stringify(missing)} cannot be read (ENOENT)`,
    );
    expect(
      config(target(sim.url, { screen_tls: { ca_file: join(tmpdir(), '..', 'etc', 'passwd') } }))
        .message,
    ).toMatch(/must be a file under the deployment's CA_DIR/);
    expect(config(target(sim.url, { screen_token_env: 'not a name' })).kind).toBe('config');
    expect(config(target(`https://user:secret@127.0.0.1:${sim.port}`)).message).toMatch(
      /must not contain a user or password/,
    );
  });

  it('says so when the host speaks plain HTTP on an https:// URL', async () => {
    const plain = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      insecureLoopback: true,
    });
    cleanups.push(() => plain.close());
    const error = await failure(
      (await hostFor(target(plain.url.replace('http:', 'https:')))).screenshot({ attempts: 1 }),
    );
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(/does not speak TLS there \(plain HTTP\?\)/);
  });
});

describe('the token', () => {
  it('is refused by the host when wrong: unauthorized, naming the variable, never quoting a token', async () => {
    const wrongEnv = `${TOKEN_ENV}_WRONG`;
    const wrong = randomBytes(24).toString('hex');
    process.env[wrongEnv] = wrong;
    try {
      const error = await failure(
        (await hostFor(target(sim.url, { screen_token_env: wrongEnv }))).screenshot(),
      );
      expect(error.kind).toBe('unauthorized');
      expect(error.status).toBe(401);
      expect(error.message).toContain(`refused the token in ${wrongEnv}`);
      expect(error.message).not.toContain(wrong);
      expectNoToken(error);
    } finally {
      delete process.env[wrongEnv];
    }
  });

  it('is not released when its variable is not set, and nothing is sent', async () => {
    const recorder = await later(recordingTlsServer(certA));
    const error = await refusal(hostFor(target(recorder.url, { screen_token_env: UNSET_ENV })));
    expect(error).toMatchObject({
      reason: 'unset',
      message: `the screen host's token variable ${UNSET_ENV} is not set on the Warden host`,
    });
    expect(recorder.connections()).toBe(0);
  });

  it('is not released for an origin it is not granted for, and nothing is sent', async () => {
    const recorder = await later(recordingTlsServer(certA));
    const error = await refusal(
      grants.release({
        tenant: 'acme',
        envName: TOKEN_ENV,
        destination: recorder.url,
        what: "the screen host's token",
      }),
    );
    expect(error.reason).toBe('not_granted');
    expect(error.fix).toBe(
      `npm run cli -- secrets grant --tenant acme --env ${TOKEN_ENV} --to ${new URL(recorder.url).origin}`,
    );
    // Granted to acme, not to globex.
    await expect(
      refusal(
        grants.release({
          tenant: 'globex',
          envName: TOKEN_ENV,
          destination: sim.url,
          what: "the screen host's token",
        }),
      ),
    ).resolves.toMatchObject({ reason: 'not_granted' });
    expect(recorder.connections()).toBe(0);
  });

  it('goes only to the origin it was released for', async () => {
    const recorder = await later(recordingTlsServer(certA));
    // The sim's token, handed to a host at another origin: refused before any connection.
    const elsewhere = client.forTarget(target(recorder.url), simToken);
    const error = await failure(elsewhere.screenshot({ attempts: 1 }));
    expect(error.kind).toBe('config');
    expect(error.message).toContain(`was released for ${new URL(sim.url).origin}`);
    expect(recorder.connections()).toBe(0);
    expect(recorder.received().toString('latin1')).not.toContain(TOKEN);
  });

  it('is read when it is released, so a changed variable applies to the next step', async () => {
    const env = `${TOKEN_ENV}_LATER`;
    await expect(
      refusal(hostFor(target(sim.url, { screen_token_env: env }))),
    ).resolves.toMatchObject({ reason: 'unset' });
    process.env[env] = TOKEN;
    try {
      const host = await hostFor(target(sim.url, { screen_token_env: env }));
      await expect(host.health()).resolves.toMatchObject({ backend: 'sim' });
    } finally {
      delete process.env[env];
    }
  });
});

describe('a host that is down, slow or answers garbage', () => {
  it('down: unreachable, quickly, after bounded retries', async () => {
    const port = await deadPort();
    const started = Date.now();
    const error = await failure((await hostFor(target(`https://127.0.0.1:${port}`))).screenshot());
    expect(error.kind).toBe('unreachable');
    expect(error.message).toMatch(
      /unreachable: connection refused, nothing listens there \(ECONNREFUSED\)/,
    );
    expect(error.requestSent).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('slow (accepts, never answers): timeout within the bound, after 3 attempts', async () => {
    const silent = await later(recordingTlsServer(certA));
    const started = Date.now();
    const error = await failure((await hostFor(target(silent.url))).screenshot());
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer GET \/screenshot within 1500 ms/);
    expect(error.requestSent).toBe(true);
    // 3 × 1.5 s plus backoff (50 + 100 ms, jitter): about 4.7 s; the upper bound allows a busy machine.
    expect(elapsed).toBeGreaterThanOrEqual(4400);
    expect(elapsed).toBeLessThan(8000);
    expect(silent.connections()).toBe(3);
  });

  it('slow to shake hands (TCP only): a connect timeout', async () => {
    const tcp = createNetServer(() => undefined);
    const close = track(tcp);
    cleanups.push(close);
    const port = await listen(tcp);
    const started = Date.now();
    const error = await failure(
      (await hostFor(target(`https://127.0.0.1:${port}`))).screenshot({ attempts: 1 }),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not finish the TLS handshake within 1000 ms/);
    expect(Date.now() - started).toBeLessThan(1600);
  });

  it('retries 5xx and a connection cut mid-answer, then gives up', async () => {
    let calls = 0;
    const flaky = await later(
      fakeHost((req, res) => {
        calls++;
        if (calls === 1) {
          sendJson(res, 503, { message: 'backend busy' });
        } else if (calls === 2) {
          res.writeHead(200, {
            'content-type': 'image/png',
            'content-length': 1000,
            'x-screen-width': '10',
            'x-screen-height': '10',
          });
          res.write(Buffer.alloc(10));
          setTimeout(() => req.socket.destroy(), 20);
        } else {
          sendPng(res, png(10, 10), 10, 10);
        }
      }),
    );
    const shot = await (await hostFor(target(flaky.url))).screenshot();
    expect(shot).toMatchObject({ width: 10, pngWidth: 10 });
    expect(calls).toBe(3);

    const always503 = await later(
      fakeHost((_req, res) => sendJson(res, 503, { message: 'backend busy' })),
    );
    const error = await failure((await hostFor(target(always503.url))).screenshot());
    expect(error).toMatchObject({ kind: 'refused', status: 503 });
    expect(error.message).toContain('answered GET /screenshot with 503: backend busy');
    expect(always503.requests).toHaveLength(3);
  });

  describe('bad answers', () => {
    const good = () => png(40, 20);
    const cases: Array<[string, (res: ServerResponse) => void, RegExp]> = [
      [
        'garbage with an HTML type',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>proxy error</html>');
        },
        /answered GET \/screenshot with content type "text\/html", not image\/png/,
      ],
      [
        'garbage that claims to be a PNG',
        (res) => sendPng(res, Buffer.from('definitely not a png'), 40, 20),
        /answered GET \/screenshot with 20 bytes that are not a PNG/,
      ],
      [
        'a truncated PNG',
        (res) => {
          const full = good();
          sendPng(res, full.subarray(0, full.length - 30), 40, 20);
        },
        /a PNG that is cut off \(\d+ bytes, no IEND end marker\)/,
      ],
      [
        'no X-Screen-Width',
        (res) => {
          const body = good();
          res.writeHead(200, { 'content-type': 'image/png', 'x-screen-height': '20' });
          res.end(body);
        },
        /with no X-Screen-Width header/,
      ],
      [
        'a negative X-Screen-Height',
        (res) => sendPng(res, good(), 40, -20),
        /X-Screen-Height "-20", not a positive whole number/,
      ],
      [
        'a zero X-Screen-Width',
        (res) => sendPng(res, good(), 0, 20),
        /X-Screen-Width "0", not a positive/,
      ],
      [
        'a fractional X-Screen-Width',
        (res) => sendPng(res, good(), '40.5', 20),
        /X-Screen-Width "40.5"/,
      ],
      [
        'a PNG larger than 8192 on a side',
        (res) => {
          const body = good();
          body.writeUInt32BE(9000, 16); // width in IHDR; the CRC no longer matches either
          sendPng(res, body, 40, 20);
        },
        /a PNG Warden cannot use/,
      ],
    ];

    it.each(cases)('%s: bad_answer with a clear message', async (_name, answer, message) => {
      const host = await later(fakeHost((_req, res) => answer(res)));
      const error = await failure((await hostFor(target(host.url))).screenshot());
      expect(error.kind).toBe('bad_answer');
      expect(error.message).toMatch(message);
      expectNoToken(error);
      expect(host.requests).toHaveLength(1); // a bad answer is not retried
    });

    it('a 100 MiB body: refused from its Content-Length without reading it', async () => {
      let written = 0;
      const host = await later(
        fakeHost((_req, res) => {
          res.writeHead(200, {
            'content-type': 'image/png',
            'content-length': 100 * 1024 * 1024,
            'x-screen-width': '10',
            'x-screen-height': '10',
          });
          const block = Buffer.alloc(1024 * 1024);
          const pump = () => {
            while (written < 100 * 1024 * 1024) {
              written += block.length;
              if (!res.write(block)) return void res.once('drain', pump);
            }
            res.end();
          };
          pump();
        }),
      );
      const error = await failure((await hostFor(target(host.url))).screenshot());
      expect(error).toMatchObject({ kind: 'bad_answer' });
      expect(error.message).toContain(
        'answered GET /screenshot with 100 MiB; at most 32 MiB is accepted',
      );
    });

    it('a 100 MiB body without a length: refused once past 32 MiB, and the host survives', async () => {
      const host = await later(
        fakeHost((_req, res) => {
          res.writeHead(200, {
            'content-type': 'image/png',
            'x-screen-width': '10',
            'x-screen-height': '10',
          });
          const block = Buffer.alloc(1024 * 1024, 7);
          let sent = 0;
          const pump = () => {
            while (sent < 100) {
              sent++;
              if (!res.write(block)) return void res.once('drain', pump);
            }
            res.end();
          };
          res.on('close', () => (sent = 100));
          pump();
        }),
      );
      const error = await failure((await hostFor(target(host.url))).screenshot());
      expect(error.kind).toBe('bad_answer');
      expect(error.message).toContain('more than 32 MiB; at most 32 MiB is accepted');
      // The process and the client are fine: the next call to a good host works.
      await expect((await hostFor(target(sim.url))).screenshot()).resolves.toBeDefined();
    });

    it('elements and health: not JSON, the wrong shape, too large', async () => {
      const host = await later(
        fakeHost((req, res) => {
          if (req.url === '/elements') {
            sendJson(res, 200, [
              { id: 'a', role: 'button', name: 'Save', rect: { x: 1, y: 2, width: 3, height: 4 } },
              {
                id: 'b',
                role: 'button',
                name: 'Post',
                rect: { x: 1, y: 2, width: 'wide', height: 4 },
              },
            ]);
          } else if (req.url === '/health') {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end('{"backend": "sim", capabilities');
          } else {
            sendJson(
              res,
              200,
              Array.from({ length: 40_000 }, (_, i) => ({
                id: `e${i}`,
                role: 'text',
                name: 'x'.repeat(40),
                rect: { x: 0, y: 0, width: 1, height: 1 },
              })),
            );
          }
        }),
      );
      const h = await hostFor(target(host.url));
      expect(await failure(h.elements())).toMatchObject({
        kind: 'bad_answer',
        message: expect.stringContaining(
          'answered GET /elements with element 1 has no numeric rect.width',
        ),
      });
      expect((await failure(h.health())).message).toMatch(
        /GET \/health with \d+ bytes that do not parse as JSON/,
      );
    });

    it('an outline answered 503 (an accessibility bus that did not answer) is no outline; 500 is an error', async () => {
      const host = await later(
        fakeHost((_req, res) =>
          sendJson(res, 503, {
            statusCode: 503,
            error: 'Service Unavailable',
            message: 'the accessibility bus did not give an outline: GetItems was not answered',
          }),
        ),
      );
      const h = await hostFor(target(host.url));
      // The step then has no outline: its labels come from OCR, and an unlabelled click is a write.
      await expect(h.elements()).resolves.toBeNull();
      const broken = await later(
        fakeHost((_req, res) => sendJson(res, 500, { message: 'internal error' })),
      );
      const error = await failure((await hostFor(target(broken.url))).elements());
      expect(error).toMatchObject({ kind: 'refused', status: 500 });
    });

    it('an outline over 2 MiB is refused', async () => {
      const big = JSON.stringify(
        Array.from({ length: 30_000 }, (_, i) => ({
          id: `e${i}`,
          role: 'text',
          name: 'x'.repeat(40),
          rect: { x: 0, y: 0, width: 1, height: 1 },
        })),
      );
      expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
      const host = await later(
        fakeHost((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(big);
        }),
      );
      const error = await failure((await hostFor(target(host.url))).elements());
      expect(error.kind).toBe('bad_answer');
      expect(error.message).toContain('at most 2 MiB is accepted');
    });

    it('an action answered with something other than {ok: true, ms}', async () => {
      const host = await later(fakeHost((_req, res) => sendJson(res, 200, { done: 'yes' })));
      const error = await failure(
        (await hostFor(target(host.url))).act({ action: 'key', key: 'Tab' }, 'step-1'),
      );
      expect(error).toMatchObject({ kind: 'bad_answer', requestSent: true });
      expect(error.message).toContain('answered POST /action with not {ok: true, ms}');
    });

    it('a host message that quotes the token back is redacted', async () => {
      const host = await later(
        fakeHost((req, res) =>
          sendJson(res, 400, { message: `bad header ${String(req.headers.authorization)}` }),
        ),
      );
      const error = await failure(
        (await hostFor(target(host.url))).act({ action: 'key', key: 'Tab' }, 'k'),
      );
      expect(error.kind).toBe('refused');
      expect(error.message).toContain('bad header Bearer [token]');
      expectNoToken(error);
    });
  });
});

describe('the sim screen host', () => {
  it('gives its outline, its health, and performs an action once per Idempotency-Key', async () => {
    await fetchSim('/sim/reset');
    const host = await hostFor(target(sim.url));
    const outline = await host.elements();
    const field = outline!.find((e) => e.name === 'Command field')!;
    expect(field).toMatchObject({ role: 'textbox', rect: { width: expect.any(Number) } });
    await expect(host.health()).resolves.toMatchObject({
      backend: 'sim',
      width: 1280,
      height: 800,
      capabilities: expect.arrayContaining(['idempotency']),
    });
    const click = {
      action: 'click' as const,
      x: field.rect.x + 5,
      y: field.rect.y + 5,
    };
    const key = `step-${randomBytes(4).toString('hex')}`;
    const first = await host.act(click, key);
    expect(first).toMatchObject({ ok: true, replayed: false });
    expect(first.ms).toEqual(expect.any(Number));
    await expect(host.act(click, key)).resolves.toMatchObject({ ok: true, replayed: true });
    const events = (await fetchSim('/sim/events', 'GET')).events as Array<{ type: string }>;
    expect(events.filter((e) => e.type === 'action')).toHaveLength(1);
    const conflict = await failure(host.act({ ...click, x: click.x + 1 }, key));
    expect(conflict).toMatchObject({ kind: 'refused', status: 409 });
  });

  it('refuses to send done, fail and wait to a host', async () => {
    const host = await hostFor(target(sim.url));
    await expect(host.act({ action: 'wait', seconds: 1 }, 'k')).rejects.toThrow(TypeError);
  });

  it('answers no outline as null', async () => {
    const bare = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
      elements: false,
    });
    cleanups.push(() => bare.close());
    await expect((await hostFor(target(bare.url))).elements()).resolves.toBeNull();
  });

  it('keeps the connection alive across calls', async () => {
    const host = await later(fakeHost((_req, res) => sendPng(res, png(10, 10), 10, 10)));
    const h = await hostFor(target(host.url));
    for (let i = 0; i < 20; i++) await h.screenshot();
    expect(host.connections()).toBe(1);
    expect(host.requests).toHaveLength(20);
  });
});

describe('looking up an action by its Idempotency-Key', () => {
  it('reads 200 as performed with the stored answer, 404 as not performed', async () => {
    const host = await later(
      fakeHost((req, res) => {
        if (req.url === '/actions/step%2F1') sendJson(res, 200, { ok: true, ms: 1.5 });
        else
          sendJson(res, 404, {
            statusCode: 404,
            error: 'Not Found',
            message: 'no action with this Idempotency-Key',
          });
      }),
    );
    const h = await hostFor(target(host.url));
    await expect(h.lookupAction('step/1')).resolves.toEqual({
      performed: true,
      result: { ok: true, ms: 1.5 },
    });
    await expect(h.lookupAction('step-2')).resolves.toEqual({ performed: false });
    expect(host.requests.map((r) => r.path)).toEqual(['/actions/step%2F1', '/actions/step-2']);
  });

  it('does not read a host without the route as "not performed"', async () => {
    // An older screen host has no GET /actions/{key}: its 404 is "no route".
    const host = await later(
      fakeHost((req, res) =>
        sendJson(res, 404, {
          statusCode: 404,
          error: 'Not Found',
          message: `no route GET ${req.url}`,
        }),
      ),
    );
    const error = await failure((await hostFor(target(host.url))).lookupAction('step-1'));
    expect(error.kind).toBe('refused');
    expect(error.message).toMatch(/cannot look up actions/);
  });

  it('reads a stored failure as unknown, never as performed', async () => {
    const host = await later(
      fakeHost((req, res) => {
        if (req.url === '/actions/step-failed') {
          res.setHeader('idempotency-replayed', 'true');
          sendJson(res, 500, {
            statusCode: 500,
            error: 'Internal Server Error',
            message: 'the action could not be performed: xdotool exited with 1',
          });
        } else {
          // A host before the faithful lookup: the stored failure's body, with a 200.
          sendJson(res, 200, { statusCode: 500, error: 'Internal Server Error', message: 'x' });
        }
      }),
    );
    const h = await hostFor(target(host.url));
    await expect(h.lookupAction('step-failed')).resolves.toEqual({
      performed: 'unknown',
      message: 'the action could not be performed: xdotool exited with 1',
    });
    await expect(h.lookupAction('step-old-host')).resolves.toMatchObject({
      performed: 'unknown',
    });
  });

  it('a screen host whose action failed: failed, then looked up as unknown', async () => {
    const failing = await startScreenHost({
      backend: {
        name: 'failing',
        size: () => ({ width: 100, height: 100 }),
        screenshot: async () => ({ png: png(100, 100), width: 100, height: 100 }),
        perform: async () => {
          throw new Error('SendInput delivered 1 of 2 events');
        },
        elements: () => null,
        typingTarget: () => 'unknown',
        close: async () => undefined,
      },
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
    });
    cleanups.push(() => failing.close());
    const h = await hostFor(target(failing.url));
    const error = await failure(h.act({ action: 'key', key: 'Enter' }, 'step-half-way'));
    expect(error).toMatchObject({ kind: 'failed', status: 500, requestSent: true });
    expect(error.message).toContain('SendInput delivered 1 of 2 events');
    await expect(h.lookupAction('step-half-way')).resolves.toEqual({
      performed: 'unknown',
      message: 'the action could not be performed: SendInput delivered 1 of 2 events',
    });
    // Sent again under the same key, it is not performed again: the stored failure comes back.
    expect((await failure(h.act({ action: 'key', key: 'Enter' }, 'step-half-way'))).kind).toBe(
      'failed',
    );
  });

  it("reads the screen host's own answers: a performed key, then an unknown one", async () => {
    const h = await hostFor(target(sim.url));
    await expect(h.lookupAction('never-sent')).resolves.toEqual({ performed: false });
    await h.act({ action: 'scroll', x: 10, y: 10, direction: 'down', amount: 1 }, 'lookup-1');
    await expect(h.lookupAction('lookup-1')).resolves.toEqual({
      performed: true,
      result: { ok: true, ms: expect.any(Number) },
    });
  });
});

describe('the frame precondition through the client', () => {
  const simEvents = async () =>
    ((await fetchSim('/sim/events', 'GET')).events as Array<{ type: string }>).filter(
      (e) => e.type === 'action',
    );

  it('announces frame_precondition, and acts on the frame it was judged on', async () => {
    await fetchSim('/sim/reset');
    const h = await hostFor(target(sim.url));
    expect((await h.health())!.capabilities).toContain('frame_precondition');
    const shot = await h.screenshot();
    expect(shot.frameSha256).toMatch(/^[0-9a-f]{64}$/);
    await expect(
      h.act({ action: 'type', text: 'VA02' }, 'frame-1', { expect: shot.frameSha256! }),
    ).resolves.toMatchObject({ ok: true, replayed: false });
    expect(await simEvents()).toHaveLength(1);
  });

  it('a screen that changed is screen_changed, nothing is done, and the key may act later', async () => {
    await fetchSim('/sim/reset');
    const h = await hostFor(target(sim.url));
    const judged = await h.screenshot();
    await fetchSim('/sim/popup', 'POST', {
      title: 'Save changes?',
      message: 'Save?',
      buttons: ['Yes', 'No'],
    });
    const action = { action: 'key' as const, key: 'Enter' };
    const error = await failure(h.act(action, 'frame-2', { expect: judged.frameSha256! }));
    expect(error).toMatchObject({ kind: 'screen_changed', status: 409, requestSent: true });
    expect(await simEvents()).toEqual([]);
    await expect(h.lookupAction('frame-2')).resolves.toEqual({ performed: false });
    const now = await h.screenshot();
    await expect(h.act(action, 'frame-2', { expect: now.frameSha256! })).resolves.toMatchObject({
      ok: true,
      replayed: false,
    });
    expect(await simEvents()).toHaveLength(1);
  });

  it('leaves out X-Frame-Ignore rectangles, given in frame pixels', async () => {
    await fetchSim('/sim/reset');
    const h = await hostFor(target(sim.url));
    const judged = await h.screenshot();
    await fetchSim('/sim/poke', 'POST', { message: 'the clock moved' });
    const statusBar = { x: 0, y: 772, width: 1280, height: 28 };
    const action = { action: 'key' as const, key: 'Tab' };
    const refused = await failure(
      h.act(action, 'frame-3', { expect: judged.frameSha256!, ignore: [] }),
    );
    expect(refused.kind).toBe('screen_changed');
    await expect(
      h.act(action, 'frame-3', { expect: judged.frameSha256!, ignore: [statusBar] }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('a frame the host no longer holds is frame_unknown', async () => {
    const h = await hostFor(target(sim.url));
    const error = await failure(
      h.act({ action: 'key', key: 'Tab' }, 'frame-4', { expect: '0f'.repeat(32) }),
    );
    expect(error).toMatchObject({ kind: 'frame_unknown', status: 409 });
  });

  it('refuses a malformed frame before anything is sent', async () => {
    const host = await later(fakeHost((_req, res) => sendJson(res, 200, { ok: true, ms: 1 })));
    const h = await hostFor(target(host.url));
    const tab = { action: 'key' as const, key: 'Tab' };
    await expect(h.act(tab, 'k', { expect: 'AB'.repeat(32) })).rejects.toThrow(TypeError);
    await expect(
      h.act(tab, 'k', { expect: 'ab'.repeat(32), ignore: [{ x: 0, y: 0, width: 0, height: 1 }] }),
    ).rejects.toThrow(/frame.ignore: rectangle 0: width/);
    expect(host.requests).toEqual([]);
  });

  it('sends X-Expect-Frame and X-Frame-Ignore, and reads what a host answers', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const replies: Array<(res: ServerResponse) => void> = [
      (res) => sendJson(res, 200, { ok: true, ms: 1 }),
      (res) => sendJson(res, 409, { statusCode: 409, error: 'screen_changed', message: 'no' }),
      (res) => sendJson(res, 503, { statusCode: 503, message: 'could not capture the screen' }),
      (res) => sendJson(res, 409, { statusCode: 409, error: 'frame_unknown', message: 'gone' }),
    ];
    const host = await later(
      fakeHost((req, res) => {
        seen.push({
          expect: req.headers['x-expect-frame'],
          ignore: req.headers['x-frame-ignore'],
        });
        replies.shift()!(res);
      }),
    );
    const h = await hostFor(target(host.url));
    const tab = { action: 'key' as const, key: 'Tab' };
    const frame = {
      expect: '12'.repeat(32),
      ignore: [
        { x: 1, y: 2, width: 3, height: 4 },
        { x: 2558, y: 0, width: 2, height: 1600 },
      ],
    };
    await expect(h.act(tab, 'k1', frame)).resolves.toMatchObject({ ok: true });
    expect((await failure(h.act(tab, 'k2', frame))).kind).toBe('screen_changed');
    expect((await failure(h.act(tab, 'k3', frame))).kind).toBe('failed');
    // A frame refusal for an action sent without a frame is not believed.
    expect((await failure(h.act(tab, 'k4'))).kind).toBe('bad_answer');
    expect(seen).toEqual([
      { expect: frame.expect, ignore: '1,2,3,4;2558,0,2,1600' },
      { expect: frame.expect, ignore: '1,2,3,4;2558,0,2,1600' },
      { expect: frame.expect, ignore: '1,2,3,4;2558,0,2,1600' },
      { expect: undefined, ignore: undefined },
    ]);
  });

  it('a backend that serves PNGs only (as windows): the host names the frame Warden decodes', async () => {
    // Like System.Drawing's: 32-bit RGBA, with ancillary chunks (gAMA, pHYs) after the header.
    const image = new PNG({ width: 300, height: 200 });
    for (let i = 0; i < image.data.length; i++) image.data[i] = i % 4 === 3 ? 255 : (i * 13) & 0xff;
    const plain = PNG.sync.write(image, { colorType: 6 });
    const chunk = (type: string, data: Buffer) => {
      const out = Buffer.alloc(12 + data.length);
      out.writeUInt32BE(data.length, 0);
      out.write(type, 4, 'latin1');
      data.copy(out, 8);
      out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
      return out;
    };
    const gama = Buffer.alloc(4);
    gama.writeUInt32BE(45455, 0);
    const phys = Buffer.from([0, 0, 0x0e, 0xc4, 0, 0, 0x0e, 0xc4, 1]);
    const served = Buffer.concat([
      plain.subarray(0, 33),
      chunk('gAMA', gama),
      chunk('pHYs', phys),
      plain.subarray(33),
    ]);
    const pngOnly = await startScreenHost({
      backend: {
        name: 'png-only',
        size: () => ({ width: 300, height: 200 }),
        screenshot: async () => ({ png: served, width: 300, height: 200 }),
        perform: async () => undefined,
        elements: () => null,
        typingTarget: () => 'unknown',
        close: async () => undefined,
      },
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
    });
    cleanups.push(() => pngOnly.close());
    const h = await hostFor(target(pngOnly.url));
    const shot = await h.screenshot();
    expect(shot.frameSha256).toBe(pixelSha256(decodePng(shot.png)));
    await expect(
      h.act({ action: 'key', key: 'Tab' }, 'png-only-1', { expect: shot.frameSha256! }),
    ).resolves.toMatchObject({ ok: true });
    const report = await new DoctorService(client, grants).check(
      'acme',
      await granted(target(pngOnly.url)),
    );
    expect(report.checks.find((c) => c.name === 'frame_precondition')).toMatchObject({ ok: true });
  });

  it('a malformed X-Frame-SHA256 on a screenshot is a bad answer', async () => {
    const host = await later(
      fakeHost((_req, res) => sendPng(res, png(10, 10), 10, 10, 'NOT-A-HASH')),
    );
    const error = await failure((await hostFor(target(host.url))).screenshot({ attempts: 1 }));
    expect(error.kind).toBe('bad_answer');
    expect(error.message).toContain('X-Frame-SHA256 "NOT-A-HASH", not a frame SHA-256');
  });
});

async function fetchSim(path: string, method = 'POST', body: unknown = {}): Promise<any> {
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

describe('ScreensService: the content-addressed store', () => {
  let db: TestDatabase;
  let moduleRef: TestingModule;
  let screens: ScreensService;

  beforeAll(async () => {
    db = await createTestDatabase();
    moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(databaseOptions({ DATABASE_URL: db.url })),
        ConfigModule.forRoot(loadConfig({})),
        AuditModule,
        ScreensModule,
      ],
    }).compile();
    await moduleRef.init();
    screens = moduleRef.get(ScreensService);
    await db.sql(`INSERT INTO tenants (id) VALUES ('acme'), ('globex')`);
  });

  afterAll(async () => {
    await moduleRef?.close();
    await db?.drop();
  });

  it('stores a screen once per distinct SHA-256 and gives back the exact bytes', async () => {
    const shot = await (await hostFor(target(sim.url))).screenshot();
    const first = await screens.store('acme', shot);
    const second = await screens.store('acme', { png: Buffer.from(shot.png) });
    const decoded = decodePng(shot.png);
    expect(first).toEqual({
      sha256: shot.pngSha256,
      pixelSha256: pixelSha256(decoded),
      width: 1280,
      height: 800,
    });
    expect(second).toEqual(first);
    const rows = await db.sql<{ n: string }>(
      `SELECT count(*) AS n FROM screens WHERE sha256 = $1`,
      [shot.pngSha256],
    );
    expect(rows[0].n).toBe('1');
    const back = await screens.get('acme', shot.pngSha256);
    expect(back!.equals(shot.png)).toBe(true);
  });

  it('keeps tenants apart', async () => {
    const image = png(30, 30, 17);
    const stored = await screens.store('acme', { png: image });
    await expect(screens.get('globex', stored.sha256)).resolves.toBeNull();
    await screens.store('globex', { png: image });
    await expect(screens.get('globex', stored.sha256)).resolves.toEqual(image);
    const rows = await db.sql(`SELECT tenant FROM screens WHERE sha256 = $1 ORDER BY tenant`, [
      stored.sha256,
    ]);
    expect(rows).toEqual([{ tenant: 'acme' }, { tenant: 'globex' }]);
  });

  it('stores a re-encoding as its own screen with the same pixel hash', async () => {
    const image = new PNG({ width: 16, height: 8 });
    image.data.fill(99);
    const a = await screens.store('acme', { png: PNG.sync.write(image, { filterType: 0 }) });
    const b = await screens.store('acme', {
      png: PNG.sync.write(image, { filterType: 4, deflateLevel: 1 }),
    });
    expect(a.sha256).not.toBe(b.sha256);
    expect(a.pixelSha256).toBe(b.pixelSha256);
  });

  it('stores inside the caller transaction, and a rolled-back store leaves nothing behind', async () => {
    const dataSource = moduleRef.get(DataSource);
    const image = png(12, 12, 3);
    await expect(
      dataSource.transaction(async (manager) => {
        await screens.store('acme', { png: image }, { manager });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const sha = createHash('sha256').update(image).digest('hex');
    await expect(screens.get('acme', sha)).resolves.toBeNull();
    // Known to the process now, but still stored when asked again.
    await screens.store('acme', { png: image });
    await expect(screens.get('acme', sha)).resolves.toEqual(image);
  });

  it("checks a screen with its host's frame hash as far as asked: its structure, or its data too", async () => {
    const image = png(64, 64, 41);
    const damaged = corruptIdat(image);
    const facts = { pixelSha256: pixelSha256(decodePng(image)) };
    // Inflating (the default, and a run's first screen) refuses it and stores nothing.
    await expect(screens.store('acme', { png: damaged, ...facts })).rejects.toThrow(
      /compressed pixel data does not inflate|damaged/,
    );
    const sha = createHash('sha256').update(damaged).digest('hex');
    expect(await db.sql(`SELECT 1 FROM screens WHERE sha256 = $1`, [sha])).toHaveLength(0);
    // A read's screen has its structure checked: every chunk and CRC is sound, so it is stored.
    await expect(
      screens.store('acme', { png: damaged, ...facts }, { check: 'structure' }),
    ).resolves.toMatchObject({ sha256: sha, width: 64, height: 64 });
    await expect(screens.get('acme', sha)).resolves.toEqual(damaged);
    // Where a person must see it (a held write), its data is inflated: refused, again and again.
    await expect(screens.checkData({ sha256: sha, png: damaged })).rejects.toThrow(ScreenError);
    await expect(screens.checkData({ sha256: sha, png: damaged })).rejects.toThrow(ScreenError);
    // And asked to inflate the stored screen, store refuses it too.
    await expect(screens.store('acme', { png: damaged, ...facts })).rejects.toThrow(ScreenError);
    // A CRC that fails is refused whatever the check.
    const flipped = Buffer.from(image);
    flipped[50] ^= 1;
    await expect(
      screens.store('acme', { png: flipped, ...facts }, { check: 'structure' }),
    ).rejects.toThrow(/fails its CRC check/);
  });

  it('refuses a PNG that does not decode and stores nothing; get refuses malformed hashes', async () => {
    const broken = png(10, 10).subarray(0, 50);
    await expect(screens.store('acme', { png: broken })).rejects.toThrow(ScreenError);
    const sha = createHash('sha256').update(broken).digest('hex');
    expect(await db.sql(`SELECT 1 FROM screens WHERE sha256 = $1`, [sha])).toHaveLength(0);
    await expect(screens.get('acme', "' OR 1=1 --")).resolves.toBeNull();
  });
});

describe('DoctorService', () => {
  let doctor: DoctorService;

  beforeAll(() => {
    doctor = new DoctorService(client, grants);
  });

  const check = (report: DoctorReport, name: string) => report.checks.find((c) => c.name === name)!;

  it('is all green on a sim host, and sends no action', async () => {
    await fetchSim('/sim/reset');
    const report = await doctor.check('acme', await granted(target(sim.url)));
    expect(report.checks.map((c) => c.name)).toEqual([
      'config',
      'token_grant',
      'token_variable',
      'reachable',
      'tls',
      'token_accepted',
      'screenshot',
      'screen_size',
      'outline',
      'idempotency',
      'frame_precondition',
    ]);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(check(report, 'frame_precondition').detail).toMatch(
      /checks the frame each action was judged on/,
    );
    expect(report.ok).toBe(true);
    expect(check(report, 'tls').detail).toBe(
      `certificate ${certA.fingerprintSha256} verified by the pinned fingerprint`,
    );
    expect(check(report, 'screen_size').detail).toBe("actions use 1280x800, the PNG's own pixels");
    expect(check(report, 'outline').detail).toMatch(/^\d+ elements in the outline$/);
    expect(check(report, 'token_variable').detail).not.toContain(TOKEN);
    const events = (await fetchSim('/sim/events', 'GET')).events as unknown[];
    expect(events).toEqual([]);
  });

  it('says "no outline; labels will be read from pixels" when the host has none', async () => {
    const bare = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
      elements: false,
    });
    cleanups.push(() => bare.close());
    const report = await doctor.check(
      'acme',
      await granted(target(bare.url, { screen_tls: { ca_file: certA.certPath } })),
    );
    expect(report.ok).toBe(true);
    expect(check(report, 'outline')).toEqual({
      name: 'outline',
      ok: true,
      detail: 'no outline; labels will be read from pixels',
    });
    expect(check(report, 'tls').detail).toMatch(/verified by the CA file$/);
  });

  it('on a host next to SAP GUI, says what SAP GUI Scripting gives it, and names the profile parameter where the server refuses', async () => {
    const fixture = JSON.parse(
      readFileSync(
        join(__dirname, '../screen-host/test/fixtures/sapgui/va02-initial.snapshot.json'),
        'utf8',
      ),
    ) as Record<string, unknown>;
    const { trees, ...rest } = fixture;
    const snapshot = {
      ...rest,
      trees_b64: (trees as unknown[]).map((t) => Buffer.from(JSON.stringify(t)).toString('base64')),
    };
    let refusal: Record<string, string> | null = null;
    // The windows backend but for its PowerShell helpers: SAP GUI's answers are the fixture's.
    const screen = new SimBackend('en');
    const sap = new SapGuiProvider(
      'tree',
      async (read) =>
        refusal ?? (read === 'probe' ? { state: 'ok', session: fixture.session } : snapshot),
    );
    const backend: ScreenBackend = {
      name: 'windows',
      size: () => screen.size(),
      screenshot: () => screen.screenshot(),
      perform: (action) => screen.perform(action),
      elements: () => sap.outline(screen.size()),
      health: async () => {
        const sapGui = await sap.health();
        return { elements: sapGui.state === 'ok', facts: { sap_gui: sapGui } };
      },
      typingTarget: () => 'unknown',
      close: () => screen.close(),
    };
    const host = await startScreenHost({
      backend,
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
    });
    cleanups.push(() => host.close());
    const at = target(host.url, { screen_tls: { ca_file: certA.certPath } });

    let report = await doctor.check('acme', await granted(at));
    expect(report.checks.map((c) => c.name).slice(-2)).toEqual([
      'frame_precondition',
      'sap_gui_scripting',
    ]);
    expect(check(report, 'sap_gui_scripting')).toMatchObject({
      ok: true,
      detail: expect.stringContaining(
        'SAP GUI Scripting reads the active session (system PRD, client 100, user WARDEN01, transaction VA02), read-only (sapgui/user_scripting_set_readonly) as recommended',
      ),
    });
    expect(check(report, 'outline').detail).toMatch(/^\d+ elements in the outline$/);

    refusal = { refused: 'disabled_by_server', detail: '1 of 1 connections say DisabledByServer' };
    report = await doctor.check('acme', await granted(at));
    expect(check(report, 'sap_gui_scripting')).toMatchObject({
      ok: false,
      detail: expect.stringContaining(
        'disabled_by_server: 1 of 1 connections say DisabledByServer',
      ),
      next_step: expect.stringContaining('sapgui/user_scripting = TRUE'),
    });
    expect(check(report, 'outline').detail).toBe('no outline; labels will be read from pixels');
    expect(report.ok).toBe(false);
  });

  it('each failure has a next step', async () => {
    const port = await deadPort();
    const down = await doctor.check('acme', await granted(target(`https://127.0.0.1:${port}`)));
    expect(down.ok).toBe(false);
    expect(check(down, 'reachable')).toMatchObject({
      ok: false,
      next_step: expect.stringMatching(/^start the screen host/),
    });

    const pinned = await doctor.check(
      'acme',
      await granted(
        target(sim.url, { screen_tls: { fingerprint_sha256: certB.fingerprintSha256 } }),
      ),
    );
    expect(check(pinned, 'reachable').ok).toBe(true);
    expect(check(pinned, 'tls')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining(
        `the certificate's fingerprint is ${certA.fingerprintSha256}, the config pins ${certB.fingerprintSha256}`,
      ),
    });
    expect(check(pinned, 'token_accepted')).toMatchObject({
      ok: false,
      detail: 'not checked: TLS failed, so nothing was sent',
    });

    const system = await doctor.check(
      'acme',
      await granted(target(sim.url, { screen_tls: undefined })),
    );
    expect(check(system, 'tls').next_step).toContain(
      `screen_tls.fingerprint_sha256 = ${certA.fingerprintSha256}`,
    );

    const unset = await doctor.check(
      'acme',
      await granted(target(sim.url, { screen_token_env: UNSET_ENV })),
    );
    expect(check(unset, 'token_variable')).toMatchObject({
      ok: false,
      next_step: `set the environment variable ${UNSET_ENV} on the Warden host (API and worker) to the screen host's token, then restart them`,
    });

    const wrongEnv = `${TOKEN_ENV}_DOCTOR`;
    process.env[wrongEnv] = randomBytes(24).toString('hex');
    try {
      const wrong = await doctor.check(
        'acme',
        await granted(target(sim.url, { screen_token_env: wrongEnv })),
      );
      expect(check(wrong, 'token_variable').ok).toBe(true);
      expect(check(wrong, 'token_accepted')).toMatchObject({
        ok: false,
        next_step: expect.stringContaining(`set ${wrongEnv} on the Warden host`),
      });
    } finally {
      delete process.env[wrongEnv];
    }

    const config = await doctor.check(
      'acme',
      await granted(target(sim.url.replace('https:', 'http:'))),
    );
    expect(check(config, 'config')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('PUT /api/admin/computer-use'),
    });
    expect(config.checks).toHaveLength(11);
  });

  it('names a missing grant and the command that adds it, without contacting the host', async () => {
    const recorder = await later(recordingTlsServer(certA));
    // No granted(): the operator never let this token go to this host.
    const report = await doctor.check('acme', target(recorder.url));
    const origin = new URL(recorder.url).origin;
    expect(check(report, 'token_grant')).toEqual({
      name: 'token_grant',
      ok: false,
      detail: expect.stringContaining(`is not granted for ${origin} in tenant acme`),
      next_step: `ask the deployment operator to run: npm run cli -- secrets grant --tenant acme --env ${TOKEN_ENV} --to ${origin}`,
    });
    expect(check(report, 'reachable').detail).toBe(
      'not checked: the token may not be sent to this host, so the host was not contacted',
    );
    expect(report.ok).toBe(false);
    // One of Warden's own variables can never be granted: the doctor says to name another.
    const own = await doctor.check(
      'acme',
      target(recorder.url, { screen_token_env: 'DATABASE_URL' }),
    );
    expect(check(own, 'token_grant').next_step).toMatch(
      /^name another variable in screen_token_env/,
    );
    expect(recorder.connections()).toBe(0);
  });

  it('checks the screenshot, its size against the headers (HiDPI), the outline and idempotency', async () => {
    const answers: Record<string, (res: ServerResponse) => void> = {};
    const host = await later(
      fakeHost((req, res) => {
        const answer = answers[req.url ?? ''];
        if (answer) answer(res);
        else sendJson(res, 404, { message: `no route ${req.method} ${req.url}` });
      }),
    );

    // HiDPI at an exact scale of 2: fine, and said so. No /health: no idempotency.
    answers['/screenshot'] = (res) => sendPng(res, png(200, 100), 100, 50);
    let report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screen_size')).toMatchObject({
      ok: true,
      detail: expect.stringContaining(
        'HiDPI: the PNG is 200x100, actions use 100x50, an exact scale of 2 on both axes',
      ),
    });
    expect(check(report, 'outline').detail).toBe('no outline; labels will be read from pixels');
    expect(check(report, 'idempotency')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('outcome_unknown'),
    });

    // 3/2, exact.
    answers['/screenshot'] = (res) => sendPng(res, png(150, 90), 100, 60);
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screen_size').detail).toContain('an exact scale of 3/2');

    // Axes that scale differently: clicks would land wrong.
    answers['/screenshot'] = (res) => sendPng(res, png(200, 100), 100, 60);
    answers['/health'] = (res) =>
      sendJson(res, 200, { backend: 'custom', capabilities: ['elements'] });
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screen_size')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('X-Screen-Width'),
    });
    expect(check(report, 'idempotency').detail).toContain('do not include idempotency');
    expect(check(report, 'frame_precondition')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('does not announce frame_precondition'),
    });

    // Announced, but the screenshot names no frame, or another frame than its pixels.
    answers['/health'] = (res) =>
      sendJson(res, 200, {
        backend: 'custom',
        capabilities: ['idempotency', 'frame_precondition'],
      });
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'frame_precondition')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('carries no X-Frame-SHA256'),
    });
    answers['/screenshot'] = (res) => sendPng(res, png(200, 100), 100, 50, 'ee'.repeat(32));
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'frame_precondition')).toMatchObject({
      ok: false,
      detail: expect.stringContaining("is not the SHA-256 of its PNG's pixels"),
    });
    const image = png(200, 100);
    answers['/screenshot'] = (res) => sendPng(res, image, 100, 50, pixelSha256(decodePng(image)));
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'frame_precondition').ok).toBe(true);

    // A screenshot that is not a PNG, an outline of the wrong shape.
    answers['/screenshot'] = (res) => sendPng(res, Buffer.from('GIF89a....'), 100, 60);
    answers['/elements'] = (res) => sendJson(res, 200, { elements: [] });
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screenshot')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('backend'),
    });
    expect(check(report, 'outline')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('not a list of elements'),
    });
    expect(report.ok).toBe(false);

    expect(host.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(host.requests.some((r) => r.path === '/action')).toBe(false);
  });
});
