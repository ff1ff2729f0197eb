import { join } from 'node:path';
import { startScreenHost } from '../src';
import { call, TOKEN, tempCertificate, tempDir } from './helpers';

/**
 * GET /actions/{key}: after a lost answer Warden asks the host whether it acted, instead of sending
 * again. The answer survives a restart of the host on the same action log.
 */
describe('action lookup', () => {
  it('answers a performed key, 404s an unknown one, and keeps its word across a restart', async () => {
    const certificate = await tempCertificate();
    const actionLogPath = join(tempDir(), 'actions.jsonl');
    const start = () =>
      startScreenHost({
        backend: 'sim',
        token: TOKEN,
        port: 0,
        tls: { cert: certificate.cert, key: certificate.keyPath },
        testRoutes: true,
        actionLogPath,
      });
    const key = 'step-6f1c2d';
    const click = { action: 'click', x: 100, y: 100 };

    let host = await start();
    try {
      const health = (await call(host.url, '/health', { ca: certificate.cert })).json();
      expect(health.capabilities).toEqual(expect.arrayContaining(['idempotency', 'action-lookup']));
      const unknown = await call(host.url, `/actions/${key}`, { ca: certificate.cert });
      expect(unknown.status).toBe(404);
      expect(unknown.json().message).toBe('no action with this Idempotency-Key was performed here');
      const sent = await call(host.url, '/action', {
        ca: certificate.cert,
        body: click,
        headers: { 'idempotency-key': key },
      });
      expect(sent.status).toBe(200);
      const found = await call(host.url, `/actions/${key}`, { ca: certificate.cert });
      expect(found.status).toBe(200);
      expect(found.headers['idempotency-replayed']).toBe('true');
      expect(found.json()).toEqual({ ok: true, ms: expect.any(Number) });
      const route = await call(host.url, '/nothing', { ca: certificate.cert });
      expect(route.json().message).toMatch(/^no route /);
    } finally {
      await host.close();
    }

    host = await start();
    try {
      const found = await call(host.url, `/actions/${key}`, { ca: certificate.cert });
      expect(found.status).toBe(200);
      const again = await call(host.url, '/action', {
        ca: certificate.cert,
        body: click,
        headers: { 'idempotency-key': key },
      });
      expect(again.status).toBe(200);
      expect(again.headers['idempotency-replayed']).toBe('true');
      const events = (await call(host.url, '/sim/events', { ca: certificate.cert })).json().events;
      expect(events.filter((e: { type: string }) => e.type === 'action')).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
