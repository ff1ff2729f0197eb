/**
 * Warden's API and worker as processes (`src/main.ts`, `src/worker.ts`, or their compiled files),
 * as a deployment runs them: started in a process group, each one's output in a log of its own,
 * answered once every API answers `/health/ready` and every worker says it started. Used by every
 * stack of processes (the bench, the eval, the scale-out test, the demo).
 */
import {
  ENTRIES,
  freePort,
  type ProcessGroup,
  type Started,
  waitUntil,
} from '../../scripts/lib/processes';

export interface WardenProcesses {
  apis: Started[];
  /** Each API's origin, in start order. */
  apiUrls: string[];
  workers: Started[];
}

export interface WardenProcessOptions {
  /** The environment of every process (DATABASE_URL, REDIS_URL, QUEUE_PREFIX, secrets …). */
  env: NodeJS.ProcessEnv;
  /** API processes (default 1). */
  apis?: number;
  /** Worker processes (default 1). */
  workers?: number;
  /** The first API's port (default a free one). */
  port?: number;
}

/** Starts the API(s) and the worker(s) in `processes` and waits until all of them are ready. */
export async function startWardenProcesses(
  processes: ProcessGroup,
  options: WardenProcessOptions,
): Promise<WardenProcesses> {
  const apis: Started[] = [];
  const apiUrls: string[] = [];
  for (let i = 0; i < (options.apis ?? 1); i++) {
    const port = i === 0 && options.port !== undefined ? options.port : await freePort();
    const env = { ...options.env, PORT: String(port), HOST: '127.0.0.1' };
    apis.push(processes.start(ENTRIES.api, [], env, i === 0 ? 'api.log' : `api-${i}.log`));
    apiUrls.push(`http://127.0.0.1:${port}`);
  }
  const workers = Array.from({ length: options.workers ?? 1 }, (_, i) =>
    processes.start(ENTRIES.worker, [], options.env, `worker-${i}.log`),
  );
  for (const [i, api] of apis.entries()) {
    await waitUntil(api, 'answer on /health/ready', async () => {
      return (await fetch(`${apiUrls[i]}/health/ready`)).ok;
    });
  }
  for (const worker of workers) {
    await waitUntil(worker, 'start', async () => worker.output().includes('Warden worker started'));
  }
  return { apis, apiUrls, workers };
}
