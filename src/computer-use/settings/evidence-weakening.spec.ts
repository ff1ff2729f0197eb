import {
  type EvidenceControl,
  evidenceReasonMissing,
  evidenceRefusal,
  evidenceWeakening,
} from './evidence-weakening';

/** What lets evidence go sooner: the tenant's retention and a run's legal hold, both ways. */
describe('evidenceWeakening', () => {
  it.each<[string, EvidenceControl, unknown, unknown, boolean]>([
    ['retention shortened from ten years to six months', 'retention_days', 3650, 180, true],
    ['retention shortened by a day', 'retention_days', 366, 365, true],
    ['retention lengthened', 'retention_days', 180, 3650, false],
    ['retention kept', 'retention_days', 365, 365, false],
    ['a legal hold lifted', 'legal_hold', true, false, true],
    ['a legal hold placed', 'legal_hold', false, true, false],
    ['a hold kept', 'legal_hold', true, true, false],
    ['a run without a hold released again', 'legal_hold', false, false, false],
  ])('%s', (_, control, from, to, weakens) => {
    expect(evidenceWeakening(control, from, to)).toEqual(weakens ? { control, from, to } : null);
  });

  it('says what needs the permission, and why a reason is needed', () => {
    const shorter = evidenceWeakening('retention_days', 3650, 180)!;
    expect(evidenceRefusal(shorter)).toBe(
      'shortening retention_days needs the permission governance.weaken as well as computer_use.admin',
    );
    expect(evidenceReasonMissing(shorter, ' ')).toBe(
      'reason is required when retention_days is shortened: say why recorded screens may be purged sooner, at the next purge',
    );
    const lifted = evidenceWeakening('legal_hold', true, false)!;
    expect(evidenceRefusal(lifted)).toBe(
      'lifting a legal hold needs the permission governance.weaken as well as computer_use.admin',
    );
    expect(evidenceReasonMissing(lifted, undefined)).toBe(
      "reason is required when a legal hold is lifted: say why the run's screens may be purged once they are past retention",
    );
    expect(evidenceReasonMissing(lifted, 'case 2024-17 closed')).toBeNull();
  });
});
