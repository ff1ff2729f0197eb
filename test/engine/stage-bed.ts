import { randomUUID } from 'node:crypto';
import type { Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Approval } from '../../src/computer-use/approvals/approval.entity';
import { ApprovalsRepository } from '../../src/computer-use/approvals/approvals.repository';
import type { AppConfig } from '../../src/config/app-config';
import { CoreModule } from '../../src/core.module';
import { EngineModule } from '../../src/computer-use/engine/engine.module';
import { AgentChannelsModule } from '../../src/computer-use/settings/agent-channels.module';
import { loadRules } from '../../src/computer-use/actions';
import { ruleSettings } from '../../src/computer-use/engine/lease-decisions';
import type { StepContext } from '../../src/computer-use/engine/step-context';
import { startTiming } from '../../src/computer-use/engine/step-timing';
import { Reconciler } from '../../src/computer-use/engine/reconciler.service';
import { StepProcessor } from '../../src/computer-use/engine/step.processor';
import { ScreenHostClient } from '../../src/computer-use/host-client/screen-host.client';
import type { Run } from '../../src/computer-use/runs/run.entity';
import { RunsRepository } from '../../src/computer-use/runs/runs.repository';
import type { StepPhase } from '../../src/computer-use/runs/step-phase';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { StepsRepository } from '../../src/computer-use/runs/steps.repository';
import { AGENT_DEFAULTS, type AgentConfig } from '../../src/computer-use/settings/agent-config';
import { SettingsService } from '../../src/computer-use/settings/settings.service';
import { StepQueue } from '../../src/queue/step-queue';
import { SecretGrants } from '../../src/secrets/secret-grants.service';
import type { Caller } from '../../src/auth/caller';
import type { Permission } from '../../src/auth/permission';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { FakeScreenHost } from '../support/fake-screen-host';

export const TENANT = 'acme';
export const AGENT = 'sap-orders';
const TOKEN_ENV = 'WARDEN_STAGE_BED_HOST_TOKEN';

/**
 * The engine's module over a throwaway database (a copy of the migrated template) and this file's
 * own BullMQ prefix on the real Redis, for the specs of one stage each: every stage is the real
 * one, the screen host is a FakeScreenHost (the engine's one boundary faked), and nothing takes
 * jobs off the queue unless asked (the processor and the reconciler's timer are left out), so a
 * spec calls the stage itself and sees what it queued.
 */
export interface StageBed {
  db: TestDatabase;
  config: AppConfig;
  module: TestingModule;
  /** The screen host every step of every run talks to. */
  host: FakeScreenHost;
  get<T>(type: Type<T>): T;
  /** The agent's config, as the run keeps its copy and as the tenant's config has it in force. */
  agent: AgentConfig;
  /** A tenant admin, for the settings' own calls (kill switch, pause). */
  admin: Caller;
  /**
   * Enables computer use with the agent (with `patch` on its config, which runs started after it
   * keep as their copy), and grants the host's token for its origin.
   */
  configure(patch?: Partial<AgentConfig>): Promise<void>;
  /** A run in `status` (running unless said), with its steps written as given. */
  run(options?: {
    status?: string;
    steps?: Array<{ phase: StepPhase; classification?: string; leaseMs?: number; owner?: string }>;
  }): Promise<{ run: Run; steps: Step[] }>;
  /** A pending (or given) approval of a held step, expiring at `expiresAt`. */
  approval(
    run: Run,
    step: Step,
    options?: { status?: string; expiresAt?: Date },
  ): Promise<Approval>;
  /** What a job on `run` works with: the fake host, the agent's rules, an open signal. */
  context(run: Run): StepContext;
  /** The run's row as the specs look at it. */
  runState(
    runId: string,
  ): Promise<{ status: string; end_reason: string | null; step_count: number }>;
  /** The ids of the jobs waiting in the step queue for the run. */
  jobsOf(runId: string): Promise<Array<string | undefined>>;
  /** The run's audit events of `type` (all, without). */
  events(
    runId: string,
    type?: string,
  ): Promise<Array<{ type: string; step: number | null; details: Record<string, unknown> }>>;
  close(): Promise<void>;
}

/**
 * `processor: true` keeps the real step processor, which then takes this bed's jobs off the queue
 * (for the processor's own spec); `env` is added to the test config.
 */
