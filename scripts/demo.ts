/**
 * `npm run demo` (through scripts/demo.sh, which installs, builds and starts PostgreSQL and Redis
 * when needed): Warden's whole story with real processes. A sim screen host with its own pinned
 * certificate, the API and the worker as `npm start` and `npm run worker` run them, tokens made with
 * the CLI, and one governed run that changes order 4711 in VA02: every held write is shown, refused
 * to the person who started the run (four-eyes), approved by another and resumed, until the run
 * ends. Then the record: steps, audit trail, the chain's verification, and what the screen host did.
 * Last, the same change with commit-point approval (approve_at "commit" and two screen rules): one
 * approval, at Save, with the change list; the approvals of both runs side by side.
 * Everything the demo starts, it stops, also on Ctrl-C and on errors. The demo database stays.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { ApiError, Approval, Run, Schemas } from '@warden/client';
import {
  apiClients,
  type Clients,
  clearQueues,
  ensure,
  nextStop as nextRunStop,
  SimEvent,
  simCall,
  simEvents,
} from './demo/clients';
import { modelEndpoint } from '../src/config/provider-urls';
import { commitPointRun, printComparison } from './demo/commit-point';
import { agentPlanner, DEMO_GOAL, type DemoPlanner, pickPlanner } from './demo/planner';
import { bad, describeAction, heading, line, ok, shortSha, table } from './demo/print';
import { ENTRIES, ProcessGroup } from './lib/processes';
import { type CliRun, grantSecret, makeTokens } from '../test/support/cli-tokens';
import { type HostProcess, startSimHostProcess } from '../test/support/sim-hosts';
import { startWardenProcesses } from '../test/support/warden-processes';

const TENANT = 'acme';
const AGENT = 'sap-orders';
/** The variable of the API's and the worker's environment that holds the screen host's token. */
const SCREEN_TOKEN_ENV = 'WARDEN_DEMO_SCREEN_TOKEN';
const PEOPLE = {
  admin: { subject: 'ada', permissions: ['computer_use.admin'] },
  // Loosening governance (approve_at "commit", screen rules) needs governance.weaken as well.
  weakener: { subject: 'wes', permissions: ['computer_use.admin', 'governance.weaken'] },
  // olga may approve, too: what stops her approving her own run's writes is four-eyes alone.
  operator: { subject: 'olga', permissions: ['agents.operate', 'agents.approve'] },
  approver: { subject: 'bob', permissions: ['agents.approve'] },
  auditor: { subject: 'aud', permissions: ['audit.read'] },
};
type Role = keyof typeof PEOPLE;

interface Settings {
  pgAdminUrl: string;
  database: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  apiPort?: number;
  fromSource: boolean;
  /** The certificate, the logs and the pid file; removed at the end if the demo made the folder. */
  work: string;
  ownWork: boolean;
  /** `--keep`: at the end, leave everything running with a held write, for the console. */
  keep: boolean;
}

const USAGE = `usage: npm run demo [-- --keep]
  --keep   at the end, leave the stack running with a write held for a person, print the
           console's address and tokens to sign in with, and stop everything on Ctrl+C`;

