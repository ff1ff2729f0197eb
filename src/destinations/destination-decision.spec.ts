import { decide, type DestinationUse, grantCommand, type LiveGrant } from './destination-decision';
import {
  grantableOrigin,
  httpDestination,
  smtpDestination,
  tlsDestination,
} from './destination-origin';

const origin = (checked: { origin: string } | { problem: string }) => {
  if ('problem' in checked) throw new Error(checked.problem);
  return checked.origin;
};
const granted = (to: string): LiveGrant => ({ origin: to, env: null });
const secret = (to: string, env: string): LiveGrant => ({ origin: to, env });
const use = (to: string, extra: Partial<DestinationUse> = {}): DestinationUse => ({
  tenant: 'acme',
  origin: to,
  what: 'the syslog sink "siem"',
  ...extra,
});

describe('may this tenant’s traffic go to this origin', () => {
  // [what Warden is about to connect to, the tenant's live grants, granted?]
  const table: Array<[string, string, LiveGrant[], boolean]> = [
    ['no grants at all', 'tls://127.0.0.1:6514', [], false],
    [
      'a destination grant of exactly it',
      'tls://127.0.0.1:6514',
      [granted('tls://127.0.0.1:6514')],
      true,
    ],
    ['another port', 'tls://127.0.0.1:5432', [granted('tls://127.0.0.1:6514')], false],
    [
      'the same host and port over https',
      'tls://127.0.0.1:6514',
      [granted('https://127.0.0.1:6514')],
      false,
    ],
    [
      'https granted, plain http asked',
      'http://127.0.0.1:8443',
      [granted('https://127.0.0.1:8443')],
      false,
    ],
    [
      'localhost granted, 127.0.0.1 asked',
      'tls://127.0.0.1:6514',
      [granted('tls://localhost:6514')],
      false,
    ],
    [
      'a grant for the host without a port (443) and the https default port',
      'https://siem.internal',
      [granted('https://siem.internal:443')],
      true,
    ],
    [
      'a host written in capitals',
      'https://siem.internal:8088',
      [granted('https://SIEM.internal:8088')],
      true,
    ],
    [
      'a subdomain of the granted host',
      'https://evil.siem.internal:8088',
      [granted('https://siem.internal:8088')],
      false,
    ],
    [
      'a secret grant for the origin grants it',
      'https://hooks.example.com',
      [secret('https://hooks.example.com', 'ACME_HOOK')],
      true,
    ],
    [
      'a secret grant for another origin does not',
      'https://hooks.example.com',
      [secret('https://hooks.example.net', 'ACME_HOOK')],
      false,
    ],
    [
      'smtp granted, smtps asked',
      'smtps://mail.internal:465',
      [granted('smtp://mail.internal:465')],
      false,
    ],
    [
      'a row written by hand that is no origin grants nothing',
      'https://siem.internal:8088',
      [granted('siem.internal:8088')],
      false,
    ],
  ];

  it.each(table)('%s', (_why, to, grants, expected) => {
    expect(decide(use(to), grants).granted).toBe(expected);
  });

  it('says which grant is missing and the command that adds it, and no network detail', () => {
    const decision = decide(use('tls://127.0.0.1:5432'), [granted('tls://127.0.0.1:6514')]);
    expect(decision).toEqual({
      granted: false,
      fix: 'npm run cli -- destinations grant --tenant acme --to tls://127.0.0.1:5432',
      message:
        'the syslog sink "siem" at tls://127.0.0.1:5432 is not granted for tenant acme: Warden connects there on this tenant\'s behalf once the deployment operator adds the grant with `npm run cli -- destinations grant --tenant acme --to tls://127.0.0.1:5432`',
    });
  });

  it("names the deployment's own destinations by what they are, not by their address", () => {
    const decision = decide(
      use('http://10.0.0.7:8000', { what: 'e-mail', deployment: 'smtp' }),
      [],
    );
    expect(decision.granted).toBe(false);
    expect(!decision.granted && decision.message).toBe(
      "e-mail goes to the deployment's SMTP server, which is not granted for tenant acme: Warden connects there on this tenant's behalf once the deployment operator adds the grant with `npm run cli -- destinations grant --tenant acme --to smtp`",
    );
    expect(JSON.stringify(decision)).not.toContain('10.0.0.7');
  });

  it("grants the deployment's own destinations by a destination grant only, never by a secret grant of their origin", () => {
    const model = 'https://api.anthropic.com';
    const deploymentUse = use(model, { what: 'the planner', deployment: 'default-model' });
    // The tenant's own key for the same endpoint: its own key may go there, the operator's not.
    const own = secret(model, 'ACME_ANTHROPIC_KEY');
    expect(decide(deploymentUse, [own])).toMatchObject({
      granted: false,
      fix: 'npm run cli -- destinations grant --tenant acme --to default-model',
    });
    expect(decide(use(model), [own]).granted).toBe(true);
    expect(decide(deploymentUse, [own, granted(model)])).toEqual({
      granted: true,
      by: [granted(model)],
    });
    // A MODEL_PLANNERS planner's endpoint the same: named by the planner's id.
    const planner = use(model, {
      what: 'the planner',
      deployment: { planner: 'lab-vlm-2-normal' },
    });
    expect(decide(planner, [own])).toMatchObject({
      granted: false,
      fix: 'npm run cli -- destinations grant --tenant acme --to lab-vlm-2-normal',
    });
    expect(decide(planner, [own])).toMatchObject({
      message: expect.stringContaining("goes to the deployment's model planner lab-vlm-2-normal"),
    });
    expect(decide(planner, [own, granted(model)]).granted).toBe(true);
    const mail = use('smtp://mail.internal:587', { what: 'e-mail', deployment: 'smtp' });
    expect(decide(mail, [secret('smtp://mail.internal:587', 'ACME_SMTP')]).granted).toBe(false);
  });

  it('answers the grants that grant it', () => {
    const grants = [
      granted('https://hooks.example.com'),
      secret('https://hooks.example.com', 'ACME_HOOK'),
      granted('https://other.example.com'),
    ];
    expect(decide(use('https://hooks.example.com'), grants)).toEqual({
      granted: true,
      by: grants.slice(0, 2),
    });
  });

  it('the command names the tenant and the origin', () => {
    expect(grantCommand('globex', 'smtp')).toBe(
      'npm run cli -- destinations grant --tenant globex --to smtp',
    );
  });
});

