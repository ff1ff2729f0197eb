import { MAX_GROUPS, needsUserInfo, personFromClaims } from './person';

const settings = { tenantClaim: 'tenant', groupsClaim: 'groups' };
const ISS = 'https://login.acme.example';

describe('personFromClaims', () => {
  it('reads subject, name, email, tenant and groups', () => {
    expect(
      personFromClaims(
        {
          iss: ISS,
          sub: 'u-1',
          name: 'Bea',
          email: 'bea@acme.example',
          tenant: 'acme',
          groups: ['a', 'b', 'a'],
        },
        settings,
      ),
    ).toEqual({
      person: {
        subject: 'u-1',
        issuer: ISS,
        name: 'Bea',
        email: 'bea@acme.example',
        tenant: 'acme',
        groups: ['a', 'b'],
      },
    });
  });

  it('takes one group given as a string, and ignores groups that are not names', () => {
    const one = personFromClaims(
      { iss: ISS, sub: 's', tenant: 'acme', groups: 'approvers' },
      settings,
    );
    expect(one).toMatchObject({ person: { groups: ['approvers'] } });
    const odd = personFromClaims(
      { iss: ISS, sub: 's', tenant: 'acme', groups: [1, '', null, 'x'] },
      settings,
    );
    expect(odd).toMatchObject({ person: { groups: ['x'] } });
    const none = personFromClaims(
      { iss: ISS, sub: 's', tenant: 'acme', groups: { a: 1 } },
      settings,
    );
    expect(none).toMatchObject({ person: { groups: [], name: null, email: null } });
  });

  it('keeps at most MAX_GROUPS groups', () => {
    const groups = Array.from({ length: MAX_GROUPS + 10 }, (_, i) => `g${i}`);
    const r = personFromClaims({ iss: ISS, sub: 's', tenant: 'acme', groups }, settings);
    expect('person' in r && r.person.groups).toHaveLength(MAX_GROUPS);
  });

  it('uses the configured claim names, or one tenant for everyone', () => {
    const custom = { tenantClaim: 'org', groupsClaim: 'roles' };
    expect(
      personFromClaims({ iss: ISS, sub: 's', org: 'globex', roles: ['r'] }, custom),
    ).toMatchObject({
      person: { tenant: 'globex', groups: ['r'] },
    });
    expect(
      personFromClaims({ iss: ISS, sub: 's', tenant: 'ignored' }, { ...settings, tenant: 'acme' }),
    ).toMatchObject({ person: { tenant: 'acme' } });
  });

  it('refuses a person without subject or tenant, or with a tenant that is not a name', () => {
    expect(personFromClaims({ iss: ISS, tenant: 'acme' }, settings)).toEqual({
      problem: 'the identity provider sent no usable subject (sub)',
    });
    expect(personFromClaims({ sub: 's', tenant: 'acme' }, settings)).toEqual({
      problem: 'the identity provider sent no usable issuer (iss)',
    });
    expect(personFromClaims({ iss: ISS, sub: 's' }, settings)).toEqual({
      problem: 'your account carries no tenant (claim tenant)',
    });
    expect(personFromClaims({ iss: ISS, sub: 's', tenant: 'Acme Corp' }, settings)).toMatchObject({
      problem: expect.stringMatching(/not a tenant name/),
    });
  });

  it('asks userinfo when the ID token lacks groups, tenant or name', () => {
    expect(needsUserInfo({ sub: 's', tenant: 'a', groups: [], name: 'n' }, settings)).toBe(false);
    expect(needsUserInfo({ sub: 's', tenant: 'a', name: 'n' }, settings)).toBe(true);
    expect(needsUserInfo({ sub: 's', groups: [], name: 'n' }, settings)).toBe(true);
    expect(needsUserInfo({ sub: 's', groups: [], name: 'n' }, { ...settings, tenant: 'a' })).toBe(
      false,
    );
  });
});
