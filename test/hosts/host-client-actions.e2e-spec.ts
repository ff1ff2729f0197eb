/**
 * The screen host client against real parts, part two: acting (the outline, the health, an action
 * once per Idempotency-Key), looking an action up by its key, and the frame precondition. A sim
 * screen host over real HTTPS and hand-made servers (test/support/screen-host-bed.ts).
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import { startScreenHost } from '../../screen-host/src';
import { DoctorService } from '../../src/computer-use/doctor/doctor.service';
import { decodePng, pixelSha256 } from '../../src/computer-use/pixels/pixels';
import {
  TOKEN,
  client,
  certA,
  sim,
  target,
  failure,
  fakeHost,
  png,
  sendPng,
  sendJson,
  cleanups,
  later,
  grants,
  granted,
  hostFor,
  fetchSim,
  useScreenHostBed,
} from '../support/screen-host-bed';

useScreenHostBed();

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
