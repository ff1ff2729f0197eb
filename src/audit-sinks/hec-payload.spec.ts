import type { AuditEventView } from '../audit/audit.service';
import { hecAcknowledged, hecBody } from './hec-payload';
import { hecEndpoint } from './sink-config';

const event = (seq: number): AuditEventView => ({
  id: `id-${seq}`,
  tenant: 'acme',
  seq,
  type: 'computer_use.start',
  actor: 'olga',
  run_id: null,
  step: null,
  at: '2026-11-02T09:30:00.250Z',
  details: {},
  prev_sha256: '0'.repeat(64),
  sha256: '1'.repeat(64),
});

describe('hecBody', () => {
  it('is one HEC event object a line, time in seconds', () => {
    const lines = hecBody([event(1), event(2)], { host: 'w1', index: 'audit' }).split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      {
        time: 1793611800.25,
        host: 'w1',
        source: 'warden',
        sourcetype: '_json',
        index: 'audit',
        event: event(1),
      },
      expect.objectContaining({ event: event(2) }),
    ]);
    expect(JSON.parse(hecBody([event(1)], { host: 'w1' }))).not.toHaveProperty('index');
  });
});

describe('hecAcknowledged', () => {
  it('takes only a 200 saying code 0', () => {
    expect(hecAcknowledged(200, '{"text":"Success","code":0}')).toBe(true);
    expect(hecAcknowledged(200, '{"code":9}')).toBe(false);
    expect(hecAcknowledged(200, 'ok')).toBe(false);
    expect(hecAcknowledged(503, '{"code":0}')).toBe(false);
  });
});

describe('hecEndpoint', () => {
  it("adds HEC's event path unless the URL has it", () => {
    expect(hecEndpoint('https://s.example.com:8088')).toBe(
      'https://s.example.com:8088/services/collector/event',
    );
    expect(hecEndpoint('https://s.example.com/splunk/')).toBe(
      'https://s.example.com/splunk/services/collector/event',
    );
    expect(hecEndpoint('https://s.example.com/services/collector/event')).toBe(
      'https://s.example.com/services/collector/event',
    );
  });
});
