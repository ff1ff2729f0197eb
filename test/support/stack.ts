import type { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import type { RunningScreenHost, StartScreenHostOptions } from '../../screen-host/src';
import { createWorker } from '../../src/worker.module';
import { type HttpResult, startApi, TestApi } from './api';
import { startPinnedHost } from './sim-hosts';
import { until } from './until';

export interface SimHost {
  host: RunningScreenHost;
  url: string;
  fingerprint: string;
  tokenEnv: string;
  cert: Buffer;
  keyPem: Buffer;
  /** Test routes of the sim (started with testRoutes). */
  events(): Promise<Array<Record<string, any>>>;
  /** A status message; `faint`: drawn so that no person can see it (the outline still has it). */
  poke(message: string, options?: { faint?: boolean }): Promise<void>;
  blink(on: boolean): Promise<void>;
  /** An editable field changed as someone else would change it: modified, with no action. */
  prefill(field: string, value: string): Promise<void>;
  /** Every screenshot a PNG file of its own, the same pixels (a counter in a text chunk). */
  reencode(on: boolean): Promise<void>;
  reset(): Promise<void>;
  /** Raw call to the host, as Warden would make it. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Buffer }>;
  close(): Promise<void>;
}

/** A sim screen host over real HTTPS with its own certificate; its token lives in a fresh variable. */
export async function startSimHost(
  options: Partial<StartScreenHostOptions> = {},
): Promise<SimHost> {
  const token = randomBytes(24).toString('hex');
  const tokenEnv = `WARDEN_TEST_SCREEN_TOKEN_${randomBytes(4).toString('hex').toUpperCase()}`;
  process.env[tokenEnv] = token;
  const created = await startPinnedHost({ backend: 'sim', token, ...options });
  const { host } = created;
  const cert = readFileSync(created.certPath);
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        new URL(path, host.url),
        {
          method,
          ca: cert,
          agent: false,
          headers: {
            authorization: `Bearer ${token}`,
            ...(payload ? { 'content-type': 'application/json' } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await call(method, path, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${answer.body.toString()}`);
    return answer;
  };
  return {
    host,
    url: host.url,
    fingerprint: created.fingerprint,
    tokenEnv,
    cert,
    keyPem: readFileSync(created.keyPath),
    call,
    events: async () =>
      (JSON.parse((await ok('GET', '/sim/events')).body.toString()) as { events: [] }).events,
    poke: async (message, options = {}) =>
      void (await ok('POST', '/sim/poke', { message, ...options })),
    blink: async (on) => void (await ok('POST', '/sim/blink', { on })),
    prefill: async (field, value) => void (await ok('POST', '/sim/prefill', { field, value })),
    reencode: async (on) => void (await ok('POST', '/sim/reencode', { on })),
    reset: async () => void (await ok('POST', '/sim/reset', {})),
    close: async () => {
      await host.close();
      delete process.env[tokenEnv];
    },
  };
}

export interface Stack {
  api: TestApi;
  worker: INestApplicationContext;
  sim: SimHost;
  tokens: Record<
    'admin' | 'weakener' | 'operator' | 'approver' | 'auditor' | 'both' | 'other',
    string
  >;
  /** PUT the computer-use config with agent `sap-orders` on the sim host (plus any overrides). */
  configure(
    agent?: Record<string, unknown>,
    extraAgents?: Record<string, Record<string, unknown>>,
  ): Promise<void>;
  /** The same PUT by `token`, answered as it is (for tests of who may make a change). */
  configureAs(token: string, agent?: Record<string, unknown>): Promise<HttpResult>;
  /** The operator's grant of `env` to `to`'s origin for tenant acme (or `tenant`). */
  grant(env: string, to: string, tenant?: string): Promise<void>;
  /** The operator's destination grant of `to` (an origin, `default-model`, `smtp`) for acme (or `tenant`). */
  grantDestination(to: string, tenant?: string): Promise<void>;
  /** The operator's allow of a planner id or family for acme (or `tenant`). */
  allowPlanner(planner: string, tenant?: string): Promise<void>;
  /** Stores a scripted planner and answers its id. */
  planner(script: unknown): Promise<string>;
  start(goal?: string, agent?: string, token?: string): Promise<any>;
  run(id: string, token?: string): Promise<any>;
  /** Polls the run until `there` holds (or the time is up, which fails the test). */
  waitFor(id: string, there: (run: any) => boolean, ms?: number): Promise<any>;
  approveAndResume(id: string): Promise<any>;
  close(): Promise<void>;
}

export interface StackOptions {
  sim?: Partial<StartScreenHostOptions>;
  /** Extra environment for the API's and worker's config (STEP_LEASE_MS, …). */
  env?: Record<string, string>;
  /** Start no in-process worker (the test runs worker processes itself). */
  noWorker?: boolean;
  /**
   * Leave the deployment's own destinations (its SMTP server, its default model) ungranted for
   * acme; by default the operator grants them, as it grants the sim's token.
   */
  deploymentUngranted?: boolean;
  /**
   * How a held write's screen is sampled for its volatile mask. `quick` (the default): 7 samples
   * 100 ms apart (0.6 s), more than a period of the sim's caret, which blinks only where a test
   * switches it on (every 250 ms); `deployed`: the deployment's defaults, which span two periods of a real toolkit's
   * caret (Qt 1 s, GTK 1.2 s), for the suites that hold writes on real applications or test the mask.
   */
  maskSampling?: 'quick' | 'deployed';
}

/** API, worker and a sim screen host, all real, configured for tenant `acme`. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const sim = await startSimHost(options.sim);
  const api = await startApi(undefined, {
    RECONCILE_INTERVAL_MS: '500',
    STEP_LEASE_MS: '3000',
    ...(options.maskSampling === 'deployed' ? {} : { MASK_SAMPLES: '7', MASK_INTERVAL_MS: '100' }),
    ...options.env,
  });
  const worker = options.noWorker ? undefined : await createWorker(api.config);
  await worker?.init();
  const token = async (subject: string, permissions: string[], tenant = 'acme') =>
    (await api.token(tenant, subject, permissions)).token;
  const tokens = {
    admin: await token('ada', ['computer_use.admin']),
    weakener: await token('wes', ['computer_use.admin', 'governance.weaken']),
    operator: await token('olga', ['agents.operate']),
    approver: await token('bob', ['agents.approve']),
    auditor: await token('aud', ['audit.read']),
    both: await token('olga', ['agents.operate', 'agents.approve']),
    other: await token(
      'gina',
      ['agents.operate', 'agents.approve', 'audit.read', 'computer_use.admin'],
      'globex',
    ),
  };
  // The deployment operator lets the sim's token go to the sim, for tenant acme (docs/screen-host.md), and
  // acme's mail and planning go to the deployment's SMTP server and default model, where it has them.
  await api.grant('acme', sim.tokenEnv, sim.url);
  if (!options.deploymentUngranted) await grantDeployment(api, 'acme');
  const expectOk = (what: string, r: { status: number; text: string }) => {
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  };
  const putConfig = (
    token: string,
    agent: Record<string, unknown>,
    extraAgents: Record<string, Record<string, unknown>> = {},
  ) =>
    api.request('PUT', '/api/admin/computer-use', {
      token,
      json: {
        enabled: true,
        agents: {
          'sap-orders': {
            screen_url: sim.url,
            screen_token_env: sim.tokenEnv,
            screen_tls: { fingerprint_sha256: sim.fingerprint },
            system: 'SAP GUI (sim)',
            max_steps: 40,
            max_seconds: 300,
            ...agent,
          },
          ...extraAgents,
        },
      },
    });
  const stack: Stack = {
    api,
    worker: worker as INestApplicationContext,
    sim,
    tokens,
    configure: async (agent = {}, extraAgents = {}) => {
      // Every weakening needs a reason (docs/security.md), so a config that gives one is the weakener's.
      const token =
        agent.reason !== undefined || agent.require_write_approval === false
          ? tokens.weakener
          : tokens.admin;
      expectOk('configure', await putConfig(token, agent, extraAgents));
    },
    configureAs: (token, agent = {}) => putConfig(token, agent),
    grant: (env, to, tenant = 'acme') => api.grant(tenant, env, to),
    grantDestination: (to, tenant = 'acme') => api.grantDestination(tenant, to),
    allowPlanner: (planner, tenant = 'acme') => api.allowPlanner(tenant, planner),
    planner: async (script) => {
      const { data, error, response } = await api
        .client(tokens.admin)
        .POST('/api/planners/scripted', {
          body: {
            name: `test-${randomBytes(3).toString('hex')}`,
            script: script as Record<string, unknown>,
          },
        });
      if (!data) throw new Error(`planner: ${response.status} ${error?.message}`);
      return data.planner.id;
    },
    start: async (goal = 'change order 4711', agent = 'sap-orders', who = tokens.operator) => {
      const { data, error, response } = await api.client(who).POST('/api/computer-use/runs', {
        body: { agent, goal },
      });
      if (!data) throw new Error(`start: ${response.status} ${error?.message}`);
      return data;
    },
    run: async (id, who = tokens.operator) => {
      const { data, error, response } = await api.client(who).GET('/api/computer-use/runs/{id}', {
        params: { path: { id } },
      });
      if (!data) throw new Error(`run: ${response.status} ${error?.message}`);
      return data;
    },
    waitFor: async (id, there, ms = 30_000) => {
      let last: any;
      return until(
        `run ${id} getting there`,
        async () => {
          last = await stack.run(id);
          return there(last) && last;
        },
        {
          ms,
          seen: async () => {
            const runs = await api.db.sql(
              `SELECT id, status, end_reason, lease_key, step_count FROM runs`,
            );
            return `${JSON.stringify(last, null, 1)}; all runs: ${JSON.stringify(runs)}`;
          },
        },
      );
    },
    approveAndResume: async (id) => {
      const held = await stack.waitFor(id, (r) => r.status === 'awaiting_approval' || isEnded(r));
      if (isEnded(held)) return held;
      const path = { params: { path: { id: held.pending_approval.id } } };
      const approved = await api.client(tokens.approver).POST('/api/approvals/{id}/approve', {
        ...path,
        body: { comment: 'looks right' },
      });
      if (!approved.data)
        throw new Error(`approve: ${approved.response.status} ${approved.error?.message}`);
      const resumed = await api.client(tokens.operator).POST('/api/computer-use/runs/{id}/resume', {
        params: { path: { id } },
      });
      if (!resumed.data)
        throw new Error(`resume: ${resumed.response.status} ${resumed.error?.message}`);
      return resumed.data;
    },
    close: async () => {
      await worker?.close();
      await api.close();
      await sim.close();
    },
  };
  return stack;
}

/** The operator's grants of the deployment's own destinations its config names, for `tenant`. */
export async function grantDeployment(api: TestApi, tenant: string): Promise<void> {
  if (api.config.SMTP_URL) await api.grantDestination(tenant, 'smtp');
  if (api.config.DEFAULT_MODEL_PROVIDER) await api.grantDestination(tenant, 'default-model');
}

export function isEnded(run: { status: string }): boolean {
  return ['completed', 'failed', 'stopped'].includes(run.status);
}
