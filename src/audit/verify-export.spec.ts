import { eventSha256, GENESIS_SHA256 } from './audit-chain';
import { verifyExport } from './verify-export';

/** A chain of `n` events of `tenant` as the NDJSON export writes it, one JSON object a line. */
function chain(n: number, tenant = 'acme'): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  let prev = GENESIS_SHA256;
  for (let seq = 1; seq <= n; seq++) {
    const at = new Date(Date.UTC(2026, 10, 2, 9, 30, seq));
    const content = {
      tenant,
      seq,
      type: 'test.event',
      actor: 'tester',
      runId: null,
      step: null,
      at,
      details: { i: seq, text: 'Grüße' },
      prevSha256: prev,
    };
    const sha256 = eventSha256(content);
    events.push({
      id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
      tenant,
      seq,
      type: 'test.event',
      actor: 'tester',
      run_id: null,
      step: null,
      at: at.toISOString(),
      details: content.details,
      prev_sha256: prev,
      sha256,
    });
    prev = sha256;
  }
  return events;
}

async function* linesOf(events: Array<Record<string, unknown> | string>) {
  for (const event of events) yield typeof event === 'string' ? event : JSON.stringify(event);
}

describe('verifyExport', () => {
  it('verifies a whole export, its head the last hash', async () => {
    const events = chain(3);
    expect(await verifyExport(linesOf([...events, '']))).toEqual({
      ok: true,
      checked: 3,
      head_sha256: events[2].sha256,
      tenant: 'acme',
    });
  });

  it('names the first event changed, left out or out of place', async () => {
    const changed = chain(3);
    changed[1] = { ...changed[1], details: { i: 99 } };
    expect(await verifyExport(linesOf(changed))).toEqual({
      ok: false,
      checked: 2,
      first_bad_id: changed[1].id,
      head_sha256: changed[0].sha256,
      tenant: 'acme',
    });
    const gap = chain(3);
    expect(await verifyExport(linesOf([gap[0], gap[2]]))).toMatchObject({
      ok: false,
      first_bad_id: gap[2].id,
    });
    const filtered = chain(3).slice(1);
    expect(await verifyExport(linesOf(filtered))).toMatchObject({
      ok: false,
      first_bad_id: filtered[0].id,
      head_sha256: GENESIS_SHA256,
    });
  });

  it('refuses a line that is no event, another tenant, or an empty file', async () => {
    const events = chain(2);
    expect(await verifyExport(linesOf([events[0], '{"seq": 2']))).toMatchObject({
      ok: false,
      checked: 1,
      problem: 'line 2 is not an audit event: not JSON',
    });
    expect(await verifyExport(linesOf([{ ...events[0], at: '2026-11-02' }]))).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^line 1 is not an audit event: at must be a time/),
    });
    expect(await verifyExport(linesOf([events[0], chain(2, 'globex')[1]]))).toMatchObject({
      ok: false,
      problem: 'line 2 is an event of tenant globex, the file began with acme',
    });
    expect(await verifyExport(linesOf([]))).toEqual({
      ok: false,
      checked: 0,
      head_sha256: GENESIS_SHA256,
      tenant: null,
      problem: 'the file holds no events',
    });
  });
});
