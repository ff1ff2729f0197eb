import { type AccessMapping, groupsGainingWeaken, readAccessMapping } from './access-mapping';

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
    expect(groupsGainingWeaken(current, next).map((g) => g.group)).toEqual(['gain']);
  });

  // Both ways: what makes more admins who may weaken, and what does not.
  it.each<[string, AccessMapping, AccessMapping, string[]]>([
    [
      'computer_use.admin added to a group holding governance.weaken',
      { leads: ['governance.weaken'] },
      { leads: ['computer_use.admin', 'governance.weaken'] },
      ['mapping leads, which holds governance.weaken, to computer_use.admin'],
    ],
    [
      'computer_use.admin given to a group while another holds governance.weaken alone',
      { leads: ['governance.weaken'], ops: ['audit.read'] },
      { leads: ['governance.weaken'], ops: ['audit.read', 'computer_use.admin'] },
      [
        'mapping ops to computer_use.admin while leads holds governance.weaken (a member of both may weaken)',
      ],
    ],
    [
      'a new group with computer_use.admin while another holds governance.weaken alone',
      { leads: ['governance.weaken'] },
      { leads: ['governance.weaken'], ops: ['computer_use.admin'] },
      [
        'mapping ops to computer_use.admin while leads holds governance.weaken (a member of both may weaken)',
      ],
    ],
    [
      'computer_use.admin given where every group with governance.weaken is an admin group already',
      { leads: ['computer_use.admin', 'governance.weaken'] },
      { leads: ['computer_use.admin', 'governance.weaken'], ops: ['computer_use.admin'] },
      [],
    ],
    [
      'computer_use.admin given while nobody holds governance.weaken',
      { ops: ['audit.read'] },
      { ops: ['audit.read', 'computer_use.admin'] },
      [],
    ],
    [
      'computer_use.admin taken from a group holding governance.weaken',
      { leads: ['computer_use.admin', 'governance.weaken'] },
      { leads: ['governance.weaken'] },
      [],
    ],
    [
      'a group kept as it is',
      { leads: ['computer_use.admin', 'governance.weaken'] },
      { leads: ['computer_use.admin', 'governance.weaken'] },
      [],
    ],
  ])('%s', (_, current, next, changes) => {
    expect(groupsGainingWeaken(current, next).map((g) => g.change)).toEqual(changes);
  });
});
