import { startSimHost, SimHost, startStack, Stack } from './support/stack';

/**
 * The governance invariant (issue 12 §6), tried at random: real runs on HTTPS sim screen hosts,
 * with random events fired while they go (popups, status messages, a blinking caret, kill
 * switches, the tenant's pause, config changes, cancels, approvals, rejections, bursts of
 * concurrent resumes, a host action that fails before or after it acted). After each case the
 * host's own record of what reached its screen is checked against Warden's:
 * - every write the host performed was a step Warden sent with a spent approval for that exact
 *   step, approved by someone other than the run's starter where four-eyes holds, or a step sent by
 *   an agent whose writes needed no approval, audited so; or typing staged (never a transaction
 *   code) while the agent approved at the commit, audited so; or a transaction code sent as a read
 *   while a screen rule declaring it navigation was in force; or a send whose outcome Warden recorded
 *   as unknown (the host failed half-way) and audited with one of those authorities;
 * - no write was performed twice;
 * - every run ended, with a reason.
 * Bounded and seeded: the seed is printed, and WARDEN_PROPERTY_SEED=<seed> replays the same
 * choices (the machine's timing can still differ). WARDEN_PROPERTY_CASES sets how many (200).
 */

const CASES = Number(process.env.WARDEN_PROPERTY_CASES ?? 200);
const SEED = Number(process.env.WARDEN_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const LANES = 6;
/** A case that has not ended by then is cancelled (and must still end with a reason). */
const CASE_MS = 12_000;

/** mulberry32: a small seeded generator, one per case. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How the agent's writes wait for a person: each, none, or at the commit (DESIGN §6). */
type Mode = 'every' | 'weakened' | 'commit';
const COMMAND = { role: 'textbox', name: 'Command field' };
const ENDED = ['completed', 'failed', 'stopped'];

interface Lane {
  tenant: string;
  sim: SimHost;
  tokens: Record<'admin' | 'weakener' | 'operator' | 'approver' | 'both', string>;
}

interface Tally {
  cases: number;
  ends: Record<string, number>;
  events: Record<string, number>;
  writesPerformed: number;
  /** Steps sent staged (approve_at "commit"). */
  staged: number;
  violations: string[];
}

describe('the governance invariant, tried at random', () => {
  let stack: Stack;
  const lanes: Lane[] = [];
  const tally: Tally = {
    cases: 0,
    ends: {},
    events: {},
    writesPerformed: 0,
    staged: 0,
    violations: [],
  };

  beforeAll(async () => {
    console.log(`governance property: seed ${SEED}, ${CASES} cases (WARDEN_PROPERTY_SEED=${SEED})`);
    stack = await startStack({
      env: { MASK_INTERVAL_MS: '20', SETTLE_MAX_MS: '300', WORKER_CONCURRENCY: '50' },
    });
    for (let i = 0; i < LANES; i++) {
      const tenant = `lane${i}`;
      const token = async (subject: string, permissions: string[]) =>
        (await stack.api.token(tenant, subject, permissions)).token;
      const sim = await startSimHost();
      await stack.grant(sim.tokenEnv, sim.url, tenant);
      lanes.push({
        tenant,
        sim,
        tokens: {
          admin: await token('ada', ['computer_use.admin']),
          weakener: await token('wes', ['computer_use.admin', 'governance.weaken']),
          operator: await token('olga', ['agents.operate']),
          approver: await token('bob', ['agents.approve']),
          both: await token('olga', ['agents.operate', 'agents.approve']),
        },
      });
    }
  });

  afterAll(async () => {
    console.log(`governance property: ${JSON.stringify({ seed: SEED, ...tally })}`);
    for (const lane of lanes) await lane.sim.close();
    await stack?.close();
  });

  const call = (method: string, path: string, token: string, json?: unknown) =>
    stack.api.request(method, path, { token, json });

  /**
   * The lane's agent `p` on its sim host, with a script and its writes' approval: for every write
   * (`every`), none (`weakened`), or at the commit with typing staged (`commit`).
   */
  async function configure(lane: Lane, planner: string, mode: Mode, fourEyes: boolean) {
    const weakened = mode === 'weakened';
    const reasoned = mode !== 'every' || !fourEyes;
    const r = await call(
      'PUT',
      '/api/admin/computer-use',
      reasoned ? lane.tokens.weakener : lane.tokens.admin,
      {
        enabled: true,
        agents: {
          p: {
            screen_url: lane.sim.url,
            screen_token_env: lane.sim.tokenEnv,
            screen_tls: { fingerprint_sha256: lane.sim.fingerprint },
            max_steps: 12,
            max_seconds: 60,
            planner,
            require_write_approval: !weakened,
            four_eyes: fourEyes,
            ...(mode === 'commit'
              ? {
                  approve_at: 'commit',
                  screen_rules: [{ command_field: { transactions: ['VA02'] } }],
                }
              : {}),
            ...(reasoned ? { reason: 'property test' } : {}),
          },
        },
      },
    );
    if (r.status !== 200) throw new Error(`configure: ${r.status} ${r.text}`);
  }

  async function runCase(lane: Lane, n: number): Promise<void> {
    const random = generator(SEED ^ Math.imul(n + 1, 0x9e3779b1));
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const count = (name: string) => (tally.events[name] = (tally.events[name] ?? 0) + 1);
    const { tokens, sim } = lane;
    await sim.reset();
    await call('PUT', '/api/admin/agents/p/kill-switch', tokens.admin, { engaged: false }).catch(
      () => undefined,
    );
    await call('PUT', '/api/admin/pause', tokens.admin, { paused: false });

    // The writes of this case type texts of its own, so the host's record names their steps.
    const texts = [`c${n}a`, `c${n}b`];
    const m = random();
    // Every 25th case is calm: commit mode's VA02 with no event but approvals, so that the staging
    // path is taken in every series, however the machine's load ends the other cases early.
    const calm = n % 25 === 0;
    const mode: Mode = calm ? 'commit' : m < 0.2 ? 'weakened' : m < 0.45 ? 'commit' : 'every';
    // Typing into the order field, staged under approve_at "commit", then Enter: a commit.
    const va02 = [
      { action: { action: 'click', element: COMMAND } },
      { action: { action: 'type', text: '/nVA02' } },
      { action: { action: 'key', key: 'Enter' } },
      { action: { action: 'click', element: { role: 'textbox', name: 'Order' } } },
      { action: { action: 'type', text: texts[0] } },
      { action: { action: 'key', key: 'Enter' } },
    ];
    const scripts = [
      [
        { action: { action: 'click', element: COMMAND } },
        { action: { action: 'type', text: texts[0] } },
      ],
      [
        { action: { action: 'click', element: COMMAND } },
        { action: { action: 'type', text: texts[0] } },
        { action: { action: 'key', key: 'Home' } },
        { action: { action: 'type', text: texts[1] } },
      ],
      [
        { action: { action: 'type', text: texts[0] } },
        { action: { action: 'wait', seconds: 0.2 } },
      ],
      va02,
    ];
    const script = calm || (mode === 'commit' && random() < 0.7) ? va02 : pick(scripts);
    const planner = (
      await call('POST', '/api/planners/scripted', tokens.admin, {
        name: `case ${n}`,
        script: {
          steps: [...script, { action: { action: 'done', summary: 'done' } }],
          patience: 2,
        },
      })
    ).body.planner.id as string;
    const fourEyes = random() < 0.8;
    await configure(lane, planner, mode, fourEyes);
    const started = await call('POST', '/api/computer-use/runs', tokens.operator, {
      agent: 'p',
      goal: `case ${n}`,
    });
    if (started.status !== 201) throw new Error(`start: ${started.status} ${started.text}`);
    const runId = started.body.id as string;

    const deadline = Date.now() + CASE_MS;
    let run = started.body;
    while (!ENDED.includes(run.status)) {
      if (Date.now() > deadline) {
        count('cancel (deadline)');
        await call('POST', `/api/computer-use/runs/${runId}/cancel`, tokens.operator);
      } else {
        await fire(run);
      }
      await sleep(20 + Math.floor(random() * 120));
      run = (await call('GET', `/api/computer-use/runs/${runId}`, tokens.operator)).body;
    }

    async function fire(current: { status: string; pending_approval: { id: string } | null }) {
      const r = random();
      const approval = current.pending_approval?.id;
      if (calm) {
        if (current.status !== 'awaiting_approval' || !approval) return;
        count('approve');
        await call('POST', `/api/approvals/${approval}/approve`, tokens.approver, {});
        count('resume x1');
        await call('POST', `/api/computer-use/runs/${runId}/resume`, tokens.operator);
        return;
      }
      if (current.status === 'awaiting_approval' && approval && r < 0.6) {
        const choice = random();
        if (choice < 0.6) {
          count('approve');
          const who = fourEyes && random() < 0.2 ? tokens.both : tokens.approver;
          await call('POST', `/api/approvals/${approval}/approve`, who, {});
        } else if (choice < 0.7) {
          count('reject');
          await call('POST', `/api/approvals/${approval}/reject`, tokens.approver, {});
        } else {
          const k = 1 + Math.floor(random() * 4);
          count(`resume x${k}`);
          await Promise.all(
            Array.from({ length: k }, () =>
              call('POST', `/api/computer-use/runs/${runId}/resume`, tokens.operator),
            ),
          );
        }
        return;
      }
      const event = pick([
        'popup',
        'poke',
        'poke',
        'blink',
        'kill',
        'unkill',
        'pause',
        'unpause',
        'weaken',
        'strengthen',
        'cancel',
        'fail-before',
        'fail-after',
        ...Array.from({ length: 12 }, () => 'nothing' as const),
      ] as const);
      count(event);
      switch (event) {
        case 'popup':
          await sim.call('POST', '/sim/popup', {
            title: 'Save changes?',
            message: 'Save the open order?',
            buttons: ['Yes', 'No'],
          });
          return;
        case 'poke':
          await sim.poke(`message ${Math.floor(random() * 1000)}`);
          return;
        case 'blink':
          await sim.blink(random() < 0.5);
          return;
        case 'kill':
        case 'unkill':
          await call('PUT', '/api/admin/agents/p/kill-switch', tokens.admin, {
            engaged: event === 'kill',
            reason: 'property test',
          });
          return;
        case 'pause':
        case 'unpause':
          await call('PUT', '/api/admin/pause', tokens.admin, {
            paused: event === 'pause',
            reason: 'property test',
          });
          return;
        case 'weaken':
        case 'strengthen':
          await configure(
            lane,
            planner,
            event === 'strengthen' ? 'every' : random() < 0.5 ? 'weakened' : 'commit',
            fourEyes,
          );
          return;
        case 'cancel':
          await call('POST', `/api/computer-use/runs/${runId}/cancel`, tokens.operator);
          return;
        case 'fail-before':
        case 'fail-after':
          await sim.call('POST', '/sim/fail-next', { when: event.slice(5) });
          return;
        case 'nothing':
          return;
      }
    }

    await check(lane, n, runId, run, fourEyes);
  }

  /** The host's record against Warden's, for one ended run. */
  async function check(
    lane: Lane,
    n: number,
    runId: string,
    run: any,
    fourEyes: boolean,
  ): Promise<void> {
    const fail = (what: string) =>
      tally.violations.push(`case ${n} (seed ${SEED}), run ${runId}: ${what}`);
    tally.cases++;
    tally.ends[run.end_reason ?? 'none'] = (tally.ends[run.end_reason ?? 'none'] ?? 0) + 1;
    if (!ENDED.includes(run.status) || !run.end_reason)
      fail(`ended without a reason: ${run.status}`);
    // A cancel ends the run while a step may still be sending: its worker (or, after a failed job,
    // the next) records what became of it, within the host's action and lookup timeouts.
    const settled = Date.now() + 60_000;
    for (;;) {
      const [{ sending }] = await stack.api.db.sql<{ sending: number }>(
        `SELECT count(*)::int AS sending FROM steps WHERE run_id = $1 AND phase = 'sending'`,
        [runId],
      );
      if (sending === 0) break;
      if (Date.now() > settled) {
        fail('a step was still sending 60 s after its run ended');
        break;
      }
      await sleep(50);
    }
    // Every other step ended with the run (or before it), with its time of end.
    const open = await stack.api.db.sql<{ n: number; phase: string }>(
      `SELECT n, phase FROM steps
        WHERE run_id = $1 AND phase <> 'sending' AND (phase <> 'done' OR ended_at IS NULL)`,
      [runId],
    );
    if (open.length > 0) fail(`steps left unfinished by the run's end: ${JSON.stringify(open)}`);
    const typed = (await lane.sim.events())
      .filter((e) => e.type === 'action' && e.action?.action === 'type')
      .map((e) => e.action.text as string);
    tally.writesPerformed += typed.length;
    tally.staged += (
      await stack.api.db.sql<{ n: number }>(
        `SELECT n FROM steps WHERE run_id = $1 AND outcome = 'staged'`,
        [runId],
      )
    ).length;
    const steps = await stack.api.db.sql<{
      n: number;
      id: string;
      action: { action?: string; text?: string } | null;
      classification: string | null;
      why: string | null;
      outcome: string | null;
      error: string | null;
      approval_id: string | null;
      approval_status: string | null;
      decided_by: string | null;
      started_at: Date;
      ended_at: Date | null;
    }>(
      `SELECT s.n, s.id, s.action, s.classification, s.why, s.outcome, s.error, s.started_at, s.ended_at,
              a.id AS approval_id, a.status AS approval_status, a.decided_by
         FROM steps s LEFT JOIN approvals a ON a.step_id = s.id
        WHERE s.run_id = $1 ORDER BY s.n`,
      [runId],
    );
    // The admin's own record: which config was in force when. A write sent without approval is
    // allowed only if a config that needed none was in force at some moment of its step.
    const versions = await stack.api.db.sql<{
      needs: string | null;
      approve_at: string | null;
      rules: unknown;
      at: Date;
    }>(
      `SELECT config->'agents'->'p'->>'require_write_approval' AS needs,
              config->'agents'->'p'->>'approve_at' AS approve_at,
              config->'agents'->'p'->'screen_rules' AS rules, created_at AS at
         FROM computer_use_configs WHERE tenant = $1 ORDER BY version`,
      [lane.tenant],
    );
    const inForceDuring = (
      holds: (v: (typeof versions)[number]) => boolean,
      from: Date,
      to: Date,
    ) =>
      versions.some(
        (v, i) =>
          holds(v) &&
          v.at.getTime() <= to.getTime() &&
          (versions[i + 1] === undefined || versions[i + 1].at.getTime() >= from.getTime()),
      );
    const audited = await stack.api.db.sql<{
      step: number;
      type: string;
      details: Record<string, unknown>;
    }>(
      `SELECT step, type, details FROM audit_events
        WHERE run_id = $1 AND type IN ('computer_use.write', 'computer_use.write.unknown')`,
      [runId],
    );
    const seen = new Map<string, number>();
    for (const text of typed) {
      seen.set(text, (seen.get(text) ?? 0) + 1);
      if (seen.get(text) === 2) fail(`the write "${text}" reached the screen twice`);
      const candidates = steps.filter((s) => s.action?.action === 'type' && s.action.text === text);
      const allowed = candidates.some((s) => {
        const during = (holds: (v: (typeof versions)[number]) => boolean) =>
          inForceDuring(holds, s.started_at, s.ended_at ?? new Date());
        /**
         * What the step's audit event of `type` names as the write's authority, checked against
         * the record: the approval spent on this very step (decided by someone other than the
         * starter where four-eyes holds), staging while approve_at "commit" was in force (never a
         * transaction code), or no approval needed while a config saying so was in force.
         */
        const authority = (type: string): 'approved' | 'staged' | 'unapproved' | null => {
          const event = audited.find((a) => a.step === s.n && a.type === type);
          if (!event) return null;
          if (event.details.approval_id != null) {
            const spent =
              s.approval_status === 'spent' &&
              event.details.approval_id === s.approval_id &&
              // Four-eyes: the starter (olga) never approves her own run's write.
              (!fourEyes || s.decided_by !== 'olga');
            return spent ? 'approved' : null;
          }
          if (event.details.staged === true) {
            const staging = !text.startsWith('/') && during((v) => v.approve_at === 'commit');
            return staging ? 'staged' : null;
          }
          const unapproved =
            Boolean(event.details.without_approval) && during((v) => v.needs === 'false');
          return unapproved ? 'unapproved' : null;
        };
        // The host failed after acting: Warden could not know, says so, and audits the write.
        const unknown = s.outcome === null && /unknown/.test(s.error ?? '');
        if (s.classification === 'read' && (s.outcome === 'sent' || unknown)) {
          // A transaction code the agent's command_field rule declares navigation, in force then.
          return (
            text === '/nVA02' &&
            /navigation by screen rule/.test(s.why ?? '') &&
            during((v) => JSON.stringify(v.rules ?? []).includes('VA02'))
          );
        }
        if (unknown) return authority('computer_use.write.unknown') !== null;
        if (s.outcome === 'sent_after_approval')
          return authority('computer_use.write') === 'approved';
        if (s.outcome === 'staged') return authority('computer_use.write') === 'staged';
        if (s.outcome === 'sent') return authority('computer_use.write') === 'unapproved';
        return false;
      });
      if (!allowed) {
        const configs = versions.map(
          (v) => `${v.at.toISOString()} needs approval: ${v.needs}, approve_at: ${v.approve_at}`,
        );
        fail(
          `the write "${text}" reached the screen without an approval spent on its step: ${JSON.stringify({ candidates, configs })}`,
        );
      }
    }
  }

  it(
    `holds over ${CASES} random cases`,
    async () => {
      let next = 0;
      await Promise.all(
        lanes.map(async (lane) => {
          while (next < CASES) await runCase(lane, next++);
        }),
      );
      expect(tally.violations).toEqual([]);
      expect(tally.cases).toBe(CASES);
      // The staging path was taken: the calm cases take it.
      if (CASES >= 25) expect(tally.staged).toBeGreaterThan(0);
    },
    30 * 60_000,
  );
});
