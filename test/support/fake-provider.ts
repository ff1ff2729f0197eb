import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { TokenCounter } from './fake-tokens';
import { countConnections, type CountsConnections } from './recording-listener';

/**
 * A local model provider over real HTTP on 127.0.0.1, speaking enough of Anthropic's Messages API,
 * OpenAI's Responses API and chat completions for the official SDKs: every request is recorded,
 * every answer is scripted by the test.
 */

export type Wire = 'anthropic' | 'openai' | 'chat';

export interface FakeRequest {
  wire: Wire;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The raw body as received. */
  raw: string;
  body: any;
  at: number;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  /**
   * Usage counted from the request (test/support/fake-tokens.ts), with caching as the real API
   * reports it, in place of any usage in `json`; the number is the answer's output tokens.
   */
  countedOutput?: number;
}

export type Responder = (request: FakeRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeProvider extends CountsConnections {
  /** The server's root, e.g. `http://127.0.0.1:41234`: Anthropic's base URL; OpenAI's is `${url}/v1`. */
  url: string;
  requests: FakeRequest[];
  /** Counts tokens and remembers cached prefixes; forgotten by `script` and `reset`. */
  tokens: TokenCounter;
  /** Answers with these, in order; after the last, with the fallback (or a 500 naming the overrun). */
  script(replies: Array<FakeReply | Responder>, fallback?: FakeReply | Responder): void;
  reset(): void;
  close(): Promise<void>;
}

function wireOf(path: string): Wire | null {
  const p = path.split('?')[0];
  if (p.endsWith('/v1/messages')) return 'anthropic';
  if (p.endsWith('/v1/responses')) return 'openai';
  if (p.endsWith('/v1/chat/completions')) return 'chat';
  return null;
}

function parseBody(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: FakeRequest[] = [];
  let replies: Array<FakeReply | Responder> = [];
  let fallback: FakeReply | Responder | undefined;
  let answered = 0;
  const tokens = new TokenCounter();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const wire = wireOf(path);
    if (!wire || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { type: 'not_found', message: `no ${req.method} ${path}` } }),
      );
      return;
    }
    const body = parseBody(raw);
    const request: FakeRequest = {
      wire,
      method: req.method,
      path,
      headers: req.headers,
      raw,
      body,
      at: Date.now(),
    };
    requests.push(request);
    const index = answered++;
    const next = index < replies.length ? replies[index] : fallback;
    let reply: FakeReply;
    try {
      reply =
        next === undefined
          ? {
              status: 500,
              json: {
                error: {
                  type: 'test_overrun',
                  message: `no reply scripted for request ${index + 1}`,
                },
              },
            }
          : typeof next === 'function'
            ? await next(request, index)
            : next;
    } catch (error) {
      reply = { status: 500, json: { error: { type: 'test_responder', message: String(error) } } };
    }
    if (reply.countedOutput !== undefined) reply = withCountedUsage(reply, request, tokens);
    res.writeHead(reply.status ?? 200, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
      ...reply.headers,
    });
    res.end(JSON.stringify(reply.json ?? {}));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  const connections = countConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tokens,
    connections,
    script: (r, f) => {
      replies = r;
      fallback = f;
      answered = 0;
      requests.length = 0;
      tokens.forget();
    },
    reset: () => {
      tokens.forget();
      replies = [];
      fallback = undefined;
      answered = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The reply with usage counted from the request, as each wire format reports it. */
function withCountedUsage(reply: FakeReply, request: FakeRequest, tokens: TokenCounter): FakeReply {
  const output = reply.countedOutput!;
  const json = { ...(reply.json as Record<string, unknown>) };
  if (request.wire === 'anthropic') {
    const counted = tokens.anthropic(request.body);
    if (typeof counted === 'string') {
      return {
        status: 400,
        json: { type: 'error', error: { type: 'invalid_request_error', message: counted } },
      };
    }
    json.usage = { ...counted, output_tokens: output };
  } else if (request.wire === 'openai') {
    const counted = tokens.openai(request.body, 'openai');
    json.usage = {
      input_tokens: counted.input_tokens,
      input_tokens_details: { cached_tokens: counted.cached_tokens },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: counted.input_tokens + output,
    };
  } else {
    const counted = tokens.openai(request.body, 'chat');
    json.usage = {
      prompt_tokens: counted.input_tokens,
      prompt_tokens_details: { cached_tokens: counted.cached_tokens },
      completion_tokens: output,
      total_tokens: counted.input_tokens + output,
    };
  }
  return { ...reply, json };
}

// ------------------------------------------------------------------ answers in each wire format

export interface FakeUsage {
  input: number;
  output: number;
}

/** Counts the answer's usage from its request (see fake-tokens.ts); `output` tokens as given. */
export interface CountedUsage {
  counted: true;
  output: number;
}

export function counted(output = 100): CountedUsage {
  return { counted: true, output };
}

function isCounted(usage: unknown): usage is CountedUsage {
  return typeof usage === 'object' && usage !== null && (usage as CountedUsage).counted === true;
}

const DEFAULT_USAGE: FakeUsage = { input: 1000, output: 100 };

let ids = 0;
const id = (prefix: string) => `${prefix}_${++ids}_${randomBytes(4).toString('hex')}`;

/** An Anthropic message; `usage: null` leaves usage out altogether. */
export function anthropicMessage(
  content: unknown[],
  given: FakeUsage | CountedUsage | null = DEFAULT_USAGE,
): FakeReply {
  const usage = isCounted(given) ? null : given;
  return {
    ...(isCounted(given) ? { countedOutput: given.output } : {}),
    json: {
      id: id('msg'),
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content,
      stop_reason: content.some((b: any) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      ...(usage ? { usage: { input_tokens: usage.input, output_tokens: usage.output } } : {}),
    },
  };
}

/** A computer tool call (`input` is the tool's input: {action: 'left_click', coordinate: [x, y]} …). */
export function anthropicComputer(
  input: Record<string, unknown>,
  usage?: FakeUsage | CountedUsage | null,
): FakeReply {
  return anthropicMessage(
    [
      { type: 'text', text: 'Next I will act.' },
      { type: 'tool_use', id: id('toolu'), name: 'computer', input },
    ],
    usage,
  );
}

export function anthropicTool(
  name: string,
  input: Record<string, unknown>,
  usage?: FakeUsage | CountedUsage | null,
): FakeReply {
  return anthropicMessage([{ type: 'tool_use', id: id('toolu'), name, input }], usage);
}

/** An OpenAI response with these output items. */
export function openaiResponse(
  output: unknown[],
  given: FakeUsage | CountedUsage | null = DEFAULT_USAGE,
): FakeReply {
  const usage = isCounted(given) ? null : given;
  return {
    ...(isCounted(given) ? { countedOutput: given.output } : {}),
    json: {
      id: id('resp'),
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: 'completed',
      model: 'computer-use-preview',
      output,
      ...(usage
        ? {
            usage: {
              input_tokens: usage.input,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: usage.output,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: usage.input + usage.output,
            },
          }
        : {}),
    },
  };
}

export function openaiComputer(
  action: Record<string, unknown>,
  options: {
    safetyChecks?: Array<{ id: string; code: string; message: string }>;
    usage?: FakeUsage | CountedUsage | null;
  } = {},
): FakeReply {
  return openaiResponse(
    [
      { type: 'reasoning', id: id('rs'), summary: [] },
      {
        type: 'computer_call',
        id: id('cu'),
        call_id: id('call'),
        action,
        pending_safety_checks: options.safetyChecks ?? [],
        status: 'completed',
      },
    ],
    options.usage,
  );
}

export function openaiFunction(
  name: string,
  args: Record<string, unknown>,
  usage?: FakeUsage | CountedUsage | null,
): FakeReply {
  return openaiResponse(
    [
      {
        type: 'function_call',
        id: id('fc'),
        call_id: id('call'),
        name,
        arguments: JSON.stringify(args),
        status: 'completed',
      },
    ],
    usage,
  );
}

/** A chat completion whose message content is `content` (a JSON action, or anything). */
export function chatCompletion(
  content: string,
  given: FakeUsage | CountedUsage | null = DEFAULT_USAGE,
): FakeReply {
  const usage = isCounted(given) ? null : given;
  return {
    ...(isCounted(given) ? { countedOutput: given.output } : {}),
    json: {
      id: id('chatcmpl'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'local-vlm',
      choices: [
        { index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' },
      ],
      ...(usage
        ? {
            usage: {
              prompt_tokens: usage.input,
              completion_tokens: usage.output,
              total_tokens: usage.input + usage.output,
            },
          }
        : {}),
    },
  };
}

/**
 * An agent's model planner that asks `fake` over its chat-completions API with the key in
 * `keyEnv` (granted to it by the test), shown no earlier screens.
 */
export function fakeChatPlanner(fake: FakeProvider, keyEnv: string): Record<string, unknown> {
  return {
    provider: 'openai-compatible',
    model: 'local-vlm',
    api_key_env: keyEnv,
    base_url: `${fake.url}/v1`,
    history_screens: 0,
  };
}

/** A flat chat action as the JSON schema asks: every field, unused ones null. */
export function chatAction(action: Record<string, unknown>): string {
  const fields = [
    'x',
    'y',
    'target',
    'text',
    'key',
    'direction',
    'amount',
    'seconds',
    'summary',
    'reason',
  ];
  return JSON.stringify({ ...Object.fromEntries(fields.map((f) => [f, null])), ...action });
}

// ------------------------------------------------------------------ reading requests

/** Every image in a request, as PNG bytes, in the order they appear. */
export function imagesOf(request: FakeRequest): Buffer[] {
  const out: Buffer[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, any>;
    if (o.type === 'image' && o.source?.type === 'base64')
      out.push(Buffer.from(o.source.data, 'base64'));
    const url =
      typeof o.image_url === 'string'
        ? o.image_url
        : typeof o.image_url?.url === 'string'
          ? o.image_url.url
          : null;
    if (url?.startsWith('data:image/png;base64,')) out.push(Buffer.from(url.slice(22), 'base64'));
    for (const [k, child] of Object.entries(o))
      if (k !== 'image_url' && k !== 'source') walk(child);
  };
  walk(request.body);
  return out;
}

/** All the text of a request (system, instructions, messages), images left out. */
export function textOf(request: FakeRequest): string {
  const parts: string[] = [];
  const walk = (v: unknown, key = ''): void => {
    if (typeof v === 'string') {
      if (!v.startsWith('data:image/') && key !== 'data') parts.push(v);
      return;
    }
    if (Array.isArray(v)) return v.forEach((c) => walk(c, key));
    if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, k);
  };
  walk(request.body);
  return parts.join('\n');
}

/** The reddest pixel of a PNG: where a test screen's marker is, as the model sees it. */
export function reddest(png: Buffer): { x: number; y: number; width: number; height: number } {
  const image = PNG.sync.read(png);
  let best = { x: 0, y: 0, score: -Infinity };
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const score = image.data[i] - image.data[i + 1] - image.data[i + 2];
      if (score > best.score) best = { x, y, score };
    }
  }
  return { x: best.x, y: best.y, width: image.width, height: image.height };
}
