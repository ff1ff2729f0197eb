import { Agent, request } from 'node:http';
import { PERMISSIONS } from '../../src/auth/permission';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { startApi, TestApi } from '../support/api';
import {
  RandomRequest,
  randomRequest,
  RequestPool,
  rngOf,
  Route,
  toText,
  variantsOf,
} from '../support/random-bodies';
import { recordedMessages } from '../support/mcp-client';

/**
 * Every route of the OpenAPI document (so a new route is covered without touching this file) gets
 * seeded random requests from a token holding every permission: almost-right bodies, noise, deep
 * nesting, odd keys, bytes that are not JSON, odd content types, path parameters and queries.
 * None may answer 5xx, and every error must be `{statusCode, error, message}` with a message.
 *
 *   WARDEN_FUZZ_SEED=123 WARDEN_FUZZ_CASES=3000 npx jest --selectProjects e2e -- test/api/random-bodies.e2e-spec.ts
 *
 * Without WARDEN_FUZZ_SEED each run draws a new seed; the test's name shows it.
 */
const SEED = Number(process.env.WARDEN_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CASES = Number(process.env.WARDEN_FUZZ_CASES ?? 2000);
const SHOWN_FAILURES = Number(process.env.WARDEN_FUZZ_SHOWN ?? 10);

const MINIMAL_CONFIG = {
  enabled: true,
  agents: {
    'sap-orders': {
      screen_url: 'https://sapgui-host.invalid:8443',
      screen_token_env: 'WARDEN_FUZZ_UNSET_TOKEN',
      system: 'SAP GUI',
      max_steps: 20,
      max_seconds: 300,
    },
  },
};

/** Every agent field, a weakening among them: what PUT accepts at its widest. */
const FULL_CONFIG = {
  enabled: true,
  agents: {
    'sap-orders': {
      ...MINIMAL_CONFIG.agents['sap-orders'],
      screen_tls: { fingerprint_sha256: 'ab'.repeat(32) },
      require_write_approval: false,
      reason: 'fuzzing the config',
      four_eyes: true,
      approval_timeout_seconds: 3600,
      stall_after: 3,
      planner: {
        provider: 'openai-compatible',
        model: 'm',
        api_key_env: 'WARDEN_FUZZ_UNSET_KEY',
        base_url: 'https://models.invalid/v1',
        max_tokens_per_run: 1000,
        max_tokens_per_day: 10000,
        max_cost_usd_per_run: 1,
        price_per_mtok_in: 1,
        price_per_mtok_out: 2,
        history_screens: 3,
        timeout_seconds: 60,
      },
      commit_words: ['Post'],
      unlabelled_clicks: 'write',
      ignore_regions: [{ x: 0, y: 0, width: 10, height: 10 }],
    },
  },
};

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

describe('random requests on every route', () => {
  let api: TestApi;
  let token: string;
  let doc: Record<string, any>;
  let routes: Route[];
  let pool: RequestPool;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    api = await startApi();
    token = (await api.token('acme', 'fuzz', [...PERMISSIONS])).token;
    doc = (await api.request('GET', '/api/docs-json')).body;
    routes = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, operations]) =>
      Object.entries<Record<string, any>>(operations).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        bodySchema: operation.requestBody?.content?.['application/json']?.schema,
        query: (operation.parameters ?? [])
          .filter((p: { in: string }) => p.in === 'query')
          .map((p: { name: string }) => p.name),
      })),
    );
    const planner = await api.request('POST', '/api/planners/scripted', {
      token,
      json: { name: 'fuzz', script: VA02_EXAMPLE_SCRIPT },
    });
    expect(planner.status).toBe(201);
    expect(
      (await api.request('PUT', '/api/admin/computer-use', { token, json: MINIMAL_CONFIG })).status,
    ).toBe(200);
    // The examples are accepted as they are, so a variant's refusal is about its one change.
    expect(
      (await api.request('PUT', '/api/admin/computer-use', { token, json: FULL_CONFIG })).status,
    ).toBe(200);
    pool = {
      knownIds: [planner.body.planner.id],
      examples: {
        'PUT /api/admin/computer-use': [MINIMAL_CONFIG, FULL_CONFIG],
        'POST /api/planners/scripted': [{ name: 'x', script: VA02_EXAMPLE_SCRIPT }],
        'PUT /api/planners/{id}': [{ name: 'fuzz', script: VA02_EXAMPLE_SCRIPT }],
        'POST /api/computer-use/runs': [{ agent: 'sap-orders', goal: 'Change order 4711' }],
      },
    };
  });

  afterAll(async () => {
    agent.destroy();
    await api.close();
  });

  it(
    `answers ${CASES} random requests without a 5xx, every error in the one shape (seed ${SEED})`,
    async () => {
      // Every route family is in the list, so a broken document cannot make this test pass empty.
      for (const path of [
        '/api/admin/computer-use',
        '/api/planners/scripted',
        '/api/computer-use/runs',
        '/api/approvals/{id}/approve',
        '/api/audit',
      ]) {
        expect(routes.map((r) => r.path)).toContain(path);
      }
      const rng = rngOf(SEED);
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      for (let i = 0; i < CASES; i++) {
        const route = routes[i % routes.length];
        const sent = randomRequest(rng, route, doc, pool, token);
        const answer = await send(api.url, sent, agent);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problem = problemOf(answer);
        if (problem)
          failures.push(
            `#${i} ${describeRequest(sent)}\n    → ${answer.status} ${problem}: ${answer.text.slice(0, 300)}`,
          );
      }
      expect((await api.request('GET', '/health/ready')).status).toBe(200);
      if (failures.length > 0) {
        const rerun = `WARDEN_FUZZ_SEED=${SEED} WARDEN_FUZZ_CASES=${CASES}`;
        throw new Error(
          `${failures.length} of ${CASES} random requests failed (seed ${SEED}; again with ${rerun}):\n` +
            failures.slice(0, SHOWN_FAILURES).join('\n') +
            `\nstatuses: ${JSON.stringify(Object.fromEntries(statuses))}`,
        );
      }
      // Most requests are refused, but not all: the bodies are not all noise.
      expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    },
    60_000 + CASES * 200,
  );

  it('answers every body one change away from an example without a 5xx', async () => {
    const failures: string[] = [];
    let sentCount = 0;
    for (const [route, examples] of Object.entries(pool.examples)) {
      const [method, template] = route.split(' ');
      const path = template.replace('{id}', pool.knownIds[0]);
      for (const example of examples) {
        for (const variant of variantsOf(example)) {
          const sent: RandomRequest = {
            method,
            path,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: Buffer.from(toText(variant.body)),
            kind: variant.kind,
          };
          const answer = await send(api.url, sent, agent);
          sentCount++;
          const problem = problemOf(answer);
          if (problem) {
            failures.push(
              `${describeRequest(sent)}\n    → ${answer.status} ${problem}: ${answer.text.slice(0, 300)}`,
            );
          }
        }
      }
    }
    expect(sentCount).toBeGreaterThan(1000);
    expect(failures.slice(0, SHOWN_FAILURES)).toEqual([]);
    // Over a thousand requests one after another: a deadline for a loaded machine, not a speed.
  }, 300_000);

  it('answers every MCP message one change away from what the SDK client sends without a 5xx', async () => {
    const frame = 'ab'.repeat(32);
    const run = '00000000-0000-4000-8000-000000000000';
    const examples = await recordedMessages(api.url, token, [
      { name: 'list_agents', arguments: {} },
      { name: 'get_run', arguments: { run_id: run } },
      { name: 'start_run', arguments: { agent: 'sap-orders', goal: 'look', params: { a: 'b' } } },
      { name: 'click', arguments: { run_id: run, frame_id: frame, x: 10, y: 20, target: 'Save' } },
      { name: 'scroll', arguments: { run_id: run, frame_id: frame, x: 1, y: 2, direction: 'up' } },
    ]);
    // The connect's discovery, the tool list and the five calls.
    expect(examples.length).toBeGreaterThanOrEqual(6);
    await api.request('POST', '/api/computer-use/runs', {
      token,
      json: { agent: 'sap-orders', goal: 'x' },
    });
    const failures: string[] = [];
    let sentCount = 0;
    for (const example of examples) {
      for (const variant of variantsOf(JSON.parse(example.body))) {
        const answer = await send(
          api.url,
          {
            method: 'POST',
            path: '/mcp',
            headers: { ...example.headers, authorization: `Bearer ${token}` },
            body: Buffer.from(toText(variant.body)),
            kind: variant.kind,
          },
          agent,
        );
        sentCount++;
        const problem = mcpProblemOf(answer);
        if (problem) {
          failures.push(
            `${variant.kind} ${toText(variant.body).slice(0, 300)}\n    → ${answer.status} ${problem}: ${answer.text.slice(0, 300)}`,
          );
        }
      }
    }
    expect(sentCount).toBeGreaterThan(300);
    expect(failures.slice(0, SHOWN_FAILURES)).toEqual([]);
  }, 300_000);
});

