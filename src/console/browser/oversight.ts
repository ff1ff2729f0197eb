/**
 * Oversight, for admins and auditors (docs/approver-guide.md): how each approver decides each
 * agent's writes over the last 30 days (decisions, rejections, the median time from opening the
 * page to deciding, approvals of change lists never scrolled into view, decisions made in chat),
 * who is flagged: no rejection over their latest decisions, made fast, and how the seeded test
 * approvals came out.
 */
import { api } from './api';
import { h } from './dom';
import { clock } from './words';
import type { OversightReport, OversightTest } from './api-types';

const OUTCOME: Record<OversightTest['outcome'], (t: OversightTest) => string> = {
  caught: (t) => `caught: rejected by ${t.decided_by ?? '?'}`,
  missed: (t) => `missed: approved by ${t.decided_by ?? '?'}`,
  waiting: () => 'waiting for a decision',
  expired: () => 'expired: nobody decided',
};

/** The columns after the approver's: each cell carries its label, shown on a phone's cards. */
const COLUMNS = [
  'Agent',
  'Decisions',
  'Rejected',
  'Median time to decide',
  'Approved without the change list in view',
  'In chat',
];

const percent = (part: number, whole: number) =>
  whole === 0 ? '–' : `${Math.round((part / whole) * 100)} %`;

export function oversightSection(signal: AbortSignal) {
  const lead = h('p', { class: 'lead' });
  const flags = h('ul', { class: 'oversight-flags' });
  const body = h('tbody');
  const tests = h('ul', { class: 'oversight-tests' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const section = h(
    'section',
    { id: 'oversight', 'aria-labelledby': 'oversight-title' },
    h('h2', { id: 'oversight-title' }, 'Oversight'),
    lead,
    problem,
    flags,
    h(
      'table',
      { class: 'oversight cards' },
      h(
        'thead',
        {},
        h('tr', {}, ...['Approver', ...COLUMNS].map((label) => h('th', { scope: 'col' }, label))),
      ),
      body,
    ),
    h('h3', {}, 'Test approvals'),
    h(
      'p',
      { class: 'help' },
      'Known-bad changes an admin seeded (POST /api/admin/oversight/tests): they wait among the real ones and are never sent; rejecting them is the right answer.',
    ),
    tests,
  );
  void (async () => {
    try {
      const report = await api<OversightReport>('/api/admin/oversight', { signal });
      const s = report.settings;
      lead.textContent = `Decisions since ${clock(report.since)}. A person is flagged when their latest ${s.flag_after_decisions} decisions hold no rejection and the median time from opening the page to deciding is under ${s.flag_median_seconds} s.`;
      flags.replaceChildren(
        ...(report.flagged.length === 0
          ? [h('li', {}, 'Nobody is flagged.')]
          : report.flagged.map((f) =>
              h(
                'li',
                { class: 'flagged', 'data-approver': f.approver },
                h('strong', {}, f.approver),
                ` ${f.why}.`,
              ),
            )),
      );
      tests.replaceChildren(
        ...(report.tests.length === 0
          ? [h('li', {}, 'None seeded.')]
          : report.tests.map((t) =>
              h(
                'li',
                { 'data-test-id': t.id, 'data-outcome': t.outcome },
                `${clock(t.created_at)} · ${t.agent} · “${t.goal}” (seeded by ${t.seeded_by}): `,
                h('strong', {}, OUTCOME[t.outcome](t)),
                t.decided_via ? ` (${t.decided_via})` : '',
              ),
            )),
      );
      body.replaceChildren(
        ...(report.approvers.length === 0
          ? [h('tr', {}, h('td', { colspan: 7 }, 'No decisions yet.'))]
          : report.approvers.map((t) =>
              h(
                'tr',
                { 'data-approver': t.approver, 'data-agent': t.agent },
                h('th', { scope: 'row' }, t.approver),
                ...[
                  t.agent,
                  String(t.decisions),
                  `${t.rejected} (${percent(t.rejected, t.decisions)})`,
                  t.median_seconds === null
                    ? 'not known (none decided on the page)'
                    : `${t.median_seconds} s over ${t.timed} decided on the page`,
                  `${t.approved_changes_unseen}` +
                    (t.approved_changes_unknown
                      ? ` (+${t.approved_changes_unknown} away from the page)`
                      : ''),
                  String(t.in_chat),
                ].map((text, i) => h('td', { 'data-label': COLUMNS[i] }, text)),
              ),
            )),
      );
    } catch (error) {
      if (signal.aborted) return;
      problem.textContent = `Could not load oversight: ${error instanceof Error ? error.message : String(error)}`;
    }
  })();
  return section;
}
