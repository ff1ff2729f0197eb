import { type AccessGrant, type AccessStep, decideAccess, type RulePlanner } from './access-rule';

const navigator: RulePlanner = {
  id: 'navigator-2026-11-10-normal',
  family: 'navigator',
  public: false,
  tags: ['researcher'],
  programs: ['seed-research'],
};
const sonnet: RulePlanner = {
  id: 'anthropic-claude-sonnet-4.6-normal',
  family: 'anthropic-claude-sonnet',
  public: true,
  tags: [],
  programs: [],
};
const ada = { tenant: 'acme', subject: 'ada', tags: [] as string[], programs: [] as string[] };
const allow = (planner: string, subject: string | null = null, tenant = 'acme'): AccessGrant => ({
  kind: 'allow',
  tenant,
  subject,
  planner,
});
const deny = (planner: string, subject: string | null = null, tenant = 'acme'): AccessGrant => ({
  ...allow(planner, subject, tenant),
  kind: 'deny',
});

describe('the five-step rule', () => {
  // [case, planner, caller's tags, tenant's programs, grants, available, the step that decided]
  const table: Array<
    [string, RulePlanner, string[], string[], AccessGrant[], boolean, AccessStep]
  > = [
    // 1. deny
    ['a deny of the id to the subject', sonnet, [], [], [deny(sonnet.id, 'ada')], false, 'denied'],
    ['a deny of the id to the tenant', sonnet, [], [], [deny(sonnet.id)], false, 'denied'],
    ['a deny of the family to the tenant', sonnet, [], [], [deny(sonnet.family)], false, 'denied'],
    [
      'a deny of the family to the subject',
      sonnet,
      [],
      [],
      [deny(sonnet.family, 'ada')],
      false,
      'denied',
    ],
    [
      'a deny to another subject does not apply',
      sonnet,
      [],
      [],
      [deny(sonnet.id, 'bob')],
      true,
      'public',
    ],
    [
      'a deny to another tenant does not apply',
      sonnet,
      [],
      [],
      [deny(sonnet.id, null, 'globex')],
      true,
      'public',
    ],
    [
      'a deny of another family does not apply',
      sonnet,
      [],
      [],
      [deny('anthropic-claude-opus')],
      true,
      'public',
    ],
    [
      'a deny of another version does not apply',
      sonnet,
      [],
      [],
      [deny('anthropic-claude-sonnet-4.5-normal')],
      true,
      'public',
    ],
    [
      'a deny beats a tag',
      navigator,
      ['researcher'],
      [],
      [deny(navigator.id, 'ada')],
      false,
      'denied',
    ],
    [
      'a deny beats a program',
      navigator,
      [],
      ['seed-research'],
      [deny(navigator.family)],
      false,
      'denied',
    ],
    // deny beats allow, whichever names the id or the family, subject or tenant
    [
      'a subject deny beats a subject allow',
      navigator,
      [],
      [],
      [allow(navigator.id, 'ada'), deny(navigator.id, 'ada')],
      false,
      'denied',
    ],
    [
      'a tenant deny beats a subject allow',
      navigator,
      [],
      [],
      [allow(navigator.id, 'ada'), deny(navigator.id)],
      false,
      'denied',
    ],
    [
      'a subject deny beats a tenant allow',
      navigator,
      [],
      [],
      [allow(navigator.id), deny(navigator.id, 'ada')],
      false,
      'denied',
    ],
    [
      'a family deny beats an id allow',
      navigator,
      [],
      [],
      [allow(navigator.id, 'ada'), deny(navigator.family)],
      false,
      'denied',
    ],
    [
      'an id deny beats a family allow',
      navigator,
      [],
      [],
      [allow(navigator.family), deny(navigator.id)],
      false,
      'denied',
    ],
    // 2. allow
    [
      'an allow of the id to the subject',
      navigator,
      [],
      [],
      [allow(navigator.id, 'ada')],
      true,
      'allowed',
    ],
    ['an allow of the id to the tenant', navigator, [], [], [allow(navigator.id)], true, 'allowed'],
    [
      'an allow of the family to the subject',
      navigator,
      [],
      [],
      [allow('navigator', 'ada')],
      true,
      'allowed',
    ],
    [
      'an allow of the family to the tenant',
      navigator,
      [],
      [],
      [allow('navigator')],
      true,
      'allowed',
    ],
    [
      'an allow to another subject does not apply',
      navigator,
      [],
      [],
      [allow(navigator.id, 'bob')],
      false,
      'not_public',
    ],
    [
      'an allow to another tenant does not apply',
      navigator,
      [],
      [],
      [allow(navigator.id, null, 'globex')],
      false,
      'not_public',
    ],
    [
      'an allow of another version does not apply',
      navigator,
      [],
      [],
      [allow('navigator-2027-01-01-normal')],
      false,
      'not_public',
    ],
    [
      'an allow of another effort does not apply',
      navigator,
      [],
      [],
      [allow('navigator-2026-11-10-high')],
      false,
      'not_public',
    ],
    // 3. public
    ['a public planner with no grants', sonnet, [], [], [], true, 'public'],
    ['a planner that is not public, no grants', navigator, [], [], [], false, 'not_public'],
    // 4. tags and programs
    ['the subject has one of its tags', navigator, ['researcher'], [], [], true, 'tag'],
    ['the subject has other tags only', navigator, ['auditor'], [], [], false, 'not_public'],
    ['the tenant is in one of its programs', navigator, [], ['seed-research'], [], true, 'program'],
    ['the tenant is in other programs only', navigator, [], ['pilot'], [], false, 'not_public'],
    [
      'a tag spelled as a program does not count',
      navigator,
      [],
      ['researcher'],
      [],
      false,
      'not_public',
    ],
    [
      'a program spelled as a tag does not count',
      navigator,
      ['seed-research'],
      [],
      [],
      false,
      'not_public',
    ],
  ];

  it.each(table)('%s', (_case, planner, tags, programs, grants, available, step) => {
    const decision = decideAccess(planner, { ...ada, tags, programs }, grants);
    expect(decision).toMatchObject({ available, step });
    expect(decision.why).toMatch(/^\S.*\.$/);
    expect(decision.why).not.toContain('\n');
  });

  it('says who the deny was to and what it named', () => {
    expect(decideAccess(sonnet, ada, [deny(sonnet.family, 'ada')]).why).toBe(
      'anthropic-claude-sonnet-4.6-normal is not available: the deployment operator denied the anthropic-claude-sonnet family to subject ada.',
    );
    expect(decideAccess(sonnet, ada, [deny(sonnet.id)]).why).toBe(
      'anthropic-claude-sonnet-4.6-normal is not available: the deployment operator denied anthropic-claude-sonnet-4.6-normal to tenant acme.',
    );
  });

  it('says how a planner that is not public could be had', () => {
    expect(decideAccess(navigator, ada, []).why).toBe(
      'navigator-2026-11-10-normal is not public: it is available only to subjects tagged researcher (subject ada is not), or tenants in the program seed-research (tenant acme is not), or whoever the deployment operator allows it to.',
    );
    expect(decideAccess(navigator, { ...ada, tags: ['researcher'] }, []).why).toBe(
      'Subject ada is tagged researcher, which navigator-2026-11-10-normal is for.',
    );
  });

  it("a public planner's own reason is its why", () => {
    const script = { ...sonnet, publicWhy: 'It is a script of tenant acme.' };
    expect(decideAccess(script, ada, []).why).toBe('It is a script of tenant acme.');
  });
});