/** Everything can be overridden, so that a test can run the demo beside a user's own. */
function readSettings(env: NodeJS.ProcessEnv, argv: readonly string[]): Settings {
  const unknown = argv.filter((a) => a !== '--keep');
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown[0]}\n${USAGE}`);
  const pgAdminUrl = env.WARDEN_DEMO_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = env.WARDEN_DEMO_DB || 'warden_demo';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database))
    throw new Error(`WARDEN_DEMO_DB must be a plain lower-case database name, not "${database}"`);
  const databaseUrl = new URL(pgAdminUrl);
  databaseUrl.pathname = `/${database}`;
  const apiPort = env.WARDEN_DEMO_PORT ? Number(env.WARDEN_DEMO_PORT) : undefined;
  if (apiPort !== undefined && !(Number.isInteger(apiPort) && apiPort > 0 && apiPort < 65536))
    throw new Error('WARDEN_DEMO_PORT must be a port number');
  return {
    pgAdminUrl,
    database,
    databaseUrl: databaseUrl.toString(),
    redisUrl: env.WARDEN_DEMO_REDIS_URL || 'redis://127.0.0.1:6379',
    queuePrefix: env.WARDEN_DEMO_QUEUE_PREFIX || 'warden-demo',
    apiPort,
    fromSource: env.WARDEN_DEMO_FROM_SOURCE === '1',
    work: env.WARDEN_DEMO_WORK || mkdtempSync(join(tmpdir(), 'warden-demo-')),
    ownWork: !env.WARDEN_DEMO_WORK,
    keep: argv.includes('--keep'),
  };
}

/** What the demo stood up, for every part after the setting up. */
interface Demo {
  /** The API's origin. */
  base: string;
  /** Each person's typed client of the API. */
  as: Clients;
  tokens: Record<Role, string>;
  sim: SimHost;
  /** The agent's config as ada put it. */
  agentConfig: Schemas['AgentDto'];
}

/** The first run to its end: how it ended and how many writes a person approved. */
interface Governed {
  run: Run;
  held: number;
}

/** The demo; answers whether everything it shows came out as it should. */
async function main(settings: Settings, processes: ProcessGroup): Promise<boolean> {
  const began = Date.now();
  console.log('Warden demo: an agent changes a sales order on a screen-only system (SAP GUI,');
  console.log('simulated), one governed action at a time. Every write waits for a second person.');
  const demo = await setUp(settings, processes);
  const setUpAt = Date.now();
  const governed = await theRun(demo);
  const ranAt = Date.now();
  const startedId = governed.run.id;
  showSteps(await runAsAuditor(demo, startedId));
  const verified = await showAuditTrail(demo, startedId);
  const saved = await showWhatTheHostSaw(demo);
  const fewer = await theSameChangeAtTheCommit(demo, governed.held, saved.saves);
  const good = governed.run.status === 'completed' && saved.oneSave && verified && fewer;
  if (settings.keep) {
    await keepForTheConsole(demo);
    // Until Ctrl+C (or SIGTERM): then everything the demo started is stopped, as at its end.
    keeping = good ? 'good' : 'bad';
    await new Promise<never>(() => undefined);
  }
  await stopping(settings, processes);
  const secs = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
  const end = Date.now();
  line(
    `done in ${secs(began, end)}: setting up ${secs(began, setUpAt)}, the run ${secs(setUpAt, ranAt)}, the rest ${secs(ranAt, end)}`,
  );
  return good;
}

/** 1. The database, the sim host, the API and the worker, the people's tokens and the agent. */
async function setUp(settings: Settings, processes: ProcessGroup): Promise<Demo> {
  const env = { ...process.env };
  delete env.TEST_CRASH_AT;
  const wardenEnv = {
    ...env,
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    QUEUE_PREFIX: settings.queuePrefix,
    LOG_LEVEL: 'info',
  };
  heading('1. Setting up');
  line(
    settings.fromSource
      ? 'the entry points run from their TypeScript sources (WARDEN_DEMO_FROM_SOURCE=1)'
      : 'the entry points run from dist/, as a deployment runs them',
  );

  // The database and the screen host at once: neither needs the other.
  const [migrations, sim] = await Promise.all([
    freshDatabase(settings, processes, wardenEnv),
    startSimHost(settings, processes, env),
  ]);
  ok(`database ${settings.database}: made fresh, ${migrations} migrations applied (cli migrate)`);
  ok(`screen host (sim backend) on ${sim.url}`);
  line(`its own certificate, fingerprint ${shortSha(sim.fingerprint)} (pinned in the agent)`);
  line(`a fresh random token, given to Warden in ${SCREEN_TOKEN_ENV} (never printed)`);

  const planner = pickPlanner(process.env);
  const { base, tokens } = await startServices(settings, processes, wardenEnv, sim, planner);
  const as = apiClients(base);
  const agentConfig = await configureAgent(as, tokens, sim, planner);
  return { base, as, tokens, sim, agentConfig };
}

/** The API and the worker as real processes; the demo's people and grants made with the CLI meanwhile. */
async function startServices(
  settings: Settings,
  processes: ProcessGroup,
  wardenEnv: NodeJS.ProcessEnv,
  sim: SimHost,
  planner: DemoPlanner,
): Promise<{ base: string; tokens: Record<Role, string> }> {
  const serviceEnv = { ...wardenEnv, [SCREEN_TOKEN_ENV]: sim.token };
  const cli: CliRun = (args, log) => processes.run(ENTRIES.cli, args, wardenEnv, log);
  const [{ apiUrls }, tokens, granted] = await Promise.all([
    startWardenProcesses(processes, { env: serviceEnv, port: settings.apiPort }),
    makeTokens(cli, TENANT, PEOPLE),
    grantSecrets(cli, sim.url, planner),
  ]);
  const base = apiUrls[0];
  ok(`API on ${base} (OpenAPI: ${base}/api/docs) and the worker`);
  line(`both on database ${settings.database}, queue prefix ${settings.queuePrefix}`);
  ok(`tokens made with the CLI (cli token create), tenant ${TENANT}:`);
  for (const p of Object.values(PEOPLE))
    line(`  ${p.subject.padEnd(5)} ${p.permissions.join(', ')}`);
  ok(`secrets granted by the deployment operator (cli secrets grant), tenant ${TENANT}:`);
  for (const g of granted) line(`  ${g}`);
  return { base, tokens };
}

/** The agent, configured by ada: the sim host, its pinned certificate, and the planner. */
async function configureAgent(
  as: Clients,
  tokens: Record<Role, string>,
  sim: SimHost,
  planner: DemoPlanner,
): Promise<Schemas['AgentDto']> {
  const agentConfig: Schemas['AgentDto'] = {
    screen_url: sim.url,
    screen_token_env: SCREEN_TOKEN_ENV,
    screen_tls: { fingerprint_sha256: sim.fingerprint },
    system: 'SAP GUI (sim)',
    max_steps: 20,
    max_seconds: 300,
    planner: await agentPlanner(planner, as, tokens.admin),
  };
  const configured = ensure(
    'PUT /api/admin/computer-use',
    await as(tokens.admin).PUT('/api/admin/computer-use', {
      body: { enabled: true, agents: { [AGENT]: agentConfig } },
    }),
    200,
  );
  const agent = configured.agents[AGENT];
  ok(`agent ${AGENT} configured by ada (PUT /api/admin/computer-use):`);
  line(`  planner: ${planner.describe}`);
  line(
    `  writes need approval: ${agent.require_write_approval ? 'yes' : 'no'}, four-eyes: ${agent.four_eyes ? 'on' : 'off'}`,
  );
  return agentConfig;
}

/**
 * 2. olga's run of the change: every held write refused to her (four-eyes), approved by bob and
 * resumed by her, until the run ends. Reads go through at once; they are mentioned as they come.
 */
async function theRun(demo: Demo): Promise<Governed> {
  const { as, tokens } = demo;
  heading('2. The run');
  const started = await startRun(demo);
  line(`olga starts a run of ${AGENT} with the goal`);
  line(`  "${DEMO_GOAL}"`);
  line(`run ${started.id}`);
  const nextStop = (after?: string) => nextRunStop(as(tokens.operator), started.id, after);
  let shown = 0;
  const showReads = (run: Run) => {
    for (const s of run.steps ?? []) {
      if (s.n <= shown || s.outcome !== 'sent') continue;
      line(`Step ${s.n}: ${describeAction(s.action, { where: false })} — a read, sent at once`);
      shown = s.n;
    }
  };
  let run = await nextStop();
  let held = 0;
  while (run.status === 'awaiting_approval' && run.pending_approval) {
    held++;
    const approval = run.pending_approval;
    showReads(run);
    shown = approval.step;
    const decided = await decideHeld(demo, started.id, approval);
    if (held === 1) {
      await showFirstHeld(demo, started.id, approval, decided);
    } else {
      const action = describeAction(approval.action, { where: false });
      line(`Held write ${held}, step ${approval.step}: ${action} — ${approval.why}`);
    }
    run = await nextStop(approval.id);
  }
  showReads(run);
  console.log('');
  (run.status === 'completed' ? ok : bad)(
    `run ${run.status} (${run.end_reason ?? ''}) after ${run.step_count} steps, ${held} held writes approved`,
  );
  if (run.summary) line(`the planner's summary: ${run.summary}`);
  return { run, held };
}