describe('the origin of each kind of connection', () => {
  it.each([
    ['https://SIEM.example.com:8088/services/collector/event', 'https://siem.example.com:8088'],
    ['https://api.openai.com:443/v1', 'https://api.openai.com'],
    ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434'],
    ['http://[::1]:8000', 'http://[::1]:8000'],
  ])('https %s is %s', (url, expected) => {
    expect(origin(httpDestination(url))).toBe(expected);
  });

  it('plain http off loopback is no destination at all', () => {
    expect(httpDestination('http://10.0.0.5:8080')).toEqual({
      problem: expect.stringMatching(/only on loopback/),
    });
  });

  it.each([
    ['127.0.0.1', 6514, 'tls://127.0.0.1:6514'],
    ['SIEM.Internal', 6514, 'tls://siem.internal:6514'],
    ['127.1', 6514, 'tls://127.0.0.1:6514'],
    ['::1', 6514, 'tls://[::1]:6514'],
    ['[::1]', 6514, 'tls://[::1]:6514'],
  ])('a syslog sink at %s:%s is %s', (host, port, expected) => {
    expect(origin(tlsDestination(host, port))).toBe(expected);
  });

  it('a syslog sink connects to the host as its origin names it', () => {
    expect(tlsDestination('127.1', 6514)).toEqual({
      origin: 'tls://127.0.0.1:6514',
      host: '127.0.0.1',
      port: 6514,
    });
    expect(tlsDestination('[::1]', 6514)).toMatchObject({ host: '::1' });
  });

  it.each([
    ['smtp://mail.internal', 'smtp://mail.internal:587'],
    ['smtp://relay@Mail.Internal:2525', 'smtp://mail.internal:2525'],
    ['smtps://mail.internal', 'smtps://mail.internal:465'],
    ['smtp://127.0.0.1:2525/', 'smtp://127.0.0.1:2525'],
  ])('SMTP_URL %s is %s', (url, expected) => {
    expect(origin(smtpDestination(url))).toBe(expected);
  });

  it.each([
    ['https://siem.internal:8088/', 'https://siem.internal:8088'],
    ['https://siem.internal:443', 'https://siem.internal'],
    ['http://localhost:8000', 'http://localhost:8000'],
    ['tls://SIEM.internal:6514', 'tls://siem.internal:6514'],
    ['tls://[::1]:6514', 'tls://[::1]:6514'],
    ['smtp://mail.internal', 'smtp://mail.internal:587'],
    ['smtps://mail.internal:465/', 'smtps://mail.internal:465'],
  ])('a grant --to %s grants %s', (to, expected) => {
    expect(origin(grantableOrigin(to))).toBe(expected);
  });

  it.each([
    ['http://siem.internal:8088', /only on loopback/],
    ['https://siem.internal:8088/services', /is not an origin/],
    ['https://siem.internal:8088?x=1', /is not an origin/],
    ['https://u:p@siem.internal', /user or password/],
    ['tls://siem.internal', /tls:\/\/ needs a port/],
    ['tls://siem.internal:6514/x', /is not an origin/],
    ['tls://user@siem.internal:6514', /is not an origin/],
    ['tls://siem.internal:70000', /is not a host and port/],
    ['ftp://siem.internal', /is not an origin Warden connects to/],
    ['siem.internal:6514', /is not an origin Warden connects to/],
  ])('a grant --to %s is refused', (to, problem) => {
    const checked = grantableOrigin(to);
    expect('problem' in checked && checked.problem).toMatch(problem);
  });
});
