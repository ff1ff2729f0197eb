import {
  decidersAfterEscalation,
  decidersAtHold,
  mayDecide,
  namesOf,
  notADecider,
} from './deciders';

const token = (subject: string) => ({ subject, groups: new Set<string>() });
const session = (subject: string, ...groups: string[]) => ({ subject, groups: new Set(groups) });

describe('who may decide a held write', () => {
  it('is anyone with agents.approve when the agent names no approvers', () => {
    expect(decidersAtHold([])).toBeNull();
    expect(mayDecide(token('bob'), null)).toBe(true);
  });

  it('matches a token by its subject, a session by its subject or any of its groups', () => {
    const deciders = decidersAtHold(['sap-leads', 'carol']);
    expect(deciders).toEqual(['sap-leads', 'carol']);
    expect(mayDecide(token('carol'), deciders)).toBe(true);
    expect(mayDecide(token('bob'), deciders)).toBe(false);
    expect(mayDecide(session('dave', 'staff', 'sap-leads'), deciders)).toBe(true);
    expect(mayDecide(session('dave', 'staff'), deciders)).toBe(false);
    // A token whose subject is a group's name stands for that name, as the config says.
    expect(mayDecide(token('sap-leads'), deciders)).toBe(true);
  });

  it('adds escalate_to once escalated, each name once; anyone stays anyone', () => {
    expect(decidersAfterEscalation(['sap-leads'], ['heads', 'sap-leads'])).toEqual([
      'sap-leads',
      'heads',
    ]);
    expect(decidersAfterEscalation(null, ['heads'])).toBeNull();
    expect(mayDecide(token('erin'), ['sap-leads'])).toBe(false);
    expect(
      mayDecide(session('erin', 'heads'), decidersAfterEscalation(['sap-leads'], ['heads'])),
    ).toBe(true);
  });

  it('names a caller by subject and groups', () => {
    expect(namesOf(session('dave', 'dave', 'staff'))).toEqual(['dave', 'staff']);
  });

  it('says who may decide, and when an escalation would let the caller', () => {
    expect(notADecider(token('bob'), 'sap-orders', ['sap-leads', 'carol'], null)).toBe(
      'only members of sap-leads, carol may decide writes of agent sap-orders, and bob is not one',
    );
    const at = new Date('2026-03-15T10:00:00.000Z');
    expect(notADecider(token('erin'), 'sap-orders', ['sap-leads'], { to: ['erin'], at })).toBe(
      'only members of sap-leads may decide writes of agent sap-orders, and erin is not one; it is handed to erin at 2026-03-15T10:00:00.000Z',
    );
    expect(
      notADecider(token('bob'), 'sap-orders', ['sap-leads'], { to: ['erin'], at }),
    ).not.toMatch(/handed/);
  });
});