/** olga starts a run of the agent with the demo's goal. */
async function startRun(demo: Demo): Promise<Run> {
  return ensure(
    'POST /api/computer-use/runs',
    await demo.as(demo.tokens.operator).POST('/api/computer-use/runs', {
      body: { agent: AGENT, goal: DEMO_GOAL },
    }),
    201,
  );
}

/** How a held write was decided: olga's refusal (four-eyes) and bob's approval. */
interface Decided {
  refused: ApiError;
  approved: Approval;
}

/** olga may not approve her own run's write (403 four-eyes); bob approves it and olga resumes. */
async function decideHeld(demo: Demo, runId: string, approval: Approval): Promise<Decided> {
  const { as, tokens } = demo;
  const decide = (comment: string) => ({
    params: { path: { id: approval.id } },
    body: { comment },
  });
  const self = await as(tokens.operator).POST('/api/approvals/{id}/approve', decide('mine, fine'));
  const refused = self.error;
  if (self.response.status !== 403 || !refused?.message.includes('four-eyes'))
    throw new Error(
      `olga approving her own write: expected 403 four-eyes, got ${self.response.status}`,
    );
  const approved = ensure(
    `bob approving step ${approval.step}`,
    await as(tokens.approver).POST('/api/approvals/{id}/approve', decide('checked the screen')),
    200,
  );
  ensure(
    `olga resuming step ${approval.step}`,
    await as(tokens.operator).POST('/api/computer-use/runs/{id}/resume', {
      params: { path: { id: runId } },
    }),
    200,
  );
  return { refused, approved };
}

