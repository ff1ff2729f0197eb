/**
 * Oversight, for admins and auditors (docs/approver-guide.md): how each approver decides each
 * agent's writes over the last 30 days (decisions, rejections, the median time from opening the
 * page to deciding, approvals of change lists never scrolled into view, decisions made in chat),
 * who is flagged: no rejection over their latest decisions, made fast, and how the seeded test
 * approvals came out. What the section says of the report is oversight-view.ts.
 */
import { api } from './api';
import { h } from './dom';
import { approverCells, OVERSIGHT_COLUMNS, oversightLead, testView } from './oversight-view';
import type { OversightReport } from './api-types';

/** Who is flagged, and why; or that nobody is. */
function flagItems(report: OversightReport) {
  if (report.flagged.length === 0) return [h('li', {}, 'Nobody is flagged.')];
  return report.flagged.map((f) =>
    h(
      'li',
      { class: 'flagged', 'data-approver': f.approver },
      h('strong', {}, f.approver),
      ` ${f.why}.`,
    ),
  );
}

/** The seeded test approvals and how each came out; or that none were seeded. */
function testItems(report: OversightReport) {
  if (report.tests.length === 0) return [h('li', {}, 'None seeded.')];
  return report.tests.map((test) => {
    const t = testView(test);
    return h(
      'li',
      { 'data-test-id': t.id, 'data-outcome': t.outcome },
      t.lead,
      h('strong', {}, t.result),
      t.via,
    );
  });
}

/** Each approver's figures per agent; or a row saying nobody decided. */
function approverRows(report: OversightReport) {
  if (report.approvers.length === 0) {
    return [h('tr', {}, h('td', { colspan: OVERSIGHT_COLUMNS.length + 1 }, 'No decisions yet.'))];
  }
  return report.approvers.map((t) =>
    h(
      'tr',
      { 'data-approver': t.approver, 'data-agent': t.agent },
      h('th', { scope: 'row' }, t.approver),
      ...approverCells(t).map((text, i) => h('td', { 'data-label': OVERSIGHT_COLUMNS[i] }, text)),
    ),
  );
}

export function oversightSection(signal: AbortSignal) {
  const lead = h('p', { class: 'lead' });
  const flags = h('ul', { class: 'oversight-flags' });
  const body = h('tbody');
  const tests = h('ul', { class: 'oversight-tests' });
  const problem = h('p', { class: 'error', role: 'alert' });
  api<OversightReport>('/api/admin/oversight', { signal })
    .then((report) => {
      lead.textContent = oversightLead(report);
      flags.replaceChildren(...flagItems(report));
      tests.replaceChildren(...testItems(report));
      body.replaceChildren(...approverRows(report));
    })
    .catch((error: unknown) => {
      if (signal.aborted) return;
      problem.textContent = `Could not load oversight: ${error instanceof Error ? error.message : String(error)}`;
    });
  return h(
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
        h(
          'tr',
          {},
          ...['Approver', ...OVERSIGHT_COLUMNS].map((label) => h('th', { scope: 'col' }, label)),
        ),
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
}
