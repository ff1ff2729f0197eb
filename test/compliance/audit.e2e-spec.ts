import { AuditService } from '../../src/audit/audit.service';
import { startApi, TestApi } from '../support/api';

describe('audit log', () => {
  let api: TestApi;
  let audit: AuditService;
  let acmeAuditor: string;
  let globexAuditor: string;
  const run = '7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c';

  beforeAll(async () => {
    api = await startApi();
    audit = api.app.get(AuditService);
    acmeAuditor = (await api.token('acme', 'ada', ['audit.read'])).token;
    globexAuditor = (await api.token('globex', 'gus', ['audit.read'])).token;
    await audit.record({
      tenant: 'acme',
      type: 'computer_use.start',
      actor: 'alice',
      runId: run,
      step: 0,
      details: { goal: 'change 4711' },
    });
    await audit.record({
      tenant: 'acme',
      type: 'computer_use.write.held',
      actor: 'worker',
      runId: run,
      step: 3,
      details: { action: { action: 'click', x: 812, y: 96 }, why: 'click on “Save”' },
    });
    await audit.record({
      tenant: 'acme',
      type: 'approval.decided',
      actor: 'bob',
      runId: run,
      step: 3,
      details: { decision: 'approved' },
    });
    await audit.record({
      tenant: 'globex',
      type: 'computer_use.start',
      actor: 'gina',
      details: { goal: 'secret globex goal' },
    });
  });

  afterAll(async () => {
    await api.close();
  });

  const list = (token: string, query = '') => api.request('GET', `/api/audit${query}`, { token });

  it('lists a tenant its own events in chain order, each linked to the one before', async () => {
    const { status, body } = await list(acmeAuditor);
    expect(status).toBe(200);
    const types = body.items.map((e: { type: string }) => e.type);
    expect(types).toEqual([
      'token.created',
      'computer_use.start',
      'computer_use.write.held',
      'approval.decided',
    ]);
    expect(body.items[0].prev_sha256).toBe('0'.repeat(64));
    for (let i = 1; i < body.items.length; i++) {
      expect(body.items[i].prev_sha256).toBe(body.items[i - 1].sha256);
      expect(body.items[i].seq).toBe(body.items[i - 1].seq + 1);
    }
    expect(body.items[2]).toMatchObject({
      tenant: 'acme',
      actor: 'worker',
      run_id: run,
      step: 3,
      details: { action: { action: 'click', x: 812, y: 96 } },
    });
  });

  it('shows another tenant none of them, and verifies each chain on its own', async () => {
    const globex = await list(globexAuditor);
    expect(globex.body.items.every((e: { tenant: string }) => e.tenant === 'globex')).toBe(true);
    expect(globex.text).not.toContain('change 4711');
    expect(globex.body.items.map((e: { type: string }) => e.type)).toEqual([
      'token.created',
      'computer_use.start',
    ]);
    const byRun = await list(globexAuditor, `?run_id=${run}`);
    expect(byRun.body.items).toEqual([]);

    const acmeVerify = await api.request('GET', '/api/audit/verify', { token: acmeAuditor });
    const globexVerify = await api.request('GET', '/api/audit/verify', { token: globexAuditor });
    expect(acmeVerify.body).toEqual({
      ok: true,
      checked: 4,
      head_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(globexVerify.body).toMatchObject({ ok: true, checked: 2 });
  });

  it('filters by type prefix, exact type, run and time', async () => {
    const prefix = await list(acmeAuditor, '?type=computer_use.');
    expect(prefix.body.items.map((e: { type: string }) => e.type)).toEqual([
      'computer_use.start',
      'computer_use.write.held',
    ]);
    const exact = await list(acmeAuditor, '?type=computer_use.write');
    expect(exact.body.items).toEqual([]);
    const held = await list(acmeAuditor, '?type=computer_use.write.held');
    expect(held.body.items).toHaveLength(1);
    const byRun = await list(acmeAuditor, `?run_id=${run}`);
    expect(byRun.body.items).toHaveLength(3);
    const future = await list(acmeAuditor, '?since=2999-01-01T00:00:00Z');
    expect(future.body.items).toEqual([]);
    const past = await list(acmeAuditor, '?until=2000-01-01T00:00:00Z');
    expect(past.body.items).toEqual([]);
    const all = await list(acmeAuditor, '?since=2000-01-01T00:00:00Z&until=2999-01-01T00:00:00Z');
    expect(all.body.items).toHaveLength(4);
  });

  it('pages with a cursor and refuses bad query values, naming the field', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await list(acmeAuditor, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((e: { id: string }) => e.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(4);

    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=abc', 'limit'],
      ['?since=yesterday', 'since'],
      ['?run_id=42', 'run_id'],
      ['?type=DROP%20TABLE', 'type'],
      ['?cursor=bm9wZQ', 'cursor'],
      ['?color=red', 'color'],
    ]) {
      const bad = await list(acmeAuditor, query);
      expect({ query, status: bad.status }).toEqual({ query, status: 400 });
      expect(bad.body.message).toContain(field);
    }
  });

  it('exports every matching event as NDJSON', async () => {
    const response = await api.request('GET', '/api/audit?type=computer_use.', {
      token: acmeAuditor,
      headers: { accept: 'application/x-ndjson' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = response.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => e.type)).toEqual(['computer_use.start', 'computer_use.write.held']);
  });

  it('keeps one unbroken chain under concurrent appends', async () => {
    const initech = (await api.token('initech', 'ian', ['audit.read'])).token;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        audit.record({
          tenant: 'initech',
          type: 'computer_use.start',
          actor: `w${i % 4}`,
          details: { i },
        }),
      ),
    );
    const verify = await api.request('GET', '/api/audit/verify', { token: initech });
    expect(verify.body).toMatchObject({ ok: true, checked: 41 });
    const rows = await api.db.sql<{ seq: string }>(
      `SELECT seq FROM audit_events WHERE tenant = 'initech' ORDER BY seq`,
    );
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
  });
});

