import {
  type AgentState,
  changeOf,
  CODES,
  ENTER_EXCEPTION,
  ENTER_READ,
  type Mode,
} from '../support/governance-changes';
import { type StepRow, type VersionRow, violations } from '../support/governance-oracle';
import { checkAction } from '../../screen-host/src';
import { SimApp } from '../../screen-host/src/backends/sim/sim-app';
import { startSimHost, SimHost, startStack, Stack } from '../support/stack';

/**
 * The governance invariant (issue 12 §6), tried at random: real runs on HTTPS sim screen hosts,
 * with random events fired while they go (popups, status messages, a blinking caret, kill
 * switches, the tenant's pause, config changes, screen rules removed, restored and reordered
 * (a read rule and its write exception), approvers widened, narrowed and cleared, redact_regions
 * over the whole screen, a name field or nothing (grown past 2% a weakening, shrunk not), each by a
 * plain admin or one who may weaken, the agent's script replaced (by the same content or new) or
 * deleted by a plain admin, by one who may weaken without a reason, or with one, cancels, approvals by whoever, rejections, bursts of concurrent
 * resumes, a host action that fails before or after it acted), and scripts that type through
 * Tabs (a password from the command field of the password screen, text into VA02's order
 * field). Each config change is predicted
 * a weakening or not: a plain admin's weakening must be refused (403) and nothing else may be.
 * After each case the host's own record of what reached its screen (typed text and the Enter key)
 * is checked against Warden's by the oracle (support/governance-oracle.ts):
 * - every write the host performed was a step Warden sent with a spent approval for that exact
 *   step, decided by one of its deciders and by someone other than the run's starter where
 *   four-eyes holds, or a step sent by an agent whose writes needed no approval, planned by exactly
 *   the script content one who may weaken granted it, audited so; or
 *   typing staged (never a transaction code) while the agent approved at the commit, audited so;
 *   or a read by screen rules in force that make it one (a transaction code; an Enter a read rule
 *   and no write rule names); or a send whose outcome Warden recorded as unknown (the host failed
 *   half-way) and audited with one of those authorities;
 * - an approval names the approvers of a config in force when its write was held;
 * - no write was performed twice, no password was changed, and no text went on after a newline;
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
const COMMAND = { role: 'textbox', name: 'Command field' };
const CHANGE = { role: 'button', name: 'Change' };
const CURRENT_PASSWORD = { role: 'textbox', name: 'Current Password' };
/** The sim's password when it starts (sim-state.ts), for the cases that type it through Tabs. */
const INITIAL_PASSWORD = 'Initial-Pass-1';

/** Where the sim draws VA02's Change button (its initial screen), from the sim itself. */
function changeButtonRect(): { x: number; y: number; width: number; height: number } {
  const app = new SimApp();
  const act = (body: unknown) => {
    const checked = checkAction(body, { width: 1280, height: 800 });
    if (!checked.ok) throw new Error(checked.reason);
    app.perform(checked.action);
  };
  const field = app.outline().find((e) => e.area === 'command_field')!.rect;
  act({ action: 'click', x: field.x + 5, y: field.y + 5 });
  act({ action: 'type', text: '/nVA02' });
  act({ action: 'key', key: 'Enter' });
  const button = app.outline().find((e) => e.role === 'button' && e.name === CHANGE.name);
  if (!button) throw new Error('the sim shows no Change button on VA02');
  return button.rect;
}
const changeButton = changeButtonRect();
const ENDED = ['completed', 'failed', 'stopped'];
interface Lane {
  tenant: string;
  sim: SimHost;
  tokens: Record<'admin' | 'weakener' | 'operator' | 'approver' | 'both' | 'carol', string>;
}