export async function startStageBed(
  options: { processor?: boolean; env?: Record<string, string> } = {},
): Promise<StageBed> {
  const db = await createTestDatabase();
  const config = testConfig(db.url, options.env);
  const host = new FakeScreenHost();
  let builder = Test.createTestingModule({
    // As the worker binds it (worker.module.ts).
    imports: [CoreModule.forRoot(config), AgentChannelsModule, EngineModule],
  })
    .overrideProvider(ScreenHostClient)
    .useValue({ forTarget: () => host, close: () => undefined, caDir: undefined })
    .overrideProvider(Reconciler)
    .useValue({});
  if (!options.processor) builder = builder.overrideProvider(StepProcessor).useValue({});
  const module = await builder.compile();
  await module.init();
  process.env[TOKEN_ENV] = 'stage-bed-token';
  const agent: AgentConfig = {
    ...(AGENT_DEFAULTS as AgentConfig),
    screen_url: host.url,
    screen_token_env: TOKEN_ENV,
    system: 'SAP GUI (fake)',
    max_steps: 40,
    max_seconds: 300,
  };
  await db.sql(`INSERT INTO tenants (id) VALUES ($1)`, [TENANT]);
  const get = <T>(type: Type<T>) => module.get(type, { strict: false });
  const admin: Caller = {
    tokenId: randomUUID(),
    tenant: TENANT,
    subject: 'admin',
    permissions: new Set<Permission>(['computer_use.admin']),
    issuer: null,
    groups: new Set(),
  };

  return {
    db,
    config,
    module,
    host,
    get,
    agent,
    admin,
    configure: async (patch = {}) => {
      await get(SettingsService).replace(admin, {
        enabled: true,
        agents: {
          [AGENT]: {
            screen_url: agent.screen_url,
            screen_token_env: agent.screen_token_env,
            system: agent.system,
            max_steps: agent.max_steps,
            max_seconds: agent.max_seconds,
            ...patch,
          },
        },
      });
      Object.assign(agent, patch);
      await get(SecretGrants).grant(TENANT, TOKEN_ENV, host.url, 'admin');
    },
    run: async ({ status = 'running', steps = [] } = {}) => {
      const [row] = await db.sql<{ id: string }>(
        `INSERT INTO runs (tenant, agent, goal, status, created_by, created_by_token, config_version,
                           agent_config, lease_key, max_steps, max_seconds, step_count, started_at,
                           active_since)
         VALUES ($1, $2, 'a stage spec', $3, 'operator', $4, 1, $5, $6, 40, 300, $7, now(),
                 CASE WHEN $3 = 'running' THEN now() END)
         RETURNING id`,
        [TENANT, AGENT, status, randomUUID(), JSON.stringify(agent), randomUUID(), steps.length],
      );
      for (const [i, step] of steps.entries()) {
        await db.sql(
          `INSERT INTO steps (run_id, tenant, n, phase, classification, action, why, started_at,
                              ended_at, outcome, lease_owner, lease_until)
           VALUES ($1, $2, $3, $4, $5, $6, 'the spec says so', now(),
                   CASE WHEN $4 = 'done' THEN now() END, CASE WHEN $4 = 'done' THEN 'sent' WHEN $4 IN ('held', 'approved') THEN 'held' END,
                   $7, CASE WHEN $8::int IS NULL THEN NULL
                            ELSE clock_timestamp() + ($8::int || ' milliseconds')::interval END)`,
          [
            row.id,
            TENANT,
            i + 1,
            step.phase,
            step.classification ?? 'write',
            JSON.stringify({ action: 'key', key: 'Enter' }),
            step.owner ?? null,
            step.leaseMs ?? null,
          ],
        );
      }
      const run = (await get(RunsRepository).findById(row.id))!;
      const found = await get(StepsRepository).ofRun(row.id);
      return { run, steps: found };
    },
    approval: async (run, step, { status = 'pending', expiresAt } = {}) => {
      const [row] = await db.sql<{ id: string }>(
        `INSERT INTO approvals (tenant, kind, status, agent, run_id, step, step_id, action, why,
                                screen_sha256, screen_pixel_sha256, requested_by,
                                requested_by_token, expires_at, decided_by, decided_at)
         VALUES ($1, 'computer_use.write', $2, $3, $4, $5, $6, $7, 'a commit key', repeat('a', 64),
                 repeat('b', 64), 'operator', $8, $9,
                 CASE WHEN $2 <> 'pending' THEN 'approver' END,
                 CASE WHEN $2 <> 'pending' THEN now() END)
         RETURNING id`,
        [
          TENANT,
          status,
          AGENT,
          run.id,
          step.n,
          step.id,
          JSON.stringify(step.action),
          randomUUID(),
          expiresAt ?? new Date(Date.now() + 3_600_000),
        ],
      );
      if (status === 'pending' || status === 'approved') {
        await db.sql(`UPDATE runs SET pending_approval = $2 WHERE id = $1`, [run.id, row.id]);
      }
      return (await get(ApprovalsRepository).findById(row.id))!;
    },
    context: (run) => ({
      run,
      agent,
      host,
      secret: { envName: TOKEN_ENV, origin: host.url },
      rules: loadRules(ruleSettings(agent), 'stored'),
      timing: startTiming('step'),
      signal: new AbortController().signal,
    }),
    runState: async (runId) =>
      (
        await db.sql<{ status: string; end_reason: string | null; step_count: number }>(
          `SELECT status, end_reason, step_count FROM runs WHERE id = $1`,
          [runId],
        )
      )[0],
    jobsOf: async (runId) =>
      (await get(StepQueue).queue.getJobs(['waiting', 'delayed', 'prioritized']))
        .filter((job) => (job.data as { runId?: string }).runId === runId)
        .map((job) => job.id),
    events: (runId, type) =>
      db.sql(
        `SELECT type, step, details FROM audit_events
          WHERE run_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY seq`,
        [runId, type ?? null],
      ),
    close: async () => {
      await module.close();
      await db.drop();
    },
  };
}
