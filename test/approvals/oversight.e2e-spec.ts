import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { type ConsoleBrowser, startBrowser } from '../support/browser';
import { SAVE } from '../support/chat-stack';
import { isEnded, startStack, type Stack } from '../support/stack';

/**
 * Oversight (docs/approver-guide.md): the approval page reports its opening and when its change
 * list came into view (IntersectionObserver, in Chromium); each decision is recorded with the view
 * it was made from; GET /api/admin/oversight (admins and auditors) gives the totals per approver
 * and agent and flags a person with no rejection over their latest decisions made fast; the Admin
 * page shows it. Real API, worker, PostgreSQL, Redis, the sim and Debian's chromium. The flag's
 * threshold is an hour here, so that no assertion depends on how fast this machine is.
 */

jest.setTimeout(240_000);

const RULES = [
  { command_field: { transactions: ['VA02', 'VA03'] } },
  { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
];
const COMMIT = {
  approve_at: 'commit',
  screen_rules: RULES,
  reason: 'VA02 typing is stored only by Save; the approver decides there',
};

describe('oversight', () => {
  let stack: Stack;
  let browser: ConsoleBrowser;
  let va02: string;
  let save: string;
  let carol: string;

  beforeAll(async () => {
    stack = await startStack({
      env: { OVERSIGHT_FLAG_DECISIONS: '3', OVERSIGHT_FLAG_MEDIAN_SECONDS: '3600' },
    });
    browser = await startBrowser(stack.api.url);
    va02 = await stack.planner(VA02_EXAMPLE_SCRIPT);
    save = await stack.planner(SAVE);
    carol = (await stack.api.token('acme', 'carol', ['agents.approve'])).token;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  afterEach(async () => {
    const runs = await stack.api.request('GET', '/api/computer-use/runs?limit=200', {
      token: stack.tokens.operator,
    });
    for (const run of runs.body.items) {
      if (isEnded(run)) continue;
      await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
        token: stack.tokens.operator,
      });
      await stack.waitFor(run.id, isEnded);
    }
  });

  /** Starts a run and waits for the write it holds: the approval's id. */
  async function held(): Promise<string> {
    const run = await stack.start();
    const waiting = await stack.waitFor(
      run.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
      60_000,
    );
    expect(waiting.status).toBe('awaiting_approval');
    return waiting.pending_approval.id;
  }

  const view = async (approvalId: string, token: string) =>
    (await stack.api.request('POST', `/api/approvals/${approvalId}/views`, { token })).body;
  const decide = (approvalId: string, how: 'approve' | 'reject', token: string, viewId?: string) =>
    stack.api.request('POST', `/api/approvals/${approvalId}/${how}`, {
      token,
      json: viewId ? { view_id: viewId } : {},
    });
  const report = async (token = stack.tokens.admin) => {
    const answer = await stack.api.request('GET', '/api/admin/oversight', { token });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const record = async (approvalId: string) =>
    (
      await stack.api.db.sql(`SELECT * FROM decision_records WHERE approval_id = $1`, [approvalId])
    )[0];

  it('the approval page reports its opening and its change list in view; the decision names the view', async () => {
    await stack.configure({ planner: va02, ...COMMIT });
    const approvalId = await held();
    const page = await browser.tab();
    await browser.signIn(page, stack.tokens.approver, 'bob');
    await page.goto(`${stack.api.url}/console/approvals/${approvalId}`);
    await page.locator('.change-list').first().waitFor();
    await page.getByRole('button', { name: /^Approve/ }).click();
    await page.getByText('You approved this write.').waitFor();
    await page.close();

    const row = await record(approvalId);
    expect(row).toMatchObject({
      decider: 'bob',
      via: 'api',
      decision: 'approved',
      changes_listed: true,
      changes_seen: true,
    });
    expect(row.view_id).not.toBeNull();
    const views = await stack.api.db.sql(
      `SELECT viewer, changes_seen_at FROM approval_views WHERE approval_id = $1`,
      [approvalId],
    );
    expect(views).toEqual([{ viewer: 'bob', changes_seen_at: expect.any(Date) }]);
    expect(browser.problems).toEqual([]);
  });

  it('counts approvals of change lists never in view, keeps views to their viewer, and flags a rubber stamp', async () => {
    // Bob approves a commit from a view whose change list never came into view.
    await stack.configure({ planner: va02, ...COMMIT });
    const unseen = await held();
    const bobsView = await view(unseen, stack.tokens.approver);
    // Carol cannot decide from Bob's view, nor say it saw anything.
    const borrowed = await decide(unseen, 'approve', carol, bobsView.id);
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.message).toMatch(/is no view of yours/);
    const seenBy = await stack.api.request(
      'POST',
      `/api/approvals/${unseen}/views/${bobsView.id}/changes-seen`,
      { token: carol },
    );
    expect(seenBy.status).toBe(404);
    expect((await decide(unseen, 'approve', stack.tokens.approver, bobsView.id)).status).toBe(200);
    expect(await record(unseen)).toMatchObject({ changes_listed: true, changes_seen: false });
    await stack.api.request('POST', '/api/computer-use/runs/' + (await runOf(unseen)) + '/cancel', {
      token: stack.tokens.operator,
    });

    // Bob approves a Save from the page again; Carol rejects one and approves one.
    await stack.configure({ planner: save });
    for (const [token, how] of [
      [stack.tokens.approver, 'approve'],
      [carol, 'reject'],
      [carol, 'approve'],
    ] as const) {
      await stack.sim.reset();
      const approvalId = await held();
      const opened = await view(approvalId, token);
      expect((await decide(approvalId, how, token, opened.id)).status).toBe(200);
      await stack.api.request('POST', `/api/computer-use/runs/${await runOf(approvalId)}/cancel`, {
        token: stack.tokens.operator,
      });
      await stack.waitFor(await runOf(approvalId), isEnded);
    }

    const answer = await report();
    expect(answer.settings).toEqual({ flag_after_decisions: 3, flag_median_seconds: 3600 });
    const bob = answer.approvers.find((t: any) => t.approver === 'bob');
    expect(bob).toMatchObject({
      agent: 'sap-orders',
      decisions: 3,
      approved: 3,
      rejected: 0,
      timed: 3,
      approved_changes_unseen: 1,
      approved_changes_unknown: 0,
      in_chat: 0,
    });
    expect(bob.median_seconds).toEqual(expect.any(Number));
    expect(answer.approvers.find((t: any) => t.approver === 'carol')).toMatchObject({
      decisions: 2,
      rejected: 1,
    });
    // Bob: three approvals, no rejection, fast. Carol rejected one: not flagged.
    expect(answer.flagged.map((f: any) => f.approver)).toEqual(['bob']);
    expect(answer.flagged[0].why).toMatch(/^approved each of their latest 3 decisions/);
    // The auditor reads the same.
    expect(await report(stack.tokens.auditor)).toEqual({ ...answer, since: expect.any(String) });

    // The Admin page shows it, at a desktop's size and a phone's.
    const page = await browser.tab();
    await browser.signIn(page, stack.tokens.admin, 'ada');
    await page.goto(`${stack.api.url}/console/admin`);
    const section = page.locator('#oversight');
    await section.locator('.flagged[data-approver="bob"]').waitFor();
    await section.locator('tr[data-approver="carol"]').waitFor();
    expect(await section.locator('tr[data-approver="bob"] td').nth(2).textContent()).toBe(
      '0 (0 %)',
    );
    await section.scrollIntoViewIfNeeded();
    await browser.shot(page, 'admin-oversight');
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    // On a phone each row is a card: the section is no wider than the screen.
    const width = await section.evaluate((el: any) => el.getBoundingClientRect().right);
    expect(width).toBeLessThanOrEqual(390);
    expect(await section.evaluate((el: any) => el.scrollWidth - el.clientWidth)).toBe(0);
    await browser.shot(page, 'admin-oversight-phone');
    await page.close();
    // The auditor's console has it on the Audit page.
    const audit = await browser.tab();
    await browser.signIn(audit, stack.tokens.auditor, 'aud');
    await audit.goto(`${stack.api.url}/console/audit`);
    await audit.locator('#oversight .flagged[data-approver="bob"]').waitFor();
    await audit.close();
    expect(browser.problems).toEqual([]);
  });

  it('seeds a known-bad test that waits among the real ones, is decided by their rules, is reported, and is never sent', async () => {
    const before = await stack.sim.events();
    const runsBefore = await stack.api.db.sql(`SELECT count(*)::int AS n FROM runs`);
    const seed = (body: Record<string, unknown>, token = stack.tokens.admin) =>
      stack.api.request('POST', '/api/admin/oversight/tests', { token, json: body });
    const known = {
      agent: 'sap-orders',
      goal: 'Change the net price of order 4711',
      action: { action: 'key', key: 'Ctrl+S' },
      why: 'Ctrl+S saves the order',
      changes: [{ field: 'Net price', before: '1.250,00', after: '12,50' }],
    };
    expect((await seed({ ...known, action: { action: 'teleport' } })).status).toBe(400);
    expect((await seed(known, stack.tokens.auditor)).status).toBe(403);
    const first = await seed(known);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ agent: 'sap-orders', seeded_by: 'ada', outcome: 'waiting' });
    const second = (await seed(known)).body;

    // In Bob's inbox like a held write: the action, the why, the change list; no run, no screen.
    const inbox = await stack.api.request('GET', '/api/approvals?limit=200', {
      token: stack.tokens.approver,
    });
    const listed = inbox.body.items.find((a: any) => a.id === first.body.id);
    expect(listed).toMatchObject({
      kind: 'computer_use.write',
      status: 'pending',
      run_id: null,
      goal: known.goal,
      system: 'SAP GUI (sim)',
      action: { action: 'key', key: 'Ctrl+S' },
      changes: [{ field: 'Net price', before: '1.250,00', after: '12,50' }],
      requested_by: 'ada',
    });

    // The admin who seeded it stands where a run's starter does: four-eyes.
    const ada = (await stack.api.token('acme', 'ada', ['agents.approve'])).token;
    const own = await decide(first.body.id, 'approve', ada);
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/^four-eyes:/);

    // Bob opens it in the console and rejects it: the right answer.
    const page = await browser.tab();
    await browser.signIn(page, stack.tokens.approver, 'bob');
    await page.goto(`${stack.api.url}/console/approvals`);
    await page.locator(`[data-approval-id="${first.body.id}"]`, { hasText: known.goal }).waitFor();
    await page.goto(`${stack.api.url}/console/approvals/${first.body.id}`);
    await page.locator('.change-list', { hasText: 'Net price' }).first().waitFor();
    await browser.shot(page, 'approval-seeded-test');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('You rejected this write.').waitFor();
    await page.close();
    // Carol approves the other one: missed. Once decided, it is decided.
    expect((await decide(second.id, 'approve', carol)).status).toBe(200);
    expect((await decide(second.id, 'reject', stack.tokens.approver)).status).toBe(409);

    const answer = await report();
    expect(answer.tests.map((t: any) => [t.id, t.outcome, t.decided_by, t.decided_via])).toEqual([
      [second.id, 'missed', 'carol', 'api'],
      [first.body.id, 'caught', 'bob', 'api'],
    ]);
    // The totals and the flag count real decisions only: Bob's are as before.
    expect(answer.approvers.find((t: any) => t.approver === 'bob')).toMatchObject({
      decisions: 3,
      rejected: 0,
    });
    // Nothing reached the screen host, and no run was made.
    expect(await stack.sim.events()).toEqual(before);
    expect(await stack.api.db.sql(`SELECT count(*)::int AS n FROM runs`)).toEqual(runsBefore);
    const admin = await browser.tab();
    await browser.signIn(admin, stack.tokens.admin, 'ada');
    await admin.goto(`${stack.api.url}/console/admin`);
    await admin
      .locator(`#oversight [data-test-id="${first.body.id}"][data-outcome="caught"]`)
      .waitFor();
    await admin.close();
    expect(browser.problems).toEqual([]);
  });

  async function runOf(approvalId: string): Promise<string> {
    return (
      await stack.api.request('GET', `/api/approvals/${approvalId}`, {
        token: stack.tokens.approver,
      })
    ).body.run_id;
  }
});
