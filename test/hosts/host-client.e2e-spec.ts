/**
 * The screen host client against real parts, part one: TLS (pins, CA files, the system's CAs), the
 * token (released only for the host's origin, never sent elsewhere) and hosts that are down, slow
 * or answer garbage. A sim screen host over real HTTPS, hand-made servers that misbehave on
 * purpose, and secret grants in a real PostgreSQL database (test/support/screen-host-bed.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScreenHost } from '../../screen-host/src';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host-error';
import {
  ScreenHostClient,
  type ScreenHostTarget,
} from '../../src/computer-use/host-client/screen-host.client';
import { decodePng, pixelSha256 } from '../../src/computer-use/pixels/pixels';
import {
  TOKEN,
  TOKEN_ENV,
  UNSET_ENV,
  client,
  CLIENT_BOUNDS,
  certA,
  certB,
  sim,
  target,
  track,
  refusal,
  failure,
  expectNoToken,
  fakeHost,
  recordingTlsServer,
  png,
  sendPng,
  sendJson,
  deadPort,
  cleanups,
  later,
  listen,
  grants,
  simToken,
  hostFor,
  useScreenHostBed,
} from '../support/screen-host-bed';

useScreenHostBed();

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
      // The size bound, not the clock, must stop this read: 32 MiB over TLS can take longer than
      // the bed's short screenshot bound on a loaded machine.
      const patient = new ScreenHostClient({ ...CLIENT_BOUNDS, screenshotTimeoutMs: 120_000 });
      const error = await failure((await hostFor(target(host.url), patient)).screenshot());
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
