/**
 * Oversight as data: what the section says of the report (`GET /api/admin/oversight`): when it
 * starts and who is flagged why, each approver's figures per agent, and how the seeded test
 * approvals came out. oversight.ts reads the report and turns these into nodes. No DOM here, so
 * the specs check every view without a browser (the console e2e tests check the nodes in
 * Chromium).
 */
import { clock } from './words';
import type { OversightReport, OversightTest } from './api-types';

type ApproverFigures = OversightReport['approvers'][number];

const OUTCOME: Record<OversightTest['outcome'], (t: OversightTest) => string> = {
  caught: (t) => `caught: rejected by ${t.decided_by ?? '?'}`,
  missed: (t) => `missed: approved by ${t.decided_by ?? '?'}`,
  waiting: () => 'waiting for a decision',
  expired: () => 'expired: nobody decided',
};

/** The columns after the approver's: each cell carries its label, shown on a phone's cards. */
export const OVERSIGHT_COLUMNS = [
  'Agent',
  'Decisions',
  'Rejected',
  'Median time to decide',
  'Approved without the change list in view',
  'In chat',
];

const percent = (part: number, whole: number) =>
  whole === 0 ? '–' : `${Math.round((part / whole) * 100)} %`;

/** The line over the report: since when, and when a person is flagged. */
export function oversightLead(report: OversightReport) {
  const s = report.settings;
  return `Decisions since ${clock(report.since)}. A person is flagged when their latest ${s.flag_after_decisions} decisions hold no rejection and the median time from opening the page to deciding is under ${s.flag_median_seconds} s.`;
}

/** A seeded test approval: when, which agent and goal, who seeded it; and how it came out. */
export function testView(t: OversightTest) {
  return {
    id: t.id,
    outcome: t.outcome,
    lead: `${clock(t.created_at)} · ${t.agent} · “${t.goal}” (seeded by ${t.seeded_by}): `,
    result: OUTCOME[t.outcome](t),
    via: t.decided_via ? ` (${t.decided_via})` : '',
  };
}

/** An approver's figures for one agent, as the cells after the approver's (OVERSIGHT_COLUMNS). */
export function approverCells(t: ApproverFigures) {
  return [
    t.agent,
    String(t.decisions),
    `${t.rejected} (${percent(t.rejected, t.decisions)})`,
    t.median_seconds === null
      ? 'not known (none decided on the page)'
      : `${t.median_seconds} s over ${t.timed} decided on the page`,
    `${t.approved_changes_unseen}` +
      (t.approved_changes_unknown ? ` (+${t.approved_changes_unknown} away from the page)` : ''),
    String(t.in_chat),
  ];
}