/**
 * What is wrong with an answer of `/mcp`, or null: never a 5xx, and a refusal is a JSON-RPC error
 * with a message (or, for a request the transport refuses before JSON-RPC, an HTTP error in JSON).
 */
function mcpProblemOf(answer: Answer): string | null {
  if (answer.status >= 500) return 'a server error';
  if (answer.text === '') return answer.status < 300 ? null : 'an error without a body';
  if (answer.contentType.includes('text/event-stream')) return null;
  let body: Record<string, any>;
  try {
    body = JSON.parse(answer.text) as Record<string, any>;
  } catch {
    return 'an answer that is not JSON';
  }
  if (answer.status < 300 && body.jsonrpc !== '2.0') return 'not JSON-RPC';
  if (body.result?.isError === true && body.result.structuredContent?.error === 'internal') {
    return 'a tool that failed';
  }
  if (body.error !== undefined && typeof body.error === 'object') {
    if (typeof body.error.message !== 'string' || body.error.message.trim() === '') {
      return 'a JSON-RPC error without a message';
    }
    // -32603: the server failed on it, where bad input deserves a clear refusal.
    if (body.error.code === -32603) return 'an internal error';
  } else if (answer.status >= 400 && typeof body.message !== 'string') {
    return 'an error without a message';
  }
  return null;
}

