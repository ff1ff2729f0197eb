import {
  decidersAfterEscalation,
  decidersAtHold,
  type Identity,
  mayDecide,
  namesOf,
  notADecider,
  trustedIssuer,
} from './deciders';

const IDP = 'https://login.acme.example/realms/acme';
const OTHER_IDP = 'https://login.globex.example';

const token = (subject: string): Identity => ({ subject, issuer: null, groups: new Set() });
/** A person signed in through `issuer` (the trusted one unless said). */
const person = (subject: string, groups: string[] = [], issuer = IDP): Identity => ({
  subject,
  issuer,
  groups: new Set(groups),
});

describe('who may decide a held write', () => {
  it('is anyone with agents.approve when the agent names no approvers', () => {
    expect(decidersAtHold([])).toBeNull();
    expect(mayDecide(token('bob'), null, IDP)).toBe(true);
    expect(mayDecide(person('bob', [], OTHER_IDP), null, IDP)).toBe(true);
  });

  /** Each row: who, the agent's approvers, and whether they may decide (both ways). */
  it.each<[string, Identity, string[], boolean]>([
    ['a token by its subject', token('carol'), ['subject:carol'], true],
    ['a token of another subject', token('bob'), ['subject:carol'], false],
    ['a token whose subject is a listed group', token('sap-leads'), ['group:sap-leads'], false],
    [
      'a token whose subject is listed as a subject',
      token('sap-leads'),
      ['subject:sap-leads'],
      true,
    ],
    ['a person by a group', person('dave', ['staff', 'sap-leads']), ['group:sap-leads'], true],
    ['a person in no listed group', person('dave', ['staff']), ['group:sap-leads'], false],
    ['a person by subject', person('dave'), ['subject:dave'], true],
    ['a person whose subject is a listed group', person('sap-leads'), ['group:sap-leads'], false],
    [
      'a person in a group listed as a subject',
      person('dave', ['carol']),
      ['subject:carol'],
      false,
    ],
    [
      'a person of another issuer, by a group',
      person('dave', ['sap-leads'], OTHER_IDP),
      ['group:sap-leads'],
      false,
    ],
    [
      'a person of another issuer, by subject',
      person('dave', [], OTHER_IDP),
      ['subject:dave'],
      false,
    ],
    [
      'a person signed in before Warden recorded the issuer',
      person('dave', ['sap-leads'], ''),
      ['group:sap-leads', 'subject:dave'],
      false,
    ],
    [
      'an untyped entry from before (matches no one)',
      person('dave', ['sap-leads']),
      ['sap-leads'],
      false,
    ],
    ['an untyped entry, a token', token('carol'), ['carol'], false],
  ])('%s', (_, caller, approvers, may) => {
    expect(mayDecide(caller, decidersAtHold(approvers), IDP)).toBe(may);
  });

  it('trusts no person when the deployment trusts no issuer; tokens stay', () => {
    expect(mayDecide(person('dave', ['sap-leads']), ['group:sap-leads'], undefined)).toBe(false);
    expect(mayDecide(token('carol'), ['subject:carol'], undefined)).toBe(true);
  });

  it('adds escalate_to once escalated, each name once; anyone stays anyone', () => {
    expect(
      decidersAfterEscalation(['group:sap-leads'], ['group:heads', 'group:sap-leads']),
    ).toEqual(['group:sap-leads', 'group:heads']);
    expect(decidersAfterEscalation(null, ['group:heads'])).toBeNull();
    expect(mayDecide(token('erin'), ['group:sap-leads'], IDP)).toBe(false);
    const escalated = decidersAfterEscalation(['group:sap-leads'], ['group:heads']);
    expect(mayDecide(person('erin', ['heads']), escalated, IDP)).toBe(true);
  });

  it('names a caller by typed subject and groups', () => {
    expect(namesOf(person('dave', ['dave', 'staff']), IDP)).toEqual([
      'subject:dave',
      'group:dave',
      'group:staff',
    ]);
    expect(namesOf(token('ci'), IDP)).toEqual(['subject:ci']);
    expect(namesOf(person('dave', ['staff'], OTHER_IDP), IDP)).toEqual([]);
  });

  it('compares issuers as URLs', () => {
    expect(trustedIssuer('https://a.example', 'https://a.example/')).toBe(true);
    expect(trustedIssuer('https://a.example/realms/x', 'https://a.example/realms/x/')).toBe(false);
    expect(trustedIssuer('not a url', 'not a url')).toBe(false);
    expect(trustedIssuer(null, IDP)).toBe(false);
  });

  it('says who may decide, when an escalation would let the caller, and to sign in again', () => {
    expect(
      notADecider(token('bob'), 'sap-orders', ['group:sap-leads', 'subject:carol'], null, IDP),
    ).toBe(
      'only group:sap-leads, subject:carol may decide writes of agent sap-orders, and bob is not one of them',
    );
    const at = new Date('2026-03-15T10:00:00.000Z');
    const escalation = { to: ['subject:erin'], at };
    expect(notADecider(token('erin'), 'sap-orders', ['group:sap-leads'], escalation, IDP)).toBe(
      'only group:sap-leads may decide writes of agent sap-orders, and erin is not one of them; it is handed to subject:erin at 2026-03-15T10:00:00.000Z',
    );
    expect(
      notADecider(token('bob'), 'sap-orders', ['group:sap-leads'], escalation, IDP),
    ).not.toMatch(/handed/);
    expect(
      notADecider(person('dave', ['sap-leads'], ''), 'sap-orders', ['group:sap-leads'], null, IDP),
    ).toBe(
      'only group:sap-leads may decide writes of agent sap-orders, and dave is not one of them (your sign-in is not from the identity provider this deployment trusts now: sign in again)',
    );
  });
});
