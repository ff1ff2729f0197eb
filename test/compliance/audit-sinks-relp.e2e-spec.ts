import type { INestApplicationContext } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditService } from '../../src/audit/audit.service';
import { createWorker } from '../../src/worker.module';
import { startApi, type TestApi } from '../support/api';
import {
  makePki,
  type Rsyslog,
  startRelpReceiver,
  startRsyslog,
  type TestPki,
} from '../support/siem-receivers';
import { expectWholeChain, syslogEvents } from '../support/syslog-chain';
import { until } from '../support/until';

/**
 * A syslog sink over RELP (`"protocol": "relp"`) to Debian's rsyslogd with imrelp over TLS: each
 * message acknowledged by the receiver, the cursor moved only past what it acknowledged, so a
 * receiver stopped and started again while events stream loses none.
 */
describe('audit sinks over RELP', () => {
  let api: TestApi;
  let worker: INestApplicationContext | undefined;
  let pki: TestPki;
  let rsyslog: Rsyslog;
  let admin: string;
  const caDir = mkdtempSync(join(tmpdir(), 'warden-relp-ca-'));

  const record = async (n: number) => {
    const audit = api.app.get(AuditService);
    for (let i = 0; i < n; i++) {
      await audit.record({ tenant: 'acme', type: 'test.event', actor: 'tester', details: { i } });
    }
  };
  const status = async () =>
    (await api.request('GET', '/api/admin/audit-sinks', { token: admin })).body.sinks[0].status;
  const head = async () =>
    Number((await api.db.sql<{ seq: string }>(`SELECT max(seq) AS seq FROM audit_events`))[0].seq);
  const waitFor = async (what: string, done: () => Promise<boolean> | boolean, ms = 30_000) =>
    void (await until(what, done, { ms, seen: status }));

  beforeAll(async () => {
    pki = makePki(caDir);
    rsyslog = await startRsyslog(mkdtempSync(join(tmpdir(), 'warden-imrelp-')), pki, 'imrelp');
    api = await startApi(undefined, {
      CA_DIR: caDir,
      AUDIT_SINK_INTERVAL_MS: '100',
      AUDIT_SINK_BACKOFF_MAX_MS: '400',
      AUDIT_SINK_TIMEOUT_MS: '2000',
    });
    admin = (await api.token('acme', 'ada', ['computer_use.admin'])).token;
    // Warden connects to a tenant's receiver only once the deployment operator granted it.
    await api.grantDestination('acme', `tls://127.0.0.1:${rsyslog.port}`);
    worker = await createWorker(api.config);
    await worker.init();
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await rsyslog?.stop();
  });

  it('streams the chain over RELP, each message acknowledged, exactly once', async () => {
    const wrong = await api.request('PUT', '/api/admin/audit-sinks', {
      token: admin,
      json: { sinks: [{ name: 'x', kind: 'syslog', host: '127.0.0.1', port: 1, protocol: 'tcp' }] },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      'sinks.0.protocol must be one of rfc5425, relp (left out: rfc5425)',
    );
    await record(5);
    const sink = {
      name: 'relp',
      kind: 'syslog',
      host: '127.0.0.1',
      port: rsyslog.port,
      protocol: 'relp',
      ca_file: pki.caPath,
    };
    const put = await api.request('PUT', '/api/admin/audit-sinks', {
      token: admin,
      json: { sinks: [sink] },
    });
    expect(put.status).toBe(200);
    expect(put.body.sinks[0]).toMatchObject(sink);
    const n = await head();
    await waitFor('the cursor is at the head', async () => (await status()).lag_events === 0);
    const received = syslogEvents(rsyslog.lines());
    expect(received.map((e) => e.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expectWholeChain(received, n);
    expect((await status()).last_error).toBeNull();
  });

  it('loses nothing when rsyslogd is stopped and started again while events stream', async () => {
    let writing = true;
    const writer = (async () => {
      while (writing) await record(5);
    })();
    try {
      const before = rsyslog.lines().length;
      await waitFor('events stream', () => rsyslog.lines().length > before + 50);
      await rsyslog.stop();
      await waitFor('the failure shows', async () => (await status()).last_error !== null);
      await rsyslog.start();
      const restarted = rsyslog.lines().length;
      await waitFor('events stream again', () => rsyslog.lines().length > restarted + 50);
    } finally {
      writing = false;
      await writer;
    }
    const n = await head();
    await waitFor('the cursor is at the head', async () => (await status()).lag_events === 0);
    expectWholeChain(syslogEvents(rsyslog.lines()), n);
  });

  it('moves the cursor past what a receiver acknowledged before it closed, and sends only the rest again', async () => {
    const stingy = await startRelpReceiver(pki, (n) => (n <= 3 ? '200 OK' : 'serverclose'));
    await api.grantDestination('acme', `tls://127.0.0.1:${stingy.port}`);
    try {
      const put = await api.request('PUT', '/api/admin/audit-sinks', {
        token: admin,
        json: {
          sinks: [
            {
              name: 'stingy',
              kind: 'syslog',
              host: '127.0.0.1',
              port: stingy.port,
              protocol: 'relp',
              ca_file: pki.caPath,
            },
          ],
        },
      });
      expect(put.status).toBe(200);
      const n = await head();
      await waitFor('the cursor is at the head', async () => (await status()).lag_events === 0);
      // Three a session, each session starting after the last one acknowledged: none twice.
      expect(syslogEvents(stingy.acknowledged).map((e) => e.seq)).toEqual(
        Array.from({ length: n }, (_, i) => i + 1),
      );
    } finally {
      await stingy.close();
    }
  });
});