/** The run as the auditor reads it. */
async function runAsAuditor(demo: Demo, runId: string): Promise<Run> {
  return ensure(
    'GET the run as the auditor',
    await demo.as(demo.tokens.auditor).GET('/api/computer-use/runs/{id}', {
      params: { path: { id: runId } },
    }),
    200,
  );
}

/** 3. Each step of the run: the action, how it was classified and why, and what became of it. */
function showSteps(recorded: Run): void {
  heading(`3. The run's steps (GET ${'/api/computer-use/runs/{id}'}, as aud)`);
  table(
    ['n', 'action', 'class', 'why', 'outcome'],
    (recorded.steps ?? []).map((s) => [
      s.n,
      describeAction(s.action, { where: false }),
      s.classification ?? '-',
      s.why ?? '-',
      s.outcome ?? '-',
    ]),
    { max: 26, wrapAt: 3, width: 36 },
  );
}

/** 4. The audit trail before and of the run, and the chain's verification; answers whether it holds. */
async function showAuditTrail(demo: Demo, runId: string): Promise<boolean> {
  const auditor = demo.as(demo.tokens.auditor);
  heading('4. The audit trail (GET /api/audit, as aud)');
  const trail = ensure(
    'GET /api/audit',
    await auditor.GET('/api/audit', { params: { query: { limit: 200 } } }),
    200,
  ).items;
  line(`before the run: ${countTypes(trail.filter((e) => e.run_id !== runId))}`);
  line('the run: each write held, decided by bob, then sent once');
  console.log('');
  table(
    ['seq', 'type', 'actor', 'step', 'sha256'],
    trail
      .filter((e) => e.run_id === runId)
      .map((e) => [e.seq, e.type, e.actor, e.step ?? '', shortSha(e.sha256)]),
  );
  const verify = ensure('GET /api/audit/verify', await auditor.GET('/api/audit/verify'), 200);
  console.log('');
  (verify.ok ? ok : bad)(
    `GET /api/audit/verify: ${verify.ok ? 'ok' : 'NOT OK'}, ${verify.checked} events of ${TENANT} checked, head ${shortSha(verify.head_sha256)}`,
  );
  return verify.ok;
}

/** 5. What the sim performed and its business events; answers how many saves it saw. */
async function showWhatTheHostSaw(demo: Demo): Promise<{ saves: number; oneSave: boolean }> {
  heading('5. What the screen host saw happen (the sim, GET /sim/events)');
  const { sim } = demo;
  const events = await simEvents(sim.url, sim.certPath, sim.token);
  line(`${events.filter((e) => e.type === 'action').length} actions performed; business events:`);
  for (const e of events.filter((e) => e.type !== 'action')) line(`  ${describeEvent(e)}`);
  const saves = events.filter((e) => e.type === 'saved');
  const oneSave = saves.length === 1 && saves[0].order === '4711';
  (oneSave ? ok : bad)(
    oneSave
      ? 'exactly one save of order 4711'
      : `expected exactly one save of order 4711, saw ${saves.length} saves`,
  );
  return { saves: saves.length, oneSave };
}

/**
 * 6. The same change with commit-point approval, and what a person had to decide in each run;
 * answers whether it took fewer approvals for the one save.
 */
async function theSameChangeAtTheCommit(demo: Demo, held: number, saves: number): Promise<boolean> {
  heading('6. The same change, approved at the commit');
  const commit = await commitPointRun({
    as: demo.as,
    tokens: demo.tokens,
    agent: AGENT,
    agentConfig: demo.agentConfig,
    goal: DEMO_GOAL,
    sim: demo.sim,
  });
  console.log('');
  line('What a person had to decide for the one business change:');
  printComparison({ approvals: held, saves }, commit);
  return commit.completed && commit.saves === 1 && commit.approvals < held && commit.verified;
}

