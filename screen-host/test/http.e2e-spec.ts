/**
 * The protocol over real HTTPS: the token, body limits, validation and Idempotency-Key.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckedAction } from '../src/actions';
import type { ScreenBackend } from '../src/backends/backend';
import { RunningScreenHost, startScreenHost } from '../src';
import { call, CallOptions, readJsonLines, tempCertificate, tempDir, TOKEN } from './helpers';

describe('screen host protocol over HTTPS (sim backend)', () => {
  let host: RunningScreenHost;
  let ca: Buffer;
  let actionLog: string;
  const req = (path: string, options: CallOptions = {}) => call(host.url, path, { ca, ...options });
  const actionEvents = async () =>
    (await req('/sim/events')).json().events.filter((e: { type: string }) => e.type === 'action');

  beforeAll(async () => {
    const cert = await tempCertificate();
    ca = cert.cert;
    actionLog = join(tempDir(), 'actions.log');
    host = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      tls: { cert: readFileSync(cert.certPath, 'utf8'), key: readFileSync(cert.keyPath) },
      testRoutes: true,
      actionLogPath: actionLog,
    });
  });

  afterAll(async () => {
    await host?.close();
  });

  beforeEach(async () => {
    expect((await req('/sim/reset', { method: 'POST' })).status).toBe(200);
  });

  it('serves HTTPS with a certificate the client verifies', async () => {
    expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await req('/health');
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({
      backend: 'sim',
      width: 1280,
      height: 800,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      capabilities: expect.arrayContaining(['idempotency', 'elements']),
    });
  });

  describe('bearer token', () => {
    const routes: [string, string][] = [
      ['GET', '/health'],
      ['GET', '/screenshot'],
      ['GET', '/elements'],
      ['POST', '/action'],
      ['GET', '/sim/events'],
      ['POST', '/sim/reset'],
    ];

    it.each(routes)('%s %s without a token is 401', async (method, path) => {
      const reply = await req(path, {
        method,
        token: null,
        body: method === 'POST' ? { action: 'key', key: 'Enter' } : undefined,
      });
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe('Bearer');
      expect(reply.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'missing or wrong bearer token',
      });
    });

    it.each([
      ['a wrong token of the same length', `Bearer ${'x'.repeat(TOKEN.length)}`],
      ['a wrong shorter token', 'Bearer short'],
      [
        'the token with one character changed',
        `Bearer ${TOKEN.slice(0, -1)}${TOKEN.endsWith('a') ? 'b' : 'a'}`,
      ],
      ['the token as a prefix', `Bearer ${TOKEN}x`],
      ['another scheme', `Basic ${TOKEN}`],
      ['no scheme', TOKEN],
      ['an empty bearer', 'Bearer '],
    ])('%s is 401', async (_name, authorization) => {
      const reply = await req('/health', { authorization });
      expect(reply.status).toBe(401);
    });

    it('a refused action is not performed', async () => {
      await req('/action', { token: 'y'.repeat(40), body: { action: 'key', key: 'Enter' } });
      expect(await actionEvents()).toEqual([]);
    });

    it('the right token is 200 on every route', async () => {
      for (const [method, path] of routes) {
        const reply = await req(path, {
          method,
          body: method === 'POST' && path === '/action' ? { action: 'key', key: 'Tab' } : undefined,
        });
        expect(reply.status).toBe(200);
      }
    });
  });

  it('refuses a body over 64 KiB with 413 and does not act', async () => {
    const reply = await req('/action', { body: { action: 'type', text: 'x'.repeat(70 * 1024) } });
    expect(reply.status).toBe(413);
    expect(reply.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect(await actionEvents()).toEqual([]);
  });

  it('accepts a body just under 64 KiB to validation (then 400 for the text length)', async () => {
    const reply = await req('/action', { body: { action: 'type', text: 'x'.repeat(60 * 1024) } });
    expect(reply.status).toBe(400);
  });

  describe('400 for every kind of invalid action, and nothing performed', () => {
    const invalid: [string, unknown][] = [
      ['wait (Warden handles it)', { action: 'wait', seconds: 1 }],
      ['done', { action: 'done', summary: 'finished' }],
      ['fail', { action: 'fail', reason: 'gave up' }],
      ['an unknown action', { action: 'drag', x: 1, y: 1 }],
      ['no action', { x: 1, y: 1 }],
      ['an unknown field', { action: 'click', x: 1, y: 1, button: 'right' }],
      ['a missing coordinate', { action: 'click', x: 1 }],
      ['a fractional coordinate', { action: 'double_click', x: 1.5, y: 1 }],
      ['a string coordinate', { action: 'click', x: '10', y: 1 }],
      ['x outside the screen', { action: 'click', x: 1280, y: 1 }],
      ['y outside the screen', { action: 'click', x: 1, y: -1 }],
      ['a target that is not a string', { action: 'click', x: 1, y: 1, target: ['Save'] }],
      ['empty text', { action: 'type', text: '' }],
      ['text over 500 characters', { action: 'type', text: 'x'.repeat(501) }],
      ['text with a control character', { action: 'type', text: 'a\u0007' }],
      ['text that is not a string', { action: 'type', text: 42 }],
      ['a key alias', { action: 'key', key: 'Return' }],
      ['a key in lower case', { action: 'key', key: 'ctrl+s' }],
      ['modifiers out of order', { action: 'key', key: 'Shift+Ctrl+S' }],
      ['an unknown key', { action: 'key', key: 'PrintScreen' }],
      ['a scroll direction', { action: 'scroll', x: 1, y: 1, direction: 'diagonal' }],
      ['a scroll amount of 0', { action: 'scroll', x: 1, y: 1, direction: 'up', amount: 0 }],
      ['a scroll amount of 11', { action: 'scroll', x: 1, y: 1, direction: 'up', amount: 11 }],
      ['a JSON array', [{ action: 'key', key: 'Enter' }]],
      ['a JSON string', 'click'],
      ['null', null],
    ];

    it.each(invalid)('%s', async (_name, body) => {
      const reply = await req('/action', { body });
      expect(reply.status).toBe(400);
      const json = reply.json();
      expect(json).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
      expect(json.message.length).toBeGreaterThan(5);
      expect(await actionEvents()).toEqual([]);
    });

    it('malformed JSON', async () => {
      const reply = await req('/action', {
        rawBody: '{"action": "click", ',
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status).toBe(400);
      expect(reply.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });

    it('a __proto__ key', async () => {
      const reply = await req('/action', {
        rawBody: '{"action":"key","key":"Enter","__proto__":{"x":1}}',
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status).toBe(400);
      expect(await actionEvents()).toEqual([]);
    });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const reply = await req('/nothing');
    expect(reply.status).toBe(404);
    expect(reply.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'no route GET /nothing',
    });
  });

  describe('Idempotency-Key', () => {
    const action = { action: 'key', key: 'Tab' };

    it('performs a key once; a repeat gets the stored answer without acting', async () => {
      const first = await req('/action', {
        body: action,
        headers: { 'idempotency-key': 'step-1' },
      });
      expect(first.status).toBe(200);
      expect(first.json()).toEqual({ ok: true, ms: expect.any(Number) });
      const second = await req('/action', {
        body: action,
        headers: { 'idempotency-key': 'step-1' },
      });
      expect(second.status).toBe(200);
      expect(second.headers['idempotency-replayed']).toBe('true');
      expect(second.json()).toEqual(first.json());
      expect(await actionEvents()).toHaveLength(1);
    });

    it('performs once under concurrent requests with the same key', async () => {
      const replies = await Promise.all(
        Array.from({ length: 12 }, () =>
          req('/action', { body: action, headers: { 'idempotency-key': 'step-concurrent' } }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
      const bodies = new Set(replies.map((r) => r.body.toString()));
      expect(bodies.size).toBe(1);
      expect(replies.filter((r) => r.headers['idempotency-replayed'] !== 'true')).toHaveLength(1);
      expect(await actionEvents()).toHaveLength(1);
    });

    it('different keys each perform', async () => {
      for (const key of ['a-1', 'a-2', 'a-3']) {
        expect(
          (await req('/action', { body: action, headers: { 'idempotency-key': key } })).status,
        ).toBe(200);
      }
      expect(await actionEvents()).toHaveLength(3);
    });

    it('a key reused for a different action is 409 and does not act', async () => {
      await req('/action', { body: action, headers: { 'idempotency-key': 'step-2' } });
      const reply = await req('/action', {
        body: { action: 'key', key: 'Enter' },
        headers: { 'idempotency-key': 'step-2' },
      });
      expect(reply.status).toBe(409);
      expect(reply.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
      expect(await actionEvents()).toHaveLength(1);
    });

    it('an invalid action with a key is 400 and does not spend the key', async () => {
      const bad = await req('/action', {
        body: { action: 'key', key: 'nope' },
        headers: { 'idempotency-key': 'step-3' },
      });
      expect(bad.status).toBe(400);
      const good = await req('/action', { body: action, headers: { 'idempotency-key': 'step-3' } });
      expect(good.status).toBe(200);
      expect(good.headers['idempotency-replayed']).toBeUndefined();
    });

    it('refuses a malformed key', async () => {
      const reply = await req('/action', {
        body: action,
        headers: { 'idempotency-key': 'k'.repeat(201) },
      });
      expect(reply.status).toBe(400);
      expect(await actionEvents()).toEqual([]);
    });
  });

  it('logs performed actions as JSON lines, without typed password text', async () => {
    const post = (body: unknown) => req('/action', { body });
    const outline = async () =>
      (await req('/elements')).json() as { name: string; rect: { x: number; y: number } }[];
    const at = async (name: string) => {
      const e = (await outline()).find((x) => x.name === name)!;
      return { x: e.rect.x + 5, y: e.rect.y + 5 };
    };
    await post({ action: 'click', ...(await at('Command field')), target: 'command field' });
    await post({ action: 'type', text: '/nPWD' });
    await post({ action: 'key', key: 'Enter' });
    await post({ action: 'type', text: 'Sup3r-Secret!' });
    await new Promise((r) => setTimeout(r, 100));
    const lines = readJsonLines(actionLog);
    const recent = lines.slice(-4);
    expect(recent.map((l) => l.action.action)).toEqual(['click', 'type', 'key', 'type']);
    expect(recent[0].action.target).toBe('command field');
    expect(recent[1].action.text).toBe('/nPWD');
    expect(recent[3].action).toEqual({
      action: 'type',
      text: '[redacted]',
      characters: 13,
      into: 'password',
    });
    expect(
      recent.every(
        (l) => l.outcome === 'performed' && l.backend === 'sim' && typeof l.time === 'string',
      ),
    ).toBe(true);
    expect(readFileSync(actionLog, 'utf8')).not.toContain('Sup3r-Secret!');
    expect(readFileSync(actionLog, 'utf8')).not.toContain(TOKEN);
  });
});

/** A backend that takes its time, to see that actions never overlap and a key in flight waits. */
class SlowBackend implements ScreenBackend {
  readonly name = 'slow';
  performed: CheckedAction[] = [];
  running = 0;
  maxRunning = 0;
  size() {
    return { width: 100, height: 100 };
  }
  async screenshot() {
    return { png: Buffer.alloc(0), width: 100, height: 100 };
  }
  async perform(action: CheckedAction) {
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    await new Promise((r) => setTimeout(r, 150));
    this.performed.push(action);
    this.running -= 1;
  }
  elements() {
    return null;
  }
  typingTarget() {
    return 'unknown' as const;
  }
  async close() {}
}

