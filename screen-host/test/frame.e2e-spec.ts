/**
 * The frame precondition (docs/rules.md, docs/screen-host.md) over real HTTPS: every screenshot names its frame
 * (`X-Frame-SHA256`), and `POST /action` with `X-Expect-Frame` acts only on that frame, leaving out
 * `X-Frame-Ignore`. What the host did is proved by the sim's own event log and the action log,
 * not by the host's answer alone.
 */
import { formatFrameIgnore, frameSha256, type FrameRect } from '@warden/protocol';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { CheckedAction } from '../src/actions';
import type { ScreenBackend } from '../src/backends/backend';
import { RunningScreenHost, startScreenHost } from '../src';
import {
  call,
  CallOptions,
  decodePng,
  readJsonLines,
  tempCertificate,
  tempDir,
  TOKEN,
  type Reply,
} from './helpers';

const STATUS_BAR: FrameRect = { x: 0, y: 772, width: 1280, height: 28 };

/** The frame hash Warden computes from a screenshot: decode the PNG, hash its RGBA. */
function pixelHash(png: Buffer): string {
  const decoded = decodePng(png);
  return frameSha256(decoded.width, decoded.height, decoded.data);
}

describe('frame precondition on the sim', () => {
  let host: RunningScreenHost;
  let ca: Buffer;
  let actionLog: string;
  const req = (path: string, options: CallOptions = {}) => call(host.url, path, { ca, ...options });
  const events = async (): Promise<Array<{ type: string; [k: string]: unknown }>> =>
    (await req('/sim/events')).json().events;
  const actions = async () => (await events()).filter((e) => e.type === 'action');

  /** A screenshot's frame hash, checked against its pixels. */
  async function frame(): Promise<string> {
    const shot = await req('/screenshot');
    expect(shot.status).toBe(200);
    const sha256 = shot.headers['x-frame-sha256'];
    expect(sha256).toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
    expect(sha256).toBe(pixelHash(shot.body));
    return sha256 as string;
  }

  function act(
    body: unknown,
    headers: { expect?: string; ignore?: FrameRect[] | string; key?: string } = {},
  ): Promise<Reply> {
    const h: Record<string, string> = {};
    if (headers.expect !== undefined) h['x-expect-frame'] = headers.expect;
    if (headers.ignore !== undefined) {
      h['x-frame-ignore'] =
        typeof headers.ignore === 'string' ? headers.ignore : formatFrameIgnore(headers.ignore);
    }
    if (headers.key !== undefined) h['idempotency-key'] = headers.key;
    return req('/action', { body, headers: h });
  }

  async function centreOf(role: string, name: string): Promise<{ x: number; y: number }> {
    const outline = (await req('/elements')).json() as Array<{
      role: string;
      name: string;
      rect: FrameRect;
    }>;
    const e = outline.find((x) => x.role === role && x.name === name);
    if (!e) throw new Error(`no ${role} ${name}`);
    return {
      x: e.rect.x + Math.floor(e.rect.width / 2),
      y: e.rect.y + Math.floor(e.rect.height / 2),
    };
  }

  /** VA02 with order 4711 open and a new delivery date typed, not saved. */
  async function changedOrder(): Promise<void> {
    for (const body of [
      { action: 'type', text: '/nVA02' },
      { action: 'key', key: 'Enter' },
      { action: 'type', text: '4711' },
      { action: 'key', key: 'Enter' },
    ]) {
      expect((await act(body)).status).toBe(200);
    }
    const date = await centreOf('textbox', 'Req. Deliv. Date');
    expect((await act({ action: 'click', ...date })).status).toBe(200);
    expect((await act({ action: 'type', text: '24.12.2026' })).status).toBe(200);
  }

  beforeAll(async () => {
    const cert = await tempCertificate();
    ca = cert.cert;
    actionLog = join(tempDir(), 'actions.log');
    host = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      tls: { cert: cert.cert, key: cert.keyPath },
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

  it('announces the capability, and names the frame of every screenshot by its pixels', async () => {
    expect((await req('/health')).json().capabilities).toContain('frame_precondition');
    const first = await frame();
    expect(await frame()).toBe(first);
    await act({ action: 'type', text: 'VA02' });
    const typed = await frame();
    expect(typed).not.toBe(first);
    await req('/sim/popup', {
      body: { title: 'Save changes?', message: 'Save the order?', buttons: ['Yes', 'No'] },
    });
    expect(await frame()).not.toBe(typed);
  });

  it('acts on the frame it was judged on', async () => {
    const expected = await frame();
    const reply = await act({ action: 'type', text: 'VA02' }, { expect: expected, key: 'k-match' });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ ok: true, ms: expect.any(Number) });
    expect(await actions()).toHaveLength(1);
    expect((await req('/actions/k-match')).status).toBe(200);
  });

  it('a screen that changed (a poke) is 409 screen_changed, and nothing is performed or stored', async () => {
    const expected = await frame();
    await req('/sim/poke', { body: { message: 'Order 4711 is being edited by another user' } });
    const reply = await act({ action: 'key', key: 'Enter' }, { expect: expected, key: 'k-poke' });
    expect(reply.status).toBe(409);
    expect(reply.json()).toEqual({
      statusCode: 409,
      error: 'screen_changed',
      message: expect.stringContaining('nothing was performed'),
    });
    expect(await actions()).toEqual([]);
    expect((await req('/actions/k-poke')).status).toBe(404);
    const logged = readJsonLines(actionLog).filter((l) => l.idempotency_key === 'k-poke');
    expect(logged.map((l) => [l.outcome, l.error])).toEqual([['refused', 'screen_changed']]);
  });

  it('a dialog that opened while the model thought gets no click; the order is not saved', async () => {
    await changedOrder();
    const judged = await frame();
    // The model decides to click an empty spot of the form (a read), at the centre of the screen.
    await req('/sim/popup', {
      body: { title: 'Save changes?', message: 'Save the order?', buttons: ['Yes', 'No'] },
    });
    const yes = await centreOf('button', 'Yes');
    const before = (await events()).length;
    const click = { action: 'click', ...yes };
    const refused = await act(click, { expect: judged, key: 'k-popup' });
    expect(refused.status).toBe(409);
    expect(refused.json().error).toBe('screen_changed');
    expect((await events()).slice(before)).toEqual([]);
    expect((await events()).some((e) => e.type === 'saved')).toBe(false);

    // The key was not spent: judged on the dialog now, the same key acts (and Yes saves).
    const now = await frame();
    const performed = await act(click, { expect: now, key: 'k-popup' });
    expect(performed.status).toBe(200);
    expect(performed.headers['idempotency-replayed']).toBeUndefined();
    const after = (await events()).slice(before).map((e) => e.type);
    expect(after).toEqual(['action', 'popup_closed', 'saved']);
    expect((await req('/actions/k-popup')).status).toBe(200);
  });

  it('a changed pixel inside an ignored rectangle still acts; outside it does not', async () => {
    const expected = await frame();
    await req('/sim/poke', { body: { message: 'the clock in the status bar moved' } });
    const elsewhere = await act(
      { action: 'type', text: 'VA02' },
      { expect: expected, ignore: [{ x: 0, y: 0, width: 1280, height: 84 }] },
    );
    expect(elsewhere.status).toBe(409);
    expect(await actions()).toEqual([]);
    const ignored = await act(
      { action: 'type', text: 'VA02' },
      { expect: expected, ignore: [{ x: 900, y: 0, width: 10, height: 10 }, STATUS_BAR] },
    );
    expect(ignored.status).toBe(200);
    expect(await actions()).toHaveLength(1);
  });

  it('a frame the host does not hold is 409 frame_unknown, and nothing is performed', async () => {
    const reply = await act(
      { action: 'key', key: 'Enter' },
      { expect: 'ab'.repeat(32), key: 'k-unknown' },
    );
    expect(reply.status).toBe(409);
    expect(reply.json()).toEqual({
      statusCode: 409,
      error: 'frame_unknown',
      message: expect.stringContaining('no longer holds the frame'),
    });
    expect(await actions()).toEqual([]);
    expect((await req('/actions/k-unknown')).status).toBe(404);
  });

  it('keeps the last four frames it served: a fifth new one forgets the first', async () => {
    const served: string[] = [await frame()];
    for (const text of ['1', '2', '3', '4']) {
      await act({ action: 'type', text });
      served.push(await frame());
    }
    expect(new Set(served).size).toBe(5);
    // The screen now is the fifth frame: the first is unknown, not "changed".
    const reply = await act({ action: 'key', key: 'Tab' }, { expect: served[0] });
    expect(reply.json().error).toBe('frame_unknown');
    // The second is still held: compared, and the screen has changed since.
    expect((await act({ action: 'key', key: 'Tab' }, { expect: served[1] })).json().error).toBe(
      'screen_changed',
    );
    expect((await act({ action: 'key', key: 'Tab' }, { expect: served[4] })).status).toBe(200);
  });

  it.each([
    ['X-Expect-Frame that is not 64 hex digits', { 'x-expect-frame': 'abc' }],
    ['X-Expect-Frame in upper case', { 'x-expect-frame': 'AB'.repeat(32) }],
    ['an empty X-Expect-Frame', { 'x-expect-frame': '' }],
    ['X-Frame-Ignore without X-Expect-Frame', { 'x-frame-ignore': '0,0,1,1' }],
    [
      'a malformed X-Frame-Ignore',
      { 'x-expect-frame': 'ab'.repeat(32), 'x-frame-ignore': '0,0,0,1' },
    ],
    [
      'X-Frame-Ignore with a trailing separator',
      { 'x-expect-frame': 'ab'.repeat(32), 'x-frame-ignore': '0,0,1,1;' },
    ],
  ])('%s is 400, acts not and spends no key', async (_name, headers) => {
    const reply = await req('/action', {
      body: { action: 'key', key: 'Tab' },
      headers: { ...headers, 'idempotency-key': 'k-malformed' },
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(await actions()).toEqual([]);
    expect((await req('/actions/k-malformed')).status).toBe(404);
  });

  it('a key that acted is answered from its store, whatever frame a repeat expects', async () => {
    const expected = await frame();
    const body = { action: 'type', text: 'VA02' };
    expect((await act(body, { expect: expected, key: 'k-once' })).status).toBe(200);
    const again = await act(body, { expect: 'cd'.repeat(32), key: 'k-once' });
    expect(again.status).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(await actions()).toHaveLength(1);
  });
});

/**
 * A backend that serves PNGs only, as the windows backend does (its PowerShell helper sends a
 * PNG): the host decodes them for the frame hash. HiDPI: the PNG has twice the pixels of the
 * coordinate space of actions, and some alpha, so the frame is the PNG's pixels as decoded.
 */
class PngOnlyBackend implements ScreenBackend {
  readonly name = 'png-only';
  performed: CheckedAction[] = [];
  private image = new PNG({ width: 64, height: 40 });

  constructor() {
    for (let i = 0; i < this.image.data.length; i++) this.image.data[i] = (i * 7) & 0xff;
  }

  size() {
    return { width: 32, height: 20 };
  }

  /** Changes one pixel of the PNG (pixel coordinates). */
  paint(x: number, y: number): void {
    this.image.data[(y * 64 + x) * 4] ^= 0xff;
  }

  async screenshot() {
    return { png: PNG.sync.write(this.image), width: 32, height: 20 };
  }

  async perform(action: CheckedAction) {
    this.performed.push(action);
  }

  elements() {
    return null;
  }

  typingTarget() {
    return 'unknown' as const;
  }

  async close() {}
}

describe('frame precondition on a backend that serves PNGs only (as windows does), HiDPI', () => {
  let host: RunningScreenHost;
  let backend: PngOnlyBackend;

  beforeAll(async () => {
    backend = new PngOnlyBackend();
    host = await startScreenHost({ backend, token: TOKEN, port: 0, insecureLoopback: true });
  });

  afterAll(async () => {
    await host?.close();
  });

  it('names the frame by the PNG pixels, and compares in PNG pixels', async () => {
    const health = (await call(host.url, '/health')).json();
    expect(health.capabilities).toContain('frame_precondition');
    const shot = await call(host.url, '/screenshot');
    expect(shot.headers['x-screen-width']).toBe('32');
    expect(shot.headers['x-frame-sha256']).toBe(pixelHash(shot.body));
    const expected = shot.headers['x-frame-sha256'] as string;

    // A pixel at (50, 30) of the PNG: outside the coordinate space (32x20), inside the frame.
    backend.paint(50, 30);
    const click = { action: 'click', x: 3, y: 3 };
    const changed = await call(host.url, '/action', {
      body: click,
      headers: { 'x-expect-frame': expected },
    });
    expect(changed.status).toBe(409);
    expect(changed.json().error).toBe('screen_changed');
    expect(backend.performed).toEqual([]);

    // Left out in pixel coordinates, it acts.
    const ignored = await call(host.url, '/action', {
      body: click,
      headers: { 'x-expect-frame': expected, 'x-frame-ignore': '48,28,4,4' },
    });
    expect(ignored.status).toBe(200);
    expect(backend.performed).toHaveLength(1);
  });
});
