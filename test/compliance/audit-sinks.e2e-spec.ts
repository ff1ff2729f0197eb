import type { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditService } from '../../src/audit/audit.service';
import { createWorker } from '../../src/worker.module';
import { startApi, type TestApi } from '../support/api';
import {
  type HecReceiver,
  makePki,
  type Rsyslog,
  startHec,
  startHangingReceiver,
  startRsyslog,
  type TestPki,
} from '../support/siem-receivers';
import { expectWholeChain, syslogEvents as receivedEvents } from '../support/syslog-chain';
import { SCRAPE_TOKEN } from '../support/api';
import { until } from '../support/until';

/**
 * Audit streaming (docs/security.md) to real receivers: Debian's rsyslogd over TLS and an HEC-shaped
 * HTTPS receiver, each down for a while and up again: nothing lost, no gap in seq.
 */
describe('audit sinks', () => {
  let api: TestApi;
  let worker: INestApplicationContext | undefined;
  let pki: TestPki;
  let rsyslog: Rsyslog;
  let hec: HecReceiver;
  let admin: string;
  let auditor: string;
  const caDir = mkdtempSync(join(tmpdir(), 'warden-sinks-ca-'));
  const hecToken = randomBytes(16).toString('hex');
  const tokenEnv = `WARDEN_TEST_HEC_${randomBytes(4).toString('hex').toUpperCase()}`;

  const record = async (n: number, tenant = 'acme') => {
    const audit = api.app.get(AuditService);
    for (let i = 0; i < n; i++) {
      await audit.record({ tenant, type: 'test.event', actor: 'tester', details: { i } });
    }
  };
  const sinks = () => api.request('GET', '/api/admin/audit-sinks', { token: admin });
  const put = (body: unknown, token = admin) =>
    api.request('PUT', '/api/admin/audit-sinks', { token, json: body });
  const head = async (tenant = 'acme') =>
    Number(
      (
        await api.db.sql<{ seq: string }>(
          `SELECT max(seq) AS seq FROM audit_events WHERE tenant = $1`,
          [tenant],
        )
      )[0].seq,
    );
  const waitFor = async (what: string, done: () => Promise<boolean> | boolean, ms = 20_000) =>
    void (await until(what, done, { ms, seen: async () => (await sinks()).body }));
  const syslogEvents = () => receivedEvents(rsyslog.lines());
  const seqs = (list: Array<{ seq: number }>) => list.map((e) => e.seq);
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  beforeAll(async () => {
    pki = makePki(caDir);
    rsyslog = await startRsyslog(mkdtempSync(join(tmpdir(), 'warden-rsyslog-')), pki);
    hec = await startHec(pki, hecToken);
    process.env[tokenEnv] = hecToken;
    api = await startApi(undefined, {
      CA_DIR: caDir,
      AUDIT_SINK_INTERVAL_MS: '100',
      AUDIT_SINK_BACKOFF_MAX_MS: '400',
      AUDIT_SINK_TIMEOUT_MS: '2000',
    });
    // The deployment operator lets acme's audit chain go to rsyslog (docs/security.md "Destinations").
    await api.grantDestination('acme', `tls://127.0.0.1:${rsyslog.port}`);
    admin = (await api.token('acme', 'ada', ['computer_use.admin'])).token;
    auditor = (await api.token('acme', 'aud', ['audit.read'])).token;
    worker = await createWorker(api.config);
    await worker.init();
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await rsyslog?.stop();
    await hec?.close();
    delete process.env[tokenEnv];
  });

  it('refuses a bad config naming the path, a CA file outside CA_DIR, and a caller without admin', async () => {
    const bad = await put({
      sinks: [
        { name: 'rsyslog', kind: 'syslog', host: '127.0.0.1', port: 0 },
        { name: 'x', kind: 'syslog', host: '127.0.0.1', port: 1, ca_file: '/etc/ssl/x.pem' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('sinks.0.port must be an integer from 1 to 65535');
    const outside = await put({
      sinks: [{ name: 'x', kind: 'syslog', host: '127.0.0.1', port: 1, ca_file: '/etc/ssl/x.pem' }],
    });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe(
      `sinks.0.ca_file must be a file under the deployment's CA_DIR (${caDir})`,
    );
    expect((await put({ sinks: [] }, auditor)).status).toBe(403);
    expect((await sinks()).body).toEqual({ sinks: [] });
  });

  it('streams the chain to rsyslog over TLS in seq order, the hash in structured data', async () => {
    await record(5);
    const r = await put({
      sinks: [
        {
          name: 'rsyslog',
          kind: 'syslog',
          host: '127.0.0.1',
          port: rsyslog.port,
          ca_file: pki.caPath,
        },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.sinks[0]).toMatchObject({
      name: 'rsyslog',
      kind: 'syslog',
      status: expect.any(Object),
    });
    const n = await head(); // tokens made, the five events and audit.sinks_changed
    await waitFor('rsyslog has the chain', () => syslogEvents().length >= n);
    const received = syslogEvents();
    expect(seqs(received)).toEqual(upTo(n));
    const chain = (await api.request('GET', '/api/audit?limit=100', { token: auditor })).body.items;
    for (const [i, event] of received.entries()) {
      expect(event.tenant).toBe('acme');
      expect(event.sha256).toBe(chain[i].sha256);
      expect(event.msg).toEqual(chain[i]);
      expect(event.line.startsWith(`<110>1 ${chain[i].at} `)).toBe(true);
      expect(event.line).toContain(` warden - ${chain[i].type} [warden@32473 tenant="acme" `);
    }
    const changed = chain.find((e: { type: string }) => e.type === 'audit.sinks_changed');
    expect(changed).toMatchObject({
      actor: 'ada',
      details: { added: ['rsyslog'], removed: [], changed: [] },
    });
    await waitFor('the cursor is at the head', async () => {
      const status = (await sinks()).body.sinks[0].status;
      return status.delivered_seq === n && status.lag_events === 0 && status.last_error === null;
    });
    expect((await sinks()).body.sinks[0].status.last_delivered_at).toEqual(expect.any(String));
  });

  it('loses nothing while rsyslog is down: lag grows, shows in GET and /metrics, and is shipped after', async () => {
    await rsyslog.stop();
    await record(30);
    await waitFor('the failure shows', async () => {
      const status = (await sinks()).body.sinks[0].status;
      return status.last_error !== null && status.lag_events === 30;
    });
    const status = (await sinks()).body.sinks[0].status;
    expect(status.last_error).toMatch(/^(ECONNREFUSED|ECONNRESET|closed|timeout)$/);
    expect(status.lag_seconds).toBeGreaterThan(0);
    const metrics = (await api.request('GET', '/metrics', { token: SCRAPE_TOKEN })).text;
    expect(metrics).toContain('warden_audit_sink_lag_events{tenant="acme",sink="rsyslog"} 30');
    expect(metrics).toMatch(
      /warden_audit_sink_lag_seconds\{tenant="acme",sink="rsyslog"\} [0-9.]+/,
    );
    await record(10);
    await rsyslog.start();
    const n = await head();
    await waitFor(
      'rsyslog caught up',
      async () => (await sinks()).body.sinks[0].status.lag_events === 0,
    );
    expect(seqs(syslogEvents())).toEqual(upTo(n));
    expect((await sinks()).body.sinks[0].status.last_error).toBeNull();
    expect((await api.request('GET', '/metrics', { token: SCRAPE_TOKEN })).text).toContain(
      'warden_audit_sink_lag_events{tenant="acme",sink="rsyslog"} 0',
    );
  });

  it('resumes from the cursor after the worker restarts', async () => {
    await worker!.close();
    worker = undefined;
    await record(7);
    const n = await head();
    expect((await sinks()).body.sinks[0].status.lag_events).toBe(7);
    worker = await createWorker(api.config);
    await worker.init();
    await waitFor('rsyslog caught up', () => syslogEvents().length >= n);
    expect(seqs(syslogEvents())).toEqual(upTo(n));
  });

  it('loses nothing to a receiver that accepts, hangs and is restarted: the chain arrives whole', async () => {
    await rsyslog.stop();
    const hanging = await startHangingReceiver(pki, rsyslog.port);
    try {
      await record(15);
      await waitFor(
        'a retry is on its way to the hanging receiver',
        () => hanging.accepted >= 2 && hanging.bytesOnOpen > 0,
      );
    } finally {
      await hanging.kill();
    }
    await rsyslog.start();
    const n = await head();
    await waitFor(
      'rsyslog caught up',
      async () => (await sinks()).body.sinks[0].status.lag_events === 0,
    );
    expectWholeChain(syslogEvents(), n);
  });

  it('posts to HEC with its token only once the operator granted it, through a 503 spell', async () => {
    const r = await put({
      sinks: [
        {
          name: 'rsyslog',
          kind: 'syslog',
          host: '127.0.0.1',
          port: rsyslog.port,
          ca_file: pki.caPath,
        },
        {
          name: 'splunk',
          kind: 'splunk_hec',
          url: hec.url,
          token_env: tokenEnv,
          index: 'warden',
          ca_file: pki.caPath,
        },
      ],
    });
    expect(r.status).toBe(200);
    await waitFor('not granted shows', async () =>
      /^not_granted: /.test((await sinks()).body.sinks[1].status.last_error ?? ''),
    );
    const refused = (await sinks()).body.sinks[1].status.last_error as string;
    expect(refused).toContain(`secrets grant --tenant acme --env ${tokenEnv} --to ${hec.url}`);
    expect(refused).not.toContain(hecToken);
    expect(hec.events).toEqual([]);
    hec.down = true;
    await api.grant('acme', tokenEnv, hec.url);
    await waitFor(
      '503 shows',
      async () => (await sinks()).body.sinks[1].status.last_error === 'HTTP 503',
    );
    await record(3);
    hec.down = false;
    const n = await head();
    await waitFor(
      'HEC caught up',
      async () => (await sinks()).body.sinks[1].status.lag_events === 0,
    );
    expect(hec.refused).toEqual([]);
    expect(seqs(hec.events.map((e) => e.event))).toEqual(upTo(n));
    expect(hec.events[0]).toEqual({
      time: Date.parse(hec.events[0].event.at) / 1000,
      host: expect.any(String),
      source: 'warden',
      sourcetype: '_json',
      index: 'warden',
      event: expect.objectContaining({ tenant: 'acme', seq: 1, sha256: expect.any(String) }),
    });
    // rsyslog kept its cursor through the change of the list.
    await waitFor('rsyslog caught up', () => syslogEvents().length >= n);
    expect(seqs(syslogEvents())).toEqual(upTo(n));
  });

  it("keeps tenants apart: another tenant's events never reach acme's sinks", async () => {
    await api.token('globex', 'gina', ['computer_use.admin']);
    await record(2, 'globex');
    await record(1);
    const n = await head();
    await waitFor('caught up', async () =>
      (await sinks()).body.sinks.every((s: any) => s.status.lag_events === 0),
    );
    expect(syslogEvents().every((e) => e.tenant === 'acme')).toBe(true);
    expect(seqs(syslogEvents())).toEqual(upTo(n));
    expect(hec.events.every((e) => e.event.tenant === 'acme')).toBe(true);
  });
  it('ships each sink from one worker at a time: two workers, batches of 200, no duplicate', async () => {
    const second = await createWorker(api.config);
    await second.init();
    try {
      await record(450);
      const n = await head();
      await waitFor('caught up', async () =>
        (await sinks()).body.sinks.every((s: any) => s.status.lag_events === 0),
      );
      expect(seqs(syslogEvents())).toEqual(upTo(n));
      expect(seqs(hec.events.map((e) => e.event))).toEqual(upTo(n));
    } finally {
      await second.close();
    }
  });

  it('sends a batch twice to a HEC collector that answers after the timeout: the copy has the same seq and sha256', async () => {
    const before = hec.events.length;
    hec.slow = 1;
    hec.slowMs = 3000; // AUDIT_SINK_TIMEOUT_MS is 2000
    await record(3);
    const n = await head();
    await waitFor('HEC caught up', async () =>
      (await sinks()).body.sinks.every((s: any) => s.status.lag_events === 0),
    );
    const arrived = hec.events.slice(before).map((e) => e.event);
    const last = Math.max(...arrived.map((e) => e.seq));
    expect(last).toBe(n);
    // The batch the collector took but answered late came again: every seq of it twice.
    const twice = arrived.filter((e) => arrived.filter((o) => o.seq === e.seq).length === 2);
    expect(twice.length).toBeGreaterThan(0);
    for (const copy of twice) {
      expect(arrived.find((e) => e.seq === copy.seq)).toEqual(copy);
    }
    // Dropped by seq, what the collector holds is the whole chain.
    expectWholeChain(
      hec.events.map((e) => ({
        line: '',
        tenant: e.event.tenant,
        seq: e.event.seq,
        sha256: e.event.sha256,
        msg: e.event,
      })),
      n,
    );
  });
});
