/**
 * The bench's calls of the API, each through the typed client (@warden/client) as the person whose
 * token it is: ada stores planners and configures the agents, olga starts and resumes runs, bob
 * approves. An answer that is not the one expected stops the bench, quoting the API.
 */
import type { ProcessStack, StackHost } from '../../test/support/process-stack';
import { dataOf } from '../../test/support/typed-answer';

/** The agent of host `i` (0-based): `bench-01` … */
export const agentName = (i: number) => `bench-${String(i + 1).padStart(2, '0')}`;

/** Stores a scripted planner as ada; answers its id. */
export async function createPlanner(
  stack: ProcessStack,
  name: string,
  script: Record<string, unknown>,
): Promise<string> {
  const created = dataOf(
    `create planner ${name}`,
    await stack.client(stack.tokens.admin).POST('/api/planners/scripted', {
      body: { name, script },
    }),
  );
  return created.planner.id;
}

/** One agent per host (`bench-01` … in host order), each on its host with `planner`. */
export async function configure(
  stack: ProcessStack,
  planner: string,
  hosts: readonly StackHost[] = stack.hosts,
): Promise<void> {
  const agents = Object.fromEntries(
    hosts.map((h) => [
      agentName(stack.hosts.indexOf(h)),
      {
        screen_url: h.url,
        screen_token_env: stack.tokenEnv,
        screen_tls: { fingerprint_sha256: h.fingerprint },
        system: 'SAP GUI (sim)',
        max_steps: 20,
        max_seconds: 300,
        planner,
      },
    ]),
  );
  dataOf(
    'configure the agents',
    await stack.client(stack.tokens.admin).PUT('/api/admin/computer-use', {
      body: { enabled: true, agents },
    }),
  );
}

/** Each run gets a fresh sim whose PNGs name it, so no two runs share a screenshot file. */
export function prepareHosts(hosts: readonly StackHost[], scenario: string): void {
  const at = new Date().toISOString();
  hosts.forEach((h, i) => h.sim.prepare(`warden bench ${scenario} ${at} host ${i + 1}`));
}

/** olga starts one run on each of `hosts`' agents, all at once; answers their ids in host order. */
export async function startRuns(
  stack: ProcessStack,
  hosts: readonly StackHost[],
  goal: string,
): Promise<string[]> {
  const operator = stack.client(stack.tokens.operator);
  return Promise.all(
    hosts.map(async (h) => {
      const agent = agentName(stack.hosts.indexOf(h));
      const run = dataOf(
        `start a run on ${agent}`,
        await operator.POST('/api/computer-use/runs', { body: { agent, goal } }),
      );
      return run.id;
    }),
  );
}

/** bob approves the held write of each run in `waiting`, ten at a time. */
export async function approveAll(stack: ProcessStack, waiting: Set<string>): Promise<void> {
  const approver = stack.client(stack.tokens.approver);
  const inbox = dataOf(
    'list approvals',
    await approver.GET('/api/approvals', { params: { query: { limit: 200 } } }),
  );
  const approvals = inbox.items.filter((a) => a.run_id !== null && waiting.has(a.run_id));
  if (approvals.length !== waiting.size) {
    throw new Error(`${waiting.size} runs wait, the approver sees ${approvals.length} writes`);
  }
  for (let i = 0; i < approvals.length; i += 10) {
    await Promise.all(
      approvals.slice(i, i + 10).map(async (a) =>
        dataOf(
          'approve',
          await approver.POST('/api/approvals/{id}/approve', {
            params: { path: { id: a.id } },
            body: { comment: 'bench' },
          }),
        ),
      ),
    );
  }
}

/** olga resumes run `id`. */
export async function resume(stack: ProcessStack, id: string): Promise<void> {
  dataOf(
    `resume run ${id}`,
    await stack.client(stack.tokens.operator).POST('/api/computer-use/runs/{id}/resume', {
      params: { path: { id } },
    }),
  );
}
