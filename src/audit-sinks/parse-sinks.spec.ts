import { DomainError } from '../common/domain-error';
import { parseSinksBody } from './parse-sinks';

const refusal = (body: unknown): string => {
  try {
    parseSinksBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('accepted');
};

describe('parseSinksBody', () => {
  it('reads both kinds, keeping only their fields, and ignores what GET adds', () => {
    expect(
      parseSinksBody({
        sinks: [
          { name: 'rsyslog', kind: 'syslog', host: 'siem.example.com', port: 6514, status: {} },
          { name: 'relp', kind: 'syslog', host: 'siem.example.com', port: 2514, protocol: 'relp' },
          {
            name: 'splunk',
            kind: 'splunk_hec',
            url: 'https://splunk.example.com:8088',
            token_env: 'ACME_HEC_TOKEN',
            index: 'warden',
            ca_file: '/etc/warden/ca/splunk.pem',
          },
        ],
      }),
    ).toEqual([
      { name: 'rsyslog', kind: 'syslog', host: 'siem.example.com', port: 6514 },
      { name: 'relp', kind: 'syslog', host: 'siem.example.com', port: 2514, protocol: 'relp' },
      {
        name: 'splunk',
        kind: 'splunk_hec',
        url: 'https://splunk.example.com:8088',
        token_env: 'ACME_HEC_TOKEN',
        index: 'warden',
        ca_file: '/etc/warden/ca/splunk.pem',
      },
    ]);
    expect(parseSinksBody({ sinks: [] })).toEqual([]);
  });

  it('names every problem by its path', () => {
    const message = refusal({
      sinks: [
        { name: 'a', kind: 'syslog', host: 'https://x', port: 70000, url: 'x' },
        { name: 'B!', kind: 'splunk_hec', url: 'http://splunk.example.com', token_env: 'abc' },
        { name: 'c', kind: 'kafka' },
        { name: 'd', kind: 'syslog', host: 'siem.example.com', port: 2514, protocol: 'RELP' },
      ],
    });
    expect(message).toContain('sinks.0.url is not a field of a syslog sink');
    expect(message).toContain('sinks.0.host must be a host name or an IP address');
    expect(message).toContain('sinks.0.port must be an integer from 1 to 65535');
    expect(message).toContain('sinks.1.name must be 1-63');
    expect(message).toContain('sinks.1.url: plain http:// is allowed only on loopback');
    expect(message).toContain('sinks.1.token_env must name an environment variable');
    expect(message).toContain('sinks.2.kind must be one of syslog, splunk_hec');
    expect(message).toContain('sinks.3.protocol must be one of rfc5425, relp (left out: rfc5425)');
  });

  it('refuses a secret, a duplicate name, a relative CA file and a body of the wrong shape', () => {
    expect(
      refusal({
        sinks: [{ name: 's', kind: 'splunk_hec', url: 'https://s.example.com', token: 'abc' }],
      }),
    ).toContain('sinks.0.token would hold a secret');
    const twice = { name: 's', kind: 'syslog', host: '127.0.0.1', port: 1 };
    expect(refusal({ sinks: [twice, twice] })).toBe('sinks.1.name: s is named twice');
    expect(refusal({ sinks: [{ ...twice, ca_file: 'ca.pem' }] })).toBe(
      'sinks.0.ca_file must be an absolute path',
    );
    expect(refusal([])).toBe('the body must be a JSON object {"sinks": [...]}');
    expect(refusal({ sinks: {} })).toMatch(/^sinks must be a list/);
    expect(refusal({ sinks: [], extra: 1 })).toBe('extra is not a field (only sinks)');
  });
});