describe('screen host: serialised actions and keys in flight', () => {
  let host: RunningScreenHost;
  let backend: SlowBackend;

  beforeAll(async () => {
    backend = new SlowBackend();
    host = await startScreenHost({ backend, token: TOKEN, port: 0, insecureLoopback: true });
  });

  afterAll(async () => {
    await host?.close();
  });

  it('a second request with a key in flight waits for the first and is never performed twice', async () => {
    const send = (key: string, x: number) =>
      call(host.url, '/action', {
        body: { action: 'click', x, y: 1 },
        headers: { 'idempotency-key': key },
      });
    const started = Date.now();
    const replies = await Promise.all([
      send('k1', 1),
      send('k1', 1),
      send('k1', 1),
      send('k2', 2),
      send('k3', 3),
      send('k1', 1),
    ]);
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(backend.performed.map((a) => (a as { x: number }).x).sort()).toEqual([1, 2, 3]);
    expect(backend.maxRunning).toBe(1);
    // Three actions one after another, 150 ms each.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    const k1 = replies.filter((_, i) => [0, 1, 2, 5].includes(i)).map((r) => r.body.toString());
    expect(new Set(k1).size).toBe(1);
  });

  it('serves no outline where the backend has none', async () => {
    const reply = await call(host.url, '/elements');
    expect(reply.status).toBe(404);
    expect((await call(host.url, '/health')).json().capabilities).toEqual([
      'idempotency',
      'action-lookup',
      'frame_precondition',
    ]);
  });
});