interface Tally {
  cases: number;
  ends: Record<string, number>;
  events: Record<string, number>;
  writesPerformed: number;
  /** Enter keys the hosts performed. */
  entersPerformed: number;
  /** Clicks on VA02's Change button the hosts performed, and those sent as reads by a word. */
  changeClicks: number;
  changeReads: number;
  /** Steps sent staged (approve_at "commit"). */
  staged: number;
  /** Enter steps sent as reads by a title rule. */
  enterReads: number;
  /** Typing refused for where its text goes after a Tab or a newline. */
  focusMovesRefused: number;
  /** Config changes of the random events: accepted, and refused as a plain admin's weakening. */
  changes: { accepted: number; refused: number };
  /** Script replacements and deletions: accepted, refused 403 (a plain admin), 400 (no reason). */
  scripts: { accepted: number; forbidden: number; unexplained: number };
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
    entersPerformed: 0,
    changeClicks: 0,
    changeReads: 0,
    staged: 0,
    enterReads: 0,
    focusMovesRefused: 0,
    changes: { accepted: 0, refused: 0 },
    scripts: { accepted: 0, forbidden: 0, unexplained: 0 },
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
          carol: await token('carol', ['agents.approve']),
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
   * (`every`), none (`weakened`), or at the commit with typing staged (`commit`), its title rules and
   * approvers. `by` a plain admin or one who may weaken (with a reason); by default whoever the
   * state needs. Answers the status.
   */
  async function configure(
    lane: Lane,
    planner: string,
    state: AgentState,
    by?: 'admin' | 'weakener',
  ): Promise<number> {
    const weakened = state.mode === 'weakened';
    const reasoned =
      by === 'weakener' ||
      (by === undefined &&
        (state.mode !== 'every' ||
          !state.fourEyes ||
          state.rules.includes(ENTER_READ) ||
          state.navigation.length > 0));
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
            four_eyes: state.fourEyes,
            ...(state.mode === 'commit' ? { approve_at: 'commit' } : {}),
            screen_rules: [...(state.mode === 'commit' ? [CODES] : []), ...state.rules],
            approvers: state.approvers,
            navigation_words: state.navigation,
            redact_regions: state.redact,
            // As a GET reads it back: the reason of the weakenings in force (a plain admin's
            // reason lets nothing more happen; the permission decides).
            reason: 'property test',
          },
        },
      },
    );
    if (by === undefined && r.status !== 200) throw new Error(`configure: ${r.status} ${r.text}`);
    return r.status;
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
    // Two cases in 25 are calm: commit mode's VA02 with no event but approvals, so that the staging
    // path (and, with the read rule alone, an Enter made a read by a title rule) is taken in every
    // series, however the machine's load ends the other cases early.
    // A third calm one types the password through Tabs, with every write before it approved, so
    // that the refusal is reached in every series too.
    const calmTabs = n % 25 === 6;
    const calm = n % 25 === 0 || n % 25 === 12 || calmTabs;
    const mode: Mode = calm ? 'commit' : m < 0.2 ? 'weakened' : m < 0.45 ? 'commit' : 'every';
    // Typing into the order field, staged under approve_at "commit", then Enter: a commit.
    const va02 = [
      { action: { action: 'click', element: COMMAND } },
      { action: { action: 'type', text: '/nVA02' } },
      { action: { action: 'key', key: 'Enter' } },
      { action: { action: 'click', element: { role: 'textbox', name: 'Order' } } },
      { action: { action: 'type', text: texts[0] } },
      // The initial screen's Change button does what its Enter does: a command control, a write
      // unless the agent's navigation words make it a read.
      random() < 0.5
        ? { action: { action: 'key', key: 'Enter' } }
        : { action: { action: 'click', element: CHANGE } },
    ];
    // Typing that moves the focus: from the command field of the password screen, the current
    // password and a new one through Tabs, then Enter (refused: the Tabs reach the password
    // fields, and the script stops there); into VA02's order field, text through a Tab (a write:
    // no field it reaches is secret) or ending in one. (Text on after a newline is refused when
    // the script is saved; the oracle checks that none reaches the screen all the same.)
    const throughTabs = [
      [
        { action: { action: 'click', element: COMMAND } },
        { action: { action: 'type', text: '/nPWD' } },
        { action: { action: 'key', key: 'Enter' } },
        { when: { element: CURRENT_PASSWORD }, action: { action: 'click', element: COMMAND } },
        {
          action: {
            action: 'type',
            text: `\t${INITIAL_PASSWORD}\tNew-Pass-${texts[0]}\tNew-Pass-${texts[0]}`,
          },
        },
        { action: { action: 'key', key: 'Enter' } },
      ],
      [
        ...va02.slice(0, 4),
        {
          action: {
            action: 'type',
            text: pick([`${texts[0]}\t${texts[1]}`, `\t${texts[0]}`, `${texts[0]}\t`]),
          },
        },
        { action: { action: 'key', key: 'Enter' } },
      ],
    ];
    const scripts = [
      ...throughTabs,
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
    const script = calmTabs
      ? throughTabs[0]
      : calm || (mode === 'commit' && random() < 0.7)
        ? va02
        : pick(scripts);
    /** The script's content as stored now (null: deleted), and how many it has replaced. */
    let content: Record<string, unknown> | null = {
      steps: [...script, { action: { action: 'done', summary: 'done' } }],
      patience: 2,
    };
    let replaced = 0;
    const planner = (
      await call('POST', '/api/planners/scripted', tokens.admin, {
        name: `case ${n}`,
        script: content,
      })
    ).body.planner.id as string;
    const fourEyes = random() < 0.8;
    const state: AgentState = {
      mode,
      fourEyes,
      // The 12th calm one with the read rule alone: its Enter on the initial screen is a read.
      rules: calm
        ? n % 25 === 12
          ? [ENTER_READ]
          : []
        : pick([[], [ENTER_READ], [ENTER_READ, ENTER_EXCEPTION], [ENTER_EXCEPTION, ENTER_READ]]),
      approvers: calm ? [] : pick([[], [], ['subject:bob'], ['subject:bob', 'subject:carol']]),
      navigation: !calm && random() < 0.3 ? ['Change'] : [],
      redact: [],
    };
    // Set up by one who may weaken: the lane's agent is as the last case left it.
    const set = await configure(lane, planner, state, 'weakener');
    if (set !== 200) throw new Error(`configure: ${set}`);
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
          const [who, subject] = pick([
            [tokens.approver, 'bob'],
            [tokens.approver, 'bob'],
            [tokens.carol, 'carol'],
            ...(fourEyes && random() < 0.5 ? [[tokens.both, 'olga'] as const] : []),
          ] as const);
          const deciders = (await call('GET', `/api/approvals/${approval}`, tokens.approver)).body
            .may_decide_now as string[] | null;
          const decided = await call('POST', `/api/approvals/${approval}/approve`, who, {});
          if (
            decided.status === 200 &&
            deciders !== null &&
            !deciders.includes(`subject:${subject}`)
          ) {
            tally.violations.push(
              `case ${n} (seed ${SEED}): ${subject} approved a write only ${deciders.join(', ')} may decide`,
            );
          }
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
        'rules: drop the exception',
        'rules: restore the exception',
        'rules: reorder',
        'rules: drop all',
        'rules: add',
        'approvers: add',
        'approvers: remove',
        'approvers: clear',
        'approvers: swap',
        'navigation: add Change',
        'navigation: remove',
        'redact: the whole screen',
        'redact: a name field',
        'redact: nothing',
        'script: replace',
        'script: replace',
        'script: delete',
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
          // The agent's script is gone: its config stays as it is for the rest of the case.
          if (content === null) return;
          state.mode = event === 'strengthen' ? 'every' : random() < 0.5 ? 'weakened' : 'commit';
          await configure(lane, planner, state);
          return;
        case 'rules: drop the exception':
        case 'rules: restore the exception':
        case 'rules: reorder':
        case 'rules: drop all':
        case 'rules: add':
        case 'approvers: add':
        case 'approvers: remove':
        case 'approvers: clear':
        case 'approvers: swap':
        case 'navigation: add Change':
        case 'navigation: remove':
        case 'redact: the whole screen':
        case 'redact: a name field':
        case 'redact: nothing': {
          const change = content === null ? null : changeOf(event, state, pick);
          if (!change) return;
          const by = random() < 0.5 ? 'admin' : 'weakener';
          const status = await configure(lane, planner, { ...state, ...change.to }, by);
          const expected = by === 'admin' && change.weakens ? 403 : 200;
          if (status !== expected) {
            tally.violations.push(
              `case ${n} (seed ${SEED}): "${event}" by ${by === 'admin' ? 'a plain admin' : 'a weakener'} (${change.weakens ? '' : 'not '}a weakening) answered ${status}, not ${expected}`,
            );
          }
          if (status === 200) {
            Object.assign(state, change.to);
            tally.changes.accepted++;
          } else {
            tally.changes.refused++;
          }
          return;
        }
        case 'script: replace':
        case 'script: delete': {
          if (content === null) return;
          // The same content again, or a script that types a text of its own: a write.
          const next =
            event === 'script: delete'
              ? null
              : random() < 0.25
                ? content
                : {
                    steps: [
                      { action: { action: 'click', element: COMMAND } },
                      { action: { action: 'type', text: `c${n}s${++replaced}` } },
                      { action: { action: 'done', summary: 'done' } },
                    ],
                    patience: 2,
                  };
          const by = pick(['admin', 'weakener', 'weakener'] as const);
          const reason = by === 'admin' ? random() < 0.5 : random() < 0.7;
          const token = by === 'admin' ? tokens.admin : tokens.weakener;
          const why = 'property test: the new content was reviewed';
          const r =
            next === null
              ? await call(
                  'DELETE',
                  `/api/planners/${planner}${reason ? `?reason=${encodeURIComponent(why)}` : ''}`,
                  token,
                )
              : await call('PUT', `/api/planners/${planner}`, token, {
                  script: next,
                  ...(reason ? { reason: why } : {}),
                });
          // The oracle's own rule: replacing the content (or deleting the script) of an agent whose
          // writes need no approval is its weakening; the same content, or an agent whose writes
          // are held, is any admin's.
          const weakens =
            state.mode === 'weakened' &&
            (next === null || JSON.stringify(next) !== JSON.stringify(content));
          const done = next === null ? 204 : 200;
          const expected = !weakens ? done : by === 'admin' ? 403 : reason ? done : 400;
          if (r.status !== expected) {
            tally.violations.push(
              `case ${n} (seed ${SEED}): "${event}" by ${by === 'admin' ? 'a plain admin' : 'a weakener'} ${reason ? 'with' : 'without'} a reason (${weakens ? '' : 'not '}a weakening) answered ${r.status}, not ${expected}`,
            );
          }
          if (r.status === done) {
            content = next;
            tally.scripts.accepted++;
          } else if (r.status === 403) {
            tally.scripts.forbidden++;
          } else if (r.status === 400) {
            tally.scripts.unexplained++;
          }
          return;
        }
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
    const hostEvents = await lane.sim.events();
    const performed = hostEvents.filter((e) => e.type === 'action');
    const passwordChanges = hostEvents.filter((e) => e.type === 'password_changed').length;
    const typed = performed
      .filter((e) => e.action?.action === 'type')
      .map((e) => e.action.text as string);
    const enters = performed.filter(
      (e) => e.action?.action === 'key' && e.action.key === 'Enter',
    ).length;
    // Clicks on VA02's Change button, where the sim draws it.
    const changes = performed.filter(
      (e) =>
        e.action?.action === 'click' &&
        e.action.x >= changeButton.x &&
        e.action.x < changeButton.x + changeButton.width &&
        e.action.y >= changeButton.y &&
        e.action.y < changeButton.y + changeButton.height,
    ).length;
    tally.changeClicks += changes;
    tally.writesPerformed += typed.length;
    tally.entersPerformed += enters;
    tally.staged += (
      await stack.api.db.sql<{ n: number }>(
        `SELECT n FROM steps WHERE run_id = $1 AND outcome = 'staged'`,
        [runId],
      )
    ).length;
    const steps = await stack.api.db.sql<StepRow & { id: string }>(
      `SELECT s.n, s.id, s.action, s.classification, s.why, s.outcome, s.error, s.started_at, s.ended_at,
              s.planner_sha256,
              a.id AS approval_id, a.status AS approval_status, a.decided_by, a.deciders
         FROM steps s LEFT JOIN approvals a ON a.step_id = s.id
        WHERE s.run_id = $1 ORDER BY s.n`,
      [runId],
    );
    tally.changeReads += steps.filter(
      (s) => s.classification === 'read' && /navigation_words/.test(s.why ?? ''),
    ).length;
    tally.enterReads += steps.filter(
      (s) =>
        s.action?.key === 'Enter' && /^Enter on “/.test(s.why ?? '') && s.classification === 'read',
    ).length;
    // The admin's own record: which config was in force when.
    const versions = await stack.api.db.sql<VersionRow>(
      `SELECT config->'agents'->'p'->>'require_write_approval' AS needs,
              config->'agents'->'p'->>'approve_at' AS approve_at,
              config->'agents'->'p'->'screen_rules' AS rules,
              ARRAY(SELECT jsonb_array_elements_text(
                COALESCE(config->'agents'->'p'->'approvers', '[]'::jsonb))) AS approvers,
              ARRAY(SELECT jsonb_array_elements_text(
                COALESCE(config->'agents'->'p'->'navigation_words', '[]'::jsonb))) AS navigation,
              script_grants->>'p' AS granted, created_by AS by, created_at AS at
         FROM computer_use_configs WHERE tenant = $1 ORDER BY version`,
      [lane.tenant],
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
    tally.focusMovesRefused += steps.filter(
      (s) => s.classification === 'invalid' && /^the text holds a (Tab|newline)/.test(s.why ?? ''),
    ).length;
    for (const v of violations({
      typed,
      passwordChanges,
      enters,
      changes,
      steps,
      versions,
      audited,
      fourEyes,
      starter: 'olga',
    })) {
      fail(v);
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
      if (CASES >= 25) expect(tally.enterReads).toBeGreaterThan(0);
      if (CASES >= 25) expect(tally.focusMovesRefused).toBeGreaterThan(0);
    },
    30 * 60_000,
  );
});