/** 7. Everything the demo started, stopped; its queue keys deleted; the database kept. */
async function stopping(settings: Settings, processes: ProcessGroup): Promise<void> {
  heading('7. Stopping');
  const stopped = await processes.stopAll();
  await clearQueues(settings.redisUrl, settings.queuePrefix);
  ok(`stopped ${stopped.slice(0, -1).join(', ')} and ${stopped[stopped.length - 1]}`);
  line(
    `queue keys ${settings.queuePrefix}:* deleted; the host's certificate and token thrown away`,
  );
  line(`the database ${settings.database} stays for a look: psql ${settings.databaseUrl}`);
  const services = process.env.WARDEN_DEMO_STARTED_SERVICES?.split(' ').filter(Boolean) ?? [];
  if (services.length > 0)
    line(`${services.join(' and ')}, started for the demo, keep running as the machine's services`);
}

/**
 * `--keep`: a new run of the same change, stopped at its first held write, and how to see it in
 * the console: its address and the tokens of the demo's people (made for this demo's own database;
 * they are worth nothing once it is gone). The sim is reset first: the runs before saved the new
 * date, and a run from their last screen would hold a Save that changes nothing.
 */
async function keepForTheConsole(demo: Demo): Promise<void> {
  const { as, base, tokens, sim } = demo;
  heading('7. The console, kept running (--keep)');
  await simCall(sim.url, sim.certPath, sim.token, 'POST', '/sim/reset');
  line('the sim is reset: order 4711 has its old date again, on the first screen');
  const started = await startRun(demo);
  const run = await nextRunStop(as(tokens.operator), started.id);
  if (run.status !== 'awaiting_approval' || !run.pending_approval)
    throw new Error(`the kept run did not hold a write: it is ${run.status} (${run.end_reason})`);
  const approval = run.pending_approval;
  ok(`olga started run ${started.id}; its step ${approval.step} waits for a person:`);
  line(`  ${describeAction(approval.action, { where: false })} — ${approval.why}`);
  console.log('');
  line(`open ${base}/console and sign in with an API token:`);
  line(`  as bob, the approver:  ${tokens.approver}`);
  line(`  as olga, the operator: ${tokens.operator}`);
  line('                         (she started the run: four-eyes keeps her from approving it;');
  line('                          once bob approved, she resumes it from the same page)');
  line(`  as aud, the auditor:   ${tokens.auditor}`);
  line(`  as ada, the admin:     ${tokens.admin}`);
  line(`                         (the Admin page, ${base}/console/admin: each agent's`);
  line('                          governance, its kill switch, and the pause of every agent)');
  line(`the approval: ${base}/console/approvals/${approval.id}`);
  console.log('');
  line('Ctrl+C stops everything the demo started (the database stays).');
}

/** Drops and creates the demo database, migrates it with the CLI; answers how many migrations ran. */
async function freshDatabase(
  settings: Settings,
  processes: ProcessGroup,
  wardenEnv: NodeJS.ProcessEnv,
): Promise<number> {
  const pg = new Client({ connectionString: settings.pgAdminUrl, connectionTimeoutMillis: 5000 });
  await pg.connect().catch((error: Error) => {
    throw new Error(`PostgreSQL does not answer at ${settings.pgAdminUrl} (${error.message})`);
  });
  try {
    await pg.query(`DROP DATABASE IF EXISTS "${settings.database}" WITH (FORCE)`);
    await pg.query(`CREATE DATABASE "${settings.database}"`);
  } finally {
    await pg.end();
  }
  // No queue keys left from an earlier demo's runs, whose database is gone.
  await clearQueues(settings.redisUrl, settings.queuePrefix);
  const migrated = await processes.run(ENTRIES.cli, ['migrate'], wardenEnv, 'migrate.log');
  return /applied (.*)/.exec(migrated)?.[1].split(', ').length ?? 0;
}

interface SimHost extends HostProcess {
  token: string;
}

/** The sim screen host as its own process: its own certificate, a fresh token, a free port. */
async function startSimHost(
  settings: Settings,
  processes: ProcessGroup,
  env: NodeJS.ProcessEnv,
): Promise<SimHost> {
  const token = randomBytes(32).toString('hex');
  return { ...(await startSimHostProcess(processes, settings.work, token, env)), token };
}

