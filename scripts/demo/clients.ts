import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { Redis } from 'ioredis';
import { createWardenClient, type Run, type WardenClient } from '@warden/client';

/** The API's error body: `{statusCode, error, message}`. */
export type { ApiError } from '@warden/client';

/** The demo's people: each a typed client of the API (@warden/client) with their own token. */
export type Clients = (token: string) => WardenClient;

export function apiClients(base: string): Clients {
  return (token) => createWardenClient({ baseUrl: base, token });
}

/** What the typed client answers: `data` on a 2xx, else `error`, and the response itself. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of an answer that must have this status, or an error that quotes the API's message. */
export function ensure<T>(what: string, answer: Answer<T>, status: number): T {
  if (answer.response.status !== status || answer.data === undefined) {
    const message = (answer.error as { message?: string } | undefined)?.message;
    throw new Error(
      `${what}: expected ${status}, got ${answer.response.status}: ${message ?? JSON.stringify(answer.error)}`,
    );
  }
  return answer.data;
}

/** An event of the sim's `GET /sim/events` (docs/screen-host.md, test routes). */
export interface SimEvent {
  seq: number;
  type: string;
  code?: string;
  order?: string;
  document?: string;
  fields?: Record<string, string>;
  changed?: string[];
}

/** The sim's test route, called as Warden calls the host: HTTPS trusting only its own certificate. */
export async function simEvents(url: string, certPath: string, token: string): Promise<SimEvent[]> {
  return (
    JSON.parse(await simCall(url, certPath, token, 'GET', '/sim/events')) as {
      events: SimEvent[];
    }
  ).events;
}

/** A call to one of the sim's test routes (docs/screen-host.md): its body, or an error. */
export function simCall(
  url: string,
  certPath: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, url),
      { method, ca: readFileSync(certPath), headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${method} ${path}: ${res.statusCode}`));
          else resolve(Buffer.concat(chunks).toString());
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The run once it waits for another approval than `after`, or has ended (60 s at most). */
export async function nextStop(client: WardenClient, runId: string, after?: string): Promise<Run> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const run = ensure(
      'GET the run',
      await client.GET('/api/computer-use/runs/{id}', { params: { path: { id: runId } } }),
      200,
    );
    if (isEnded(run)) return run;
    if (run.status === 'awaiting_approval' && run.pending_approval?.id !== after) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the run did not move for 60 s');
}

export function isEnded(run: { status: string }): boolean {
  return ['completed', 'failed', 'stopped'].includes(run.status);
}

/**
 * Deletes the BullMQ keys under `prefix:`, so that jobs of an earlier demo's runs (whose database
 * was dropped) cannot come back. Only the demo's own prefix: another stack's keys are untouched.
 */
export async function clearQueues(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis does not answer at ${redisUrl} (${error.message})`);
    });
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
