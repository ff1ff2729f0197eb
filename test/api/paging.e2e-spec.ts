import { randomUUID } from 'node:crypto';
import { AuditService } from '../../src/audit/audit.service';
import { startApi, TestApi } from '../support/api';

/**
 * Every list of the API (docs/api.md) walked page by page over rows that PostgreSQL created within
 * one millisecond: `created_at` keeps microseconds, and a cursor that kept only milliseconds would
 * repeat or skip rows at a page boundary.
 */

const ROWS = 13;
/** One millisecond, and ROWS rows inside it a microsecond apart, in an order their ids do not share. */
const SAME_MS = '2026-12-01T10:00:00.123';
const micros = (i: number) => `${SAME_MS}${String((i * 7) % ROWS).padStart(3, '0')}Z`;

describe('paging through rows created within one millisecond', () => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await startApi();
    ({ token } = await api.token('acme', 'pat', [
      'agents.operate',
      'agents.approve',
      'audit.read',
      'computer_use.admin',
    ]));
  });

  afterAll(async () => {
    await api?.close();
  });

  /** Every item of a list, limit 2 a page, in the order the pages gave them. */
  async function walk(path: string): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const sep = path.includes('?') ? '&' : '?';
      const page: any = await api.request(
        'GET',
        `${path}${sep}limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.next_cursor;
      if (!cursor) return seen;
    }
    throw new Error(`${path}: more than 100 pages`);
  }

  it('walks runs, newest first, each once', async () => {
    const ids: Array<{ id: string; at: string }> = [];
    for (let i = 0; i < ROWS; i++) {
      const id = randomUUID();
      ids.push({ id, at: micros(i) });
      await api.db.sql(
        `INSERT INTO runs (id, tenant, agent, goal, status, created_by, created_by_token, created_at,
                           config_version, agent_config, lease_key, max_steps, max_seconds)
         VALUES ($1, 'acme', 'sap-orders', 'page', 'completed', 'pat', $2, $3, 1, '{}', 'x', 20, 300)`,
        [id, randomUUID(), ids[i].at],
      );
    }
    const expected = ids
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
      .map((r) => r.id);
    expect(await walk('/api/computer-use/runs')).toEqual(expected);
  });

  it('walks waiting actions, oldest first, each once', async () => {
    const ids: Array<{ id: string; at: string }> = [];
    for (let i = 0; i < ROWS; i++) {
      const id = randomUUID();
      ids.push({ id, at: micros(i) });
      await api.db.sql(
        `INSERT INTO approvals (id, tenant, kind, status, agent, run_id, step, step_id, action, why,
                                screen_sha256, screen_pixel_sha256, requested_by, requested_by_token,
                                created_at, expires_at)
         VALUES ($1, 'acme', 'computer_use.write', 'pending', 'sap-orders', $2, 1, $3,
                 '{"action":"key","key":"Enter"}', 'a commit key', repeat('a', 64), repeat('b', 64),
                 'pat', $4, $5, '2999-01-01T00:00:00Z')`,
        [id, randomUUID(), randomUUID(), randomUUID(), ids[i].at],
      );
    }
    const expected = ids
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1))
      .map((r) => r.id);
    expect(await walk('/api/approvals')).toEqual(expected);
  });

  it('walks scripted planners, oldest first, each once', async () => {
    const ids: Array<{ id: string; at: string }> = [];
    for (let i = 0; i < ROWS; i++) {
      const id = randomUUID();
      ids.push({ id, at: micros(i) });
      await api.db.sql(
        `INSERT INTO scripted_planners (id, tenant, name, script, created_by, created_at, updated_at)
         VALUES ($1, 'acme', $2, '{"steps":[{"action":{"action":"done","summary":"ok"}}]}', 'pat', $3, $3)`,
        [id, `p${i}`, ids[i].at],
      );
    }
    const expected = ids
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1))
      .map((r) => `scripted-${r.id}`);
    expect(await walk('/api/planners/scripted')).toEqual(expected);
  });

  it('walks the audit trail in chain order, each event once', async () => {
    const audit = api.app.get(AuditService);
    const recorded = await Promise.all(
      Array.from({ length: ROWS }, (_, i) =>
        audit.record({ tenant: 'acme', type: 'test.paging', actor: 'pat', details: { i } }),
      ),
    );
    const expected = recorded.sort((a, b) => a.seq - b.seq).map((e) => e.id);
    const walked = await walk('/api/audit?type=test.paging');
    expect(walked).toEqual(expected);
  });
});
