import type { AuditEventView } from '../audit/audit.service';
import { octetFrame, syslogMessage } from './syslog-frame';

const event: AuditEventView = {
  id: '6f1c1d9e-5d0b-4f3a-9d7e-0c8b7a6e5d4c',
  tenant: 'acme',
  seq: 42,
  type: 'computer_use.write',
  actor: 'agent:sap-orders "x"',
  run_id: '0b7f6c2a-1111-4222-8333-944455556666',
  step: 3,
  at: '2026-11-02T09:30:00.123Z',
  details: { text: 'Grüße ]' },
  prev_sha256: 'a'.repeat(64),
  sha256: 'b'.repeat(64),
};

describe('syslogMessage', () => {
  it('is an RFC 5424 message with the chain in structured data and the event as MSG', () => {
    const message = syslogMessage(event, 'worker 1');
    expect(message).toBe(
      `<110>1 2026-11-02T09:30:00.123Z worker1 warden - computer_use.write [warden@32473 tenant="acme" type="computer_use.write" run="${event.run_id}" step="3" seq="42" sha256="${'b'.repeat(64)}" prev_sha256="${'a'.repeat(64)}" actor="agent:sap-orders \\"x\\""] ${JSON.stringify(event)}`,
    );
  });

  it('leaves out run and step when the event has none, and cuts MSGID to 32', () => {
    const message = syslogMessage({ ...event, run_id: null, step: null, type: 'x'.repeat(40) }, '');
    expect(message).toContain(`Z - warden - ${'x'.repeat(32)} [warden@32473 tenant="acme" type="`);
    expect(message).not.toContain('run=');
    expect(message).not.toContain('step=');
  });
});

describe('octetFrame', () => {
  it('counts octets, not characters', () => {
    expect(octetFrame('ü')).toBe('2 ü');
  });
});
