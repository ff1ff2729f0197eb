/**
 * The sim backend through real HTTPS: the VA02 story by actions only, the outline against the
 * rendered pixels, determinism, and the --no-elements and --lang de variants.
 */
import { createHash } from 'node:crypto';
import type { OutlineElement } from '../src';
import { RunningScreenHost, startScreenHost } from '../src';
import { COLORS } from '../src/backends/sim/sim-render';
import { call, CallOptions, decodePng, tempCertificate, TOKEN } from './helpers';

interface Client {
  req(path: string, options?: CallOptions): ReturnType<typeof call>;
  act(body: unknown): Promise<void>;
  outline(): Promise<OutlineElement[]>;
  find(role: string, name: string): Promise<OutlineElement>;
  click(role: string, name: string): Promise<void>;
  screenshot(): Promise<Buffer>;
  events(): Promise<{ type: string; [k: string]: unknown }[]>;
}

function client(host: RunningScreenHost, ca: Buffer): Client {
  const req = (path: string, options: CallOptions = {}) => call(host.url, path, { ca, ...options });
  const self: Client = {
    req,
    async act(body) {
      const reply = await req('/action', { body });
      expect(reply.status).toBe(200);
    },
    async outline() {
      const reply = await req('/elements');
      expect(reply.status).toBe(200);
      return reply.json();
    },
    async find(role, name) {
      const found = (await self.outline()).find((e) => e.role === role && e.name === name);
      if (!found) throw new Error(`no ${role} named ${name}`);
      return found;
    },
    async click(role, name) {
      const { rect } = await self.find(role, name);
      await self.act({
        action: 'click',
        x: rect.x + Math.floor(rect.width / 2),
        y: rect.y + Math.floor(rect.height / 2),
        target: name,
      });
    },
    async screenshot() {
      const reply = await req('/screenshot');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('image/png');
      expect(reply.headers['x-screen-width']).toBe('1280');
      expect(reply.headers['x-screen-height']).toBe('800');
      return reply.body;
    },
    async events() {
      return (await req('/sim/events')).json().events;
    },
  };
  return self;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function hex(color: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
}

describe('sim backend over HTTPS', () => {
  let host: RunningScreenHost;
  let ca: Buffer;
  let sim: Client;

  beforeAll(async () => {
    const cert = await tempCertificate();
    ca = cert.cert;
    host = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      tls: { cert: cert.certPath, key: cert.keyPath },
      testRoutes: true,
    });
    sim = client(host, ca);
  });

  afterAll(async () => {
    await host?.close();
  });

  beforeEach(async () => {
    await sim.req('/sim/reset', { method: 'POST' });
  });

  it('a scripted walk through VA02 changes order 4711 and saves exactly once', async () => {
    await sim.click('textbox', 'Command field');
    await sim.act({ action: 'type', text: '/nVA02' });
    await sim.act({ action: 'key', key: 'Enter' });
    expect((await sim.find('title', 'Change Sales Order: Initial Screen')).role).toBe('title');
    await sim.click('textbox', 'Order');
    await sim.act({ action: 'type', text: '4711' });
    await sim.act({ action: 'key', key: 'Enter' });
    await sim.find('title', 'Change Standard Order 4711: Overview');
    await sim.click('textbox', 'Req. Deliv. Date');
    const focused = (await sim.outline()).find((e) => e.states?.includes('focused'));
    expect(focused).toMatchObject({ role: 'textbox', name: 'Req. Deliv. Date' });
    await sim.act({ action: 'type', text: '18.12.2026' });
    await sim.click('button', 'Save');
    const status = (await sim.outline()).find((e) => e.role === 'status');
    expect(status?.name).toBe('Sales order 4711 has been saved');

    const events = await sim.events();
    const saved = events.filter((e) => e.type === 'saved');
    expect(saved).toEqual([
      {
        seq: expect.any(Number),
        type: 'saved',
        order: '4711',
        changed: ['reqDelivDate'],
        fields: {
          soldToParty: '10001',
          customerReference: 'PO-88123',
          reqDelivDate: '18.12.2026',
          netValue: expect.any(String),
          currency: 'EUR',
        },
      },
    ]);
    expect(events.filter((e) => e.type === 'action')).toHaveLength(9);
  });

  it('Ctrl+S saves as the Save icon does', async () => {
    await sim.click('textbox', 'Command field');
    await sim.act({ action: 'type', text: '/nVA02\n' });
    await sim.act({ action: 'type', text: '4713' });
    await sim.click('button', 'Change');
    await sim.click('textbox', 'Customer Reference');
    await sim.act({ action: 'type', text: 'NW/7781-B' });
    await sim.act({ action: 'key', key: 'Ctrl+S' });
    expect((await sim.events()).filter((e) => e.type === 'saved')).toEqual([
      expect.objectContaining({ order: '4713', changed: ['customerReference'] }),
    ]);
  });

  it("the outline's rects are where the buttons are drawn", async () => {
    const border = hex(COLORS.buttonBorder);
    const screens = ['', '/nVA02', '/nFB50', '/nPWD'];
    let checked = 0;
    for (const transaction of screens) {
      if (transaction) {
        await sim.click('textbox', 'Command field');
        await sim.act({ action: 'type', text: `${transaction}\n` });
      }
      const png = decodePng(await sim.screenshot());
      const pixel = (x: number, y: number) => {
        const i = (y * png.width + x) * 4;
        return [png.data[i], png.data[i + 1], png.data[i + 2]];
      };
      for (const button of (await sim.outline()).filter((e) => e.role === 'button')) {
        const { x, y, width, height } = button.rect;
        const right = x + width - 1;
        const bottom = y + height - 1;
        // The button's frame is exactly on the rect's edges…
        for (const [px, py] of [
          [x + Math.floor(width / 2), y],
          [x + Math.floor(width / 2), bottom],
          [x, y + Math.floor(height / 2)],
          [right, y + Math.floor(height / 2)],
        ]) {
          expect({ button: button.name, at: [px, py], color: pixel(px, py) }).toEqual({
            button: button.name,
            at: [px, py],
            color: border,
          });
        }
        // …and not just outside it.
        for (const [px, py] of [
          [x + Math.floor(width / 2), y - 1],
          [x + Math.floor(width / 2), bottom + 1],
          [x - 1, y + Math.floor(height / 2)],
          [right + 1, y + Math.floor(height / 2)],
        ]) {
          expect(pixel(px, py)).not.toEqual(border);
        }
        // Something (an icon or the caption) is drawn inside.
        const face = hex(COLORS.buttonFace);
        let drawn = 0;
        for (let py = y + 2; py < bottom - 1; py++) {
          for (let px = x + 2; px < right - 1; px++) {
            const p = pixel(px, py);
            if (p[0] !== face[0] || p[1] !== face[1] || p[2] !== face[2]) drawn += 1;
          }
        }
        expect(drawn).toBeGreaterThan(20);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4 * 8 + 3);
  });

  it('renders one state to byte-identical PNGs', async () => {
    const first = await sim.screenshot();
    const again = await sim.screenshot();
    expect(sha(again)).toBe(sha(first));
    await sim.click('textbox', 'Command field');
    await sim.act({ action: 'type', text: '/nVA03\n4711\n' });
    const overview = await sim.screenshot();
    expect(sha(overview)).not.toBe(sha(first));

    // The same state reached again, and on another host, gives the same bytes.
    await sim.req('/sim/reset', { method: 'POST' });
    expect(sha(await sim.screenshot())).toBe(sha(first));
    const other = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      insecureLoopback: true,
    });
    try {
      const o = client(other, ca);
      expect(sha(await o.screenshot())).toBe(sha(first));
      await o.click('textbox', 'Command field');
      await o.act({ action: 'type', text: '/nVA03\n4711\n' });
      expect(sha(await o.screenshot())).toBe(sha(overview));
    } finally {
      await other.close();
    }
  });

  it('POST /sim/poke changes the screen without an action', async () => {
    const before = await sim.screenshot();
    expect(
      (await sim.req('/sim/poke', { body: { message: 'Background job finished' } })).status,
    ).toBe(200);
    const after = await sim.screenshot();
    expect(sha(after)).not.toBe(sha(before));
    expect((await sim.outline()).find((e) => e.role === 'status')?.name).toBe(
      'Background job finished',
    );
    expect((await sim.events()).filter((e) => e.type === 'action')).toEqual([]);
    expect((await sim.req('/sim/poke', { body: { message: '' } })).status).toBe(400);
    expect((await sim.req('/sim/poke', { body: { message: 'x', extra: 1 } })).status).toBe(400);
  });

  it('POST /sim/blink makes the caret blink until it is turned off', async () => {
    expect((await sim.req('/sim/blink', { body: { on: true } })).json()).toEqual({
      ok: true,
      on: true,
    });
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      seen.add(sha(await sim.screenshot()));
      await new Promise((r) => setTimeout(r, 90));
    }
    expect(seen.size).toBe(2);
    expect((await sim.req('/sim/blink', { body: { on: false } })).json()).toEqual({
      ok: true,
      on: false,
    });
    const still = new Set<string>();
    for (let i = 0; i < 5; i++) {
      still.add(sha(await sim.screenshot()));
      await new Promise((r) => setTimeout(r, 90));
    }
    expect(still.size).toBe(1);
    expect((await sim.req('/sim/blink', { body: { on: 'yes' } })).status).toBe(400);
  });
});

