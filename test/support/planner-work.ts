/**
 * A stack for remote planner tests (docs/planners.md "Remote planners"): families registered as the
 * operator's CLI does, allowed to acme, workers' tokens, and the worker API as the test's own
 * worker calls it. The heartbeat window is 2 s.
 */
import { RemoteFamilies } from '../../src/computer-use/remote/remote-families.service';
import type { HttpResult } from './api';
import { startStack, type Stack } from './stack';
import { until } from './until';

export const FAMILY = 'acme-vision';
export const PLANNER = `${FAMILY}-1-normal`;
/** Deadline 2 s, with pixels. */
export const SLOW = 'acme-slow';
export const SLOW_PLANNER = `${SLOW}-1-normal`;

export interface RemoteStack {
  stack: Stack;
  /** planners.serve for acme-vision and acme-slow in acme. */
  worker: string;
  /** planners.serve for acme-vision in globex. */
  globexWorker: string;
  get(token: string, families: string, name: string): Promise<HttpResult>;
  claim(id: string, name: string, token?: string): Promise<HttpResult>;
  answer(id: string, body: Record<string, unknown>, token?: string): Promise<HttpResult>;
  /** A worker that has asked once (its heartbeat) and keeps asking until stopped. */
  heartbeat(name: string, families?: string, token?: string): Promise<() => void>;
  /** Waits for the run's step to be listed as waiting work. */
  waitingWork(runId: string, name?: string, families?: string): Promise<any>;
  /** Stops every heartbeat still going. */
  stopBeats(): void;
}

export async function startRemoteStack(): Promise<RemoteStack> {
  const stack = await startStack({ env: { PLANNER_HEARTBEAT_SECONDS: '2' } });
  const families = stack.api.app.get(RemoteFamilies);
  await families.add({ family: FAMILY, deadline: '60', pixels: 'no' }, 'os:test');
  await families.add({ family: SLOW, deadline: '2', pixels: 'yes' }, 'os:test');
  const worker = (await stack.api.token('acme', 'planner-box', ['planners.serve'], [FAMILY, SLOW]))
    .token;
  const globexWorker = (
    await stack.api.token('globex', 'planner-box', ['planners.serve'], [FAMILY])
  ).token;
  // Not public: the operator allows the families to acme (the catalog's rule).
  await stack.allowPlanner(FAMILY);
  await stack.allowPlanner(SLOW);
  const beats = new Set<NodeJS.Timeout>();
  const get: RemoteStack['get'] = (token, list, name) =>
    stack.api.request('GET', `/api/planner-work?families=${list}&worker=${name}`, { token });
  const remote: RemoteStack = {
    stack,
    worker,
    globexWorker,
    get,
    claim: (id, name, token = worker) =>
      stack.api.request('POST', `/api/planner-work/${id}/claim`, { token, json: { worker: name } }),
    answer: (id, body, token = worker) =>
      stack.api.request('POST', `/api/planner-work/${id}/answer`, { token, json: body }),
    heartbeat: async (name, list = FAMILY, token = worker) => {
      expect((await get(token, list, name)).status).toBe(200);
      const timer = setInterval(() => void get(token, list, name).catch(() => undefined), 200);
      beats.add(timer);
      return () => {
        clearInterval(timer);
        beats.delete(timer);
      };
    },
    waitingWork: (runId, name = 'w1', list = FAMILY) =>
      until(
        `waiting work for run ${runId}`,
        async () => {
          const listed = await get(worker, list, name);
          expect(listed.status).toBe(200);
          return listed.body.items.find((i: { run_id: string }) => i.run_id === runId);
        },
        30_000,
        100,
      ),
    stopBeats: () => {
      for (const timer of beats) clearInterval(timer);
      beats.clear();
    },
  };
  return remote;
}
