import { groupsGainingWeaken, readAccessMapping } from './access-mapping';

describe('readAccessMapping', () => {
  it('keeps known permissions once each, in a stable order', () => {
    expect(
      readAccessMapping({
        approvers: ['agents.approve'],
        admins: ['governance.weaken', 'computer_use.admin', 'computer_use.admin'],
        nobody: [],
      }),
    ).toEqual({
      mapping: {
        approvers: ['agents.approve'],
        admins: ['computer_use.admin', 'governance.weaken'],
        nobody: [],
      },
    });
  });

  it.each([
    [{ g: ['agents.fly'] }, /unknown permission agents\.fly/],
    [{ g: 'agents.approve' }, /must be a list of permissions/],
    [{ g: [1] }, /must be a list of permissions/],
    [{ '': ['audit.read'] }, /group names are 1-256 characters/],
    [{ ' g': ['audit.read'] }, /group names are 1-256 characters/],
  ])('refuses %j', (groups, problem) => {
    expect(readAccessMapping(groups)).toEqual({ problem: expect.stringMatching(problem) });
  });
});

describe('groupsGainingWeaken', () => {
  it('names groups that newly hold governance.weaken, not those that keep or lose it', () => {
    const current = { keep: ['governance.weaken' as const], lose: ['governance.weaken' as const] };
    const next = {
      keep: ['governance.weaken' as const],
      lose: [],
      gain: ['computer_use.admin' as const, 'governance.weaken' as const],
      plain: ['audit.read' as const],
    };
    expect(groupsGainingWeaken(current, next)).toEqual(['gain']);
  });
});