/** The first held write in full: what, why, the screen the approver sees, and four-eyes. */
async function showFirstHeld(
  demo: Demo,
  runId: string,
  approval: Approval,
  { refused, approved }: Decided,
): Promise<void> {
  const screenPath = `/api/computer-use/runs/${runId}/steps/${approval.step}/screen`;
  const screen = await demo
    .as(demo.tokens.approver)
    .GET('/api/computer-use/runs/{id}/steps/{n}/screen', {
      params: { path: { id: runId, n: approval.step } },
      parseAs: 'arrayBuffer',
    });
  const png = Buffer.from(screen.data ?? new ArrayBuffer(0));
  const same = createHash('sha256').update(png).digest('hex') === approval.screen_sha256;
  console.log('');
  line(`Held write 1, step ${approval.step}: the run waits for an approver`);
  line(`  action      ${describeAction(approval.action)}`);
  line(`  why held    ${approval.why}`);
  line(`  screen      SHA-256 ${approval.screen_sha256}`);
  line(`              GET ${screenPath}`);
  line(
    `              (as bob: ${screen.response.status}, a ${Math.round(png.length / 1024)} KB PNG, SHA-256 ${same ? 'matches' : 'DOES NOT MATCH'})`,
  );
  line(`  olga tries to approve it → 403`);
  line(`              "${refused.message}"`);
  line(`  bob approves it          → ${approved.status}`);
  line(`  olga resumes the run     → the write is sent, once`);
  console.log('');
  line('Every further held write goes the same way: olga 403, bob approves, olga resumes.');
}

/**
 * The operator's grants (docs/screen-host.md): the sim's token may go to the sim, and a real model's key to
 * its provider. Answers what was granted, one line each.
 */
async function grantSecrets(cli: CliRun, hostUrl: string, planner: DemoPlanner): Promise<string[]> {
  const grants: Array<[string, string]> = [[SCREEN_TOKEN_ENV, new URL(hostUrl).origin]];
  if (planner.kind === 'model') {
    grants.push([planner.config.api_key_env, new URL(modelEndpoint(planner.config)).origin]);
  }
  for (const [name, to] of grants) await grantSecret(cli, TENANT, name, [to]);
  return grants.map(([name, to]) => `${name} → ${to}`);
}

/** `token.created ×4, computer_use.config` */
function countTypes(events: Array<{ type: string }>): string {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return [...counts].map(([type, n]) => (n > 1 ? `${type} ×${n}` : type)).join(', ');
}

function describeEvent(e: SimEvent): string {
  switch (e.type) {
    case 'transaction':
      return `transaction ${e.code ?? '?'} opened`;
    case 'saved':
      return `order ${e.order ?? '?'} saved: Req. Deliv. Date ${e.fields?.reqDelivDate ?? '?'} (changed: ${(e.changed ?? []).join(', ')})`;
    case 'posted':
      return `document ${e.document ?? '?'} posted`;
    default:
      return e.type;
  }
}

/**
 * Set once `--keep` waits for Ctrl+C: a stop is then the demo's end, good (exit 0) when everything
 * it showed came out as it should.
 */
let keeping: 'good' | 'bad' | null = null;

async function demo(): Promise<void> {
  let settings: Settings;
  try {
    settings = readSettings(process.env, process.argv.slice(2));
  } catch (error) {
    console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const processes = new ProcessGroup({
    logDir: settings.work,
    pidFile: join(settings.work, 'pids'),
    fromDist: !settings.fromSource,
  });
  // The first way out wins: the demo's end, its failure, or Ctrl-C (SIGINT) / SIGTERM.
  let finishing: Promise<void> | undefined;
  const finish = (code: number, note?: string) =>
    (finishing ??= (async () => {
      await processes.stopAll();
      // The queue keys are of no use without the processes (the runs are in the database).
      await clearQueues(settings.redisUrl, settings.queuePrefix).catch(() => undefined);
      if (settings.ownWork) rmSync(settings.work, { recursive: true, force: true });
      if (note) console.log(note);
      process.exit(code);
    })());
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.log(`\n${signal}: stopping what the demo started…`);
      const code = keeping === 'good' ? 0 : keeping === 'bad' ? 1 : signal === 'SIGINT' ? 130 : 143;
      void finish(code, 'stopped; nothing the demo started is running.');
    });
  }
  let code = 1;
  try {
    code = (await main(settings, processes)) ? 0 : 1;
  } catch (error) {
    // Once interrupted, the processes' ends are expected, not news.
    if (!interrupted) {
      console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
      const tails = processes.tails();
      if (tails) console.error(`\nthe last lines of what is still running:\n${tails}`);
      console.error('\nstopping what the demo started…');
    }
  }
  await finish(code);
}

void demo();
