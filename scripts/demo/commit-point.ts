import { type Change, describeChange } from '../../src/computer-use/actions';
import type { Run, Schemas, WardenClient } from '@warden/client';
import { type Clients, ensure, nextStop, simCall, simEvents } from './clients';
import { bad, describeAction, line, ok, shortSha, table } from './print';

/**
 * The demo's second run (commit-point approval, docs/api.md): the same VA02 change with
 * `approve_at: "commit"` and the two screen rules, so that a person decides once, at Save, with
 * the change list in front of them. The sim is reset first, so that the run changes the same order.
 */

/** The two screen rules of docs/rules.md: VA02's transaction code and initial screen navigate. */
export const VA02_SCREEN_RULES = [
  { command_field: { transactions: ['VA02', 'VA03'] } },
  { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
];

export interface CommitPointDemo {
  as: Clients;
  tokens: { weakener: string; operator: string; approver: string; auditor: string };
  agent: string;
  /** The agent's config as the first run had it. */
  agentConfig: Schemas['AgentDto'];
  goal: string;
  sim: { url: string; certPath: string; token: string };
}

export interface CommitPointResult {
  completed: boolean;
  approvals: number;
  saves: number;
  /** The tenant's audit chain verified after the run. */
  verified: boolean;
}

export async function commitPointRun(demo: CommitPointDemo): Promise<CommitPointResult> {
  const { as, tokens, agent } = demo;
  await simCall(demo.sim.url, demo.sim.certPath, demo.sim.token, 'POST', '/sim/reset');
  line('the sim is reset: order 4711 has its old date again');
  const reason = 'VA02 typing is stored only by Save; the approver decides there, once';
  ensure(
    'PUT /api/admin/computer-use (approve_at "commit")',
    await as(tokens.weakener).PUT('/api/admin/computer-use', {
      body: {
        enabled: true,
        agents: {
          [agent]: {
            ...demo.agentConfig,
            approve_at: 'commit',
            screen_rules: VA02_SCREEN_RULES as Schemas['AgentDto']['screen_rules'],
            reason,
          },
        },
      },
    }),
    200,
  );
  ok('wes (computer_use.admin + governance.weaken) sets approve_at "commit" and two screen rules:');
  for (const rule of VA02_SCREEN_RULES) line(`  ${JSON.stringify(rule)}`);
  line(`  reason: "${reason}" (audited as governance.weaken)`);

  const started = ensure(
    'POST /api/computer-use/runs',
    await as(tokens.operator).POST('/api/computer-use/runs', { body: { agent, goal: demo.goal } }),
    201,
  );
  const byId = { params: { path: { id: started.id } } };
  let run = await nextStop(as(tokens.operator), started.id);
  let approvals = 0;
  while (run.status === 'awaiting_approval' && run.pending_approval) {
    const approval = run.pending_approval;
    approvals++;
    showSteps(run, approval.step);
    line(`Held write, step ${approval.step}: ${describeAction(approval.action, { where: false })}`);
    line(`  why held    ${approval.why}`);
    showChanges(approval.changes as Change[] | null);
    ensure(
      `bob approving step ${approval.step}`,
      await as(tokens.approver).POST('/api/approvals/{id}/approve', {
        params: { path: { id: approval.id } },
        body: { comment: 'the change list is right' },
      }),
      200,
    );
    ensure(
      'olga resuming',
      await as(tokens.operator).POST('/api/computer-use/runs/{id}/resume', byId),
      200,
    );
    line('  bob approves it, olga resumes');
    run = await nextStop(as(tokens.operator), started.id, approval.id);
  }
  const completed = run.status === 'completed';
  (completed ? ok : bad)(
    `run ${run.status} (${run.end_reason ?? ''}) after ${run.step_count} steps, ${approvals} held write${approvals === 1 ? '' : 's'} approved`,
  );
  const events = await simEvents(demo.sim.url, demo.sim.certPath, demo.sim.token);
  const saves = events.filter((e) => e.type === 'saved' && e.order === '4711').length;
  (saves === 1 ? ok : bad)(`${saves} save${saves === 1 ? '' : 's'} of order 4711 on the sim`);
  const verified = await showTrail(as(tokens.auditor), started.id);
  return { completed, approvals, saves, verified };
}

/** The weakening and the run's events, as the auditor reads them, and the chain verified again. */
async function showTrail(auditor: WardenClient, runId: string): Promise<boolean> {
  const list = async (query: { type?: string; run_id?: string }) =>
    ensure(
      `GET /api/audit?${new URLSearchParams(query).toString()}`,
      await auditor.GET('/api/audit', { params: { query: { ...query, limit: 200 } } }),
      200,
    ).items;
  const [weakenings, events] = await Promise.all([
    list({ type: 'governance.weaken' }),
    list({ run_id: runId }),
  ]);
  const weaken = weakenings.at(-1);
  console.log('');
  line('The record (GET /api/audit, as aud): the weakening, then the run');
  table(
    ['seq', 'type', 'actor', 'step', 'sha256'],
    [...(weaken ? [weaken] : []), ...events].map((e) => [
      e.seq,
      e.type,
      e.actor,
      e.step ?? '',
      shortSha(e.sha256),
    ]),
  );
  const verify = ensure('GET /api/audit/verify', await auditor.GET('/api/audit/verify'), 200);
  (verify.ok && weaken ? ok : bad)(
    `governance.weaken by ${weaken?.actor ?? 'nobody'} in the trail; GET /api/audit/verify: ${verify.ok ? 'ok' : 'NOT OK'}, ${verify.checked} events checked`,
  );
  return verify.ok && weaken !== undefined;
}

/** The steps before the held one: reads sent, typing staged. */
function showSteps(run: Run, upTo: number): void {
  for (const s of run.steps ?? []) {
    if (s.n >= upTo) break;
    const what = describeAction(s.action, { where: false });
    const rule = /navigation by screen rule (\d+)/.exec(s.why ?? '')?.[1];
    if (s.outcome === 'staged') line(`Step ${s.n}: ${what} — staged, no person yet`);
    else if (s.outcome === 'sent' && rule)
      line(`Step ${s.n}: ${what} — a read by screen rule ${rule} (navigation), sent at once`);
    else if (s.outcome === 'sent') line(`Step ${s.n}: ${what} — a read, sent at once`);
  }
}

function showChanges(changes: Change[] | null): void {
  if (!changes) return;
  // A navigation line (the order number that only opened the order) is said, not counted.
  const n = changes.filter((c) => c.kind !== 'navigation').length;
  line(`  it stores  ${n} change${n === 1 ? '' : 's'}:`);
  for (const c of changes) line(`    ${describeChange(c)}`);
}

/** The two runs side by side: what a person had to decide. */
export function printComparison(
  everyWrite: { approvals: number; saves: number },
  commit: CommitPointResult,
): void {
  table(
    ['', 'every_write', 'commit + 2 screen rules'],
    [
      ['approvals a person gave', everyWrite.approvals, commit.approvals],
      ['saves of order 4711', everyWrite.saves, commit.saves],
    ],
  );
}