describe('startScreenHost refuses unsafe settings', () => {
  it.each([
    ['no token', { token: '' }, /at least 32/],
    ['a short token', { token: 'short-token' }, /at least 32/],
    ['neither TLS nor insecureLoopback', { insecureLoopback: false }, /needs TLS/],
    ['plain HTTP off loopback', { host: '0.0.0.0' }, /127\.0\.0\.1/],
  ])('%s', async (_name, override, message) => {
    await expect(
      startScreenHost({
        backend: 'sim',
        token: TOKEN,
        port: 0,
        insecureLoopback: true,
        ...override,
      }),
    ).rejects.toThrow(message);
  });
});

describe('screen host: keys survive a restart through the action log', () => {
  class CountingBackend extends SlowBackend {
    constructor(private readonly failWith: string | null = null) {
      super();
    }
    override async perform(action: CheckedAction) {
      this.performed.push(action);
      if (this.failWith) throw new Error(this.failWith);
    }
  }

  const start = (backend: ScreenBackend, actionLogPath: string) =>
    startScreenHost({ backend, token: TOKEN, port: 0, insecureLoopback: true, actionLogPath });
  const click = { action: 'click', x: 5, y: 5 };

  it('a key that failed is answered as failed after a restart, and not performed again', async () => {
    const actionLogPath = join(tempDir(), 'actions.log');
    const failing = new CountingBackend('xdotool exited with 1');
    let host = await start(failing, actionLogPath);
    const first = await call(host.url, '/action', {
      body: click,
      headers: { 'idempotency-key': 'k-fail' },
    });
    expect(first.status).toBe(500);
    await host.close();

    const counting = new CountingBackend();
    host = await start(counting, actionLogPath);
    try {
      const again = await call(host.url, '/action', {
        body: click,
        headers: { 'idempotency-key': 'k-fail' },
      });
      expect(again.status).toBe(500);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.json().message).toBe('the action could not be performed: xdotool exited with 1');
      expect(counting.performed).toEqual([]);
      // The lookup answers the stored failure as it was: a failure, never a 200.
      const lookup = await call(host.url, '/actions/k-fail');
      expect(lookup.status).toBe(500);
      expect(lookup.headers['idempotency-replayed']).toBe('true');
      expect(lookup.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'the action could not be performed: xdotool exited with 1',
      });
    } finally {
      await host.close();
    }
  });

  it('a key the host was performing when it stopped is never performed again', async () => {
    const actionLogPath = join(tempDir(), 'actions.log');
    // What a host leaves behind when it dies between writing "started" and acting, or mid-action.
    writeFileSync(
      actionLogPath,
      `${JSON.stringify({ time: new Date().toISOString(), backend: 'slow', idempotency_key: 'k-crash', action: click, outcome: 'started' })}\n`,
    );
    const counting = new CountingBackend();
    const host = await start(counting, actionLogPath);
    try {
      const reply = await call(host.url, '/action', {
        body: click,
        headers: { 'idempotency-key': 'k-crash' },
      });
      expect(reply.status).toBe(500);
      expect(reply.json().message).toMatch(/stopped while performing this action/);
      expect(counting.performed).toEqual([]);
      // Looked up, it is the same unknown outcome: a 500, not "performed".
      const lookup = await call(host.url, '/actions/k-crash');
      expect(lookup.status).toBe(500);
      expect(lookup.headers['idempotency-replayed']).toBe('true');
      expect(lookup.json().message).toMatch(/whether it reached the desktop is unknown/);
      // A new key acts, and its "started" line is written before the action.
      expect(
        (await call(host.url, '/action', { body: click, headers: { 'idempotency-key': 'k-new' } }))
          .status,
      ).toBe(200);
      expect(counting.performed).toHaveLength(1);
      const outcomes = readJsonLines(actionLogPath)
        .filter((l) => l.idempotency_key === 'k-new')
        .map((l) => l.outcome);
      expect(outcomes).toEqual(['started', 'performed']);
    } finally {
      await host.close();
    }
  });
});