describe('audit tamper evidence', () => {
  let api: TestApi;
  let auditor: string;

  beforeAll(async () => {
    api = await startApi();
    auditor = (await api.token('acme', 'ada', ['audit.read'])).token;
    for (let i = 0; i < 4; i++) {
      await api.app
        .get(AuditService)
        .record({ tenant: 'acme', type: 'computer_use.end', actor: 'worker', details: { i } });
    }
  });

  afterAll(async () => {
    await api.close();
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    await expect(api.db.sql(`UPDATE audit_events SET actor = 'mallory'`)).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(api.db.sql(`DELETE FROM audit_events`)).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    await expect(api.db.sql(`TRUNCATE audit_events CASCADE`)).rejects.toThrow(
      /append-only: TRUNCATE refused/,
    );
    const [{ count }] = await api.db.sql<{ count: string }>(`SELECT count(*) FROM audit_events`);
    expect(Number(count)).toBe(5);
  });

  it('finds a changed row once the trigger is out of the way', async () => {
    const [victim] = await api.db.sql<{ id: string }>(
      `SELECT id FROM audit_events WHERE tenant = 'acme' ORDER BY seq OFFSET 2 LIMIT 1`,
    );
    await api.db.sql(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`);
    try {
      await api.db.sql(`UPDATE audit_events SET details = '{"i": 99}' WHERE id = $1`, [victim.id]);
    } finally {
      await api.db.sql(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`);
    }
    const verify = await api.request('GET', '/api/audit/verify', { token: auditor });
    expect(verify.body).toMatchObject({ ok: false, checked: 3, first_bad_id: victim.id });
  });

  it('finds a deleted row: the next one no longer links', async () => {
    const rows = await api.db.sql<{ id: string }>(
      `SELECT id FROM audit_events WHERE tenant = 'acme' ORDER BY seq`,
    );
    await api.db.sql(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`);
    try {
      await api.db.sql(`DELETE FROM audit_events WHERE id = $1`, [rows[1].id]);
    } finally {
      await api.db.sql(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`);
    }
    const verify = await api.request('GET', '/api/audit/verify', { token: auditor });
    expect(verify.body).toMatchObject({ ok: false, checked: 2, first_bad_id: rows[2].id });
  });
});
