/**
 * The audit page's views as data (browser/audit-view.ts): the filters between the URL, the form
 * and the API, what an event's row shows, and what the count, the chain check and the export
 * say. The console e2e tests check the nodes in Chromium.
 */
import {
  auditState,
  chainFailed,
  chainView,
  countText,
  eventView,
  exportedText,
  exportName,
  fieldsOf,
  filtersOf,
  leadText,
  ndjsonLines,
  toIso,
  toLocal,
  type AuditState,
} from './browser/audit-view';
import { clock } from './browser/words';
import type { AuditEvent } from './browser/api-types';

const event = (over: Partial<AuditEvent> = {}): AuditEvent => ({
  id: 'e1',
  tenant: 'acme',
  seq: 7,
  type: 'computer_use.start',
  actor: 'alice',
  run_id: '0f8c1e2a-1111-4222-8333-444455556666',
  step: null,
  at: '2026-03-15T10:05:00Z',
  details: { agent: 'sap', goal: 'Book order 4711' },
  prev_sha256: 'aa',
  sha256: 'bb',
  ...over,
});

const read = (over: Partial<AuditState>): AuditState => ({
  ...auditState('acme'),
  read: true,
  ...over,
});

describe('the audit page as data', () => {
  it('fills the form from the URL and gives the API the filters trimmed, times in UTC', () => {
    const local = toLocal('2026-03-15T10:05:00Z');
    expect(local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    // Back and forth: the minute a person sees is the instant the API gets.
    expect(toIso(local)).toBe('2026-03-15T10:05:00.000Z');
    expect(toLocal(null)).toBe('');
    expect(toLocal('not a time')).toBe('');
    expect(toIso('')).toBe('');
    expect(toIso('garbage')).toBe('');
    const fields = fieldsOf(
      new URLSearchParams({ run_id: ' r1 ', type: 'computer_use.', since: '2026-03-15T10:05:00Z' }),
    );
    expect(fields).toEqual({ type: 'computer_use.', run_id: ' r1 ', since: local, until: '' });
    expect(filtersOf(fields)).toEqual({
      type: 'computer_use.',
      run_id: 'r1',
      since: '2026-03-15T10:05:00.000Z',
      until: '',
    });
    expect(leadText('acme')).toMatch(/^Every event of tenant acme in chain order/);
  });

  it('counts the events once read: so far while more follow, or that none match', () => {
    expect(countText(auditState('acme'))).toBe('');
    expect(countText(read({}))).toBe('No events match.');
    expect(countText(read({ events: [event(), event({ seq: 8 })] }))).toBe('2 events.');
    expect(countText(read({ events: [event()], next: 'c2' }))).toBe('1 events so far.');
  });

  it('shows an event’s place in the chain, its run shortened, its gist and its details', () => {
    expect(eventView(event())).toEqual({
      seq: 7,
      time: clock('2026-03-15T10:05:00Z'),
      type: 'computer_use.start',
      actor: 'alice',
      run: {
        href: '/console/runs/0f8c1e2a-1111-4222-8333-444455556666',
        id: '0f8c1e2a-1111-4222-8333-444455556666',
        short: '0f8c1e2a',
      },
      step: '',
      words: expect.any(String) as string,
      details: '{\n  "agent": "sap",\n  "goal": "Book order 4711"\n}',
      sha256: 'bb',
      prev: 'aa',
    });
    expect(eventView(event({ run_id: null, step: 3 }))).toMatchObject({ run: null, step: 3 });
  });

  it('says whether the chain holds, where it broke, or why it could not be checked', () => {
    expect(
      chainView({ ok: true, checked: 12, head_sha256: '0123456789abcdef0123' }, 'acme'),
    ).toEqual({
      className: 'chain chain-ok',
      text: 'Chain ok: all 12 events of tenant acme are intact and in order. Head SHA-256 0123456789abcdef…',
    });
    expect(
      chainView({ ok: false, checked: 5, first_bad_id: 'e5', head_sha256: 'x' }, 'acme'),
    ).toEqual({
      className: 'chain chain-bad',
      text: 'Chain broken: event e5 was changed, removed or reordered (4 events before it are intact).',
    });
    expect(chainView({ ok: false, checked: 1, head_sha256: 'x' }, 'acme').text).toMatch(
      /^Chain broken: event \? was/,
    );
    expect(chainFailed('HTTP 500')).toEqual({
      className: 'chain chain-bad',
      text: 'Could not check the chain: HTTP 500',
    });
  });

  it('names the export by tenant and time, and counts its lines', () => {
    expect(exportName('acme', new Date('2026-03-15T10:05:00.123Z'))).toBe(
      'warden-audit-acme-2026-03-15T10-05-00-123Z.ndjson',
    );
    expect(ndjsonLines('{"a":1}\n{"a":2}\n')).toBe(2);
    expect(ndjsonLines('')).toBe(0);
    expect(exportedText(6, 3000)).toBe('Exported 6 events (3 KB), one JSON object a line.');
  });
});