/** What is wrong with an answer, or null. */
function problemOf(answer: Answer): string | null {
  if (answer.status >= 500) return 'a server error';
  if (answer.status < 400) return null;
  if (!answer.contentType.includes('application/json')) return `an error as ${answer.contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'an error that is not JSON';
  }
  const { statusCode, error, message, ...rest } = (body ?? {}) as Record<string, unknown>;
  if (statusCode !== answer.status) return `statusCode ${String(statusCode)}`;
  if (typeof error !== 'string' || error === '') return 'no error name';
  if (typeof message !== 'string' || message.trim() === '') return 'no message';
  if (Object.keys(rest).length > 0) return `more fields: ${Object.keys(rest).join(', ')}`;
  return null;
}

function describeRequest(sent: RandomRequest): string {
  const type = sent.headers['content-type'] ?? 'no content type';
  const auth = sent.headers.authorization ? '' : ' without a token';
  const body =
    sent.body === undefined ? '' : ` ${JSON.stringify(sent.body.toString('utf8').slice(0, 300))}`;
  return `${sent.method} ${sent.path.slice(0, 200)} (${type}${auth}; ${sent.kind})${body}`;
}

function send(base: string, sent: RandomRequest, agent: Agent): Promise<Answer> {
  const url = new URL(base);
  const headers = { ...sent.headers };
  if (sent.body !== undefined) headers['content-length'] = String(sent.body.length);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: sent.method, path: sent.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}
