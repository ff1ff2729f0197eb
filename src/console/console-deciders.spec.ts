/**
 * The console's words for who may decide a held write and its escalation (approver groups), from
 * the browser's own module (browser/decider-words.ts).
 */
import { type Deciding, escalationInWords, whoMayDecide } from './browser/decider-words';

const NOW = Date.parse('2026-03-15T10:10:00Z');
const pending: Deciding = {
  status: 'pending',
  may_decide_now: ['sap-leads', 'carol'],
  escalates_at: null,
  escalated_at: null,
  reminded_at: null,
};

describe('who may decide, in the console', () => {
  it('names the deciders, or anyone with the permission', () => {
    expect(whoMayDecide(pending)).toBe('sap-leads, carol');
    expect(whoMayDecide({ ...pending, may_decide_now: null })).toBe('anyone with agents.approve');
  });

  it('says whether and when it escalates, and when it was reminded', () => {
    expect(escalationInWords(pending, NOW)).toBe('not escalated');
    expect(escalationInWords({ ...pending, escalates_at: '2026-03-15T10:30:00Z' }, NOW)).toMatch(
      /^escalates at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    expect(
      escalationInWords(
        {
          ...pending,
          escalates_at: '2026-03-15T10:05:00Z',
          escalated_at: '2026-03-15T10:07:00Z',
          reminded_at: '2026-03-15T10:02:00Z',
        },
        NOW,
      ),
    ).toBe('escalated 3 min ago; reminded 8 min ago');
    // A write decided before its escalation does not escalate any more.
    expect(
      escalationInWords(
        { ...pending, status: 'approved', escalates_at: '2026-03-15T10:30:00Z' },
        NOW,
      ),
    ).toBe('not escalated');
  });
});