describe('sim variants', () => {
  it('--no-elements: no outline (404) and no "elements" capability', async () => {
    const host = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      insecureLoopback: true,
      elements: false,
    });
    try {
      const reply = await call(host.url, '/elements');
      expect(reply.status).toBe(404);
      expect(reply.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect((await call(host.url, '/health')).json().capabilities).toEqual([
        'idempotency',
        'action-lookup',
        'frame_precondition',
      ]);
      // Test routes are off unless asked for.
      expect((await call(host.url, '/sim/events')).status).toBe(404);
    } finally {
      await host.close();
    }
  });

  it('--lang de: German labels and messages', async () => {
    const host = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      insecureLoopback: true,
      lang: 'de',
      testRoutes: true,
    });
    try {
      const de = client(host, Buffer.alloc(0));
      const names = (await de.outline()).filter((e) => e.role === 'button').map((e) => e.name);
      expect(names).toEqual(
        expect.arrayContaining(['Weiter', 'Sichern', 'Zurück', 'Beenden', 'Abbrechen']),
      );
      await de.click('textbox', 'Befehlsfeld');
      await de.act({ action: 'type', text: '/nVA02' });
      await de.act({ action: 'key', key: 'Enter' });
      await de.find('title', 'Kundenauftrag ändern: Einstieg');
      await de.click('textbox', 'Auftrag');
      await de.act({ action: 'type', text: '4711' });
      await de.click('button', 'Ändern');
      await de.click('textbox', 'Wunschlieferdat.');
      await de.act({ action: 'type', text: '07.01.2027' });
      await de.click('button', 'Sichern');
      expect((await de.outline()).find((e) => e.role === 'status')?.name).toBe(
        'Terminauftrag 4711 wurde gesichert',
      );
      expect((await de.events()).filter((e) => e.type === 'saved')).toHaveLength(1);
      await de.click('textbox', 'Befehlsfeld');
      await de.act({ action: 'type', text: '/nFB50\n' });
      await de.find('button', 'Buchen');
    } finally {
      await host.close();
    }
  });
});
