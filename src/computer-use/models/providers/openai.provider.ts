import OpenAI from 'openai';
import {
  type Continuation,
  type AnswerCall,
  type Exchange,
  excerpt,
  isRecord,
  type Move,
  parseJson,
  type Provider,
  type ProviderAnswer,
  type SafetyCheck,
  type SendOptions,
  str,
  tokens,
  type Turn,
  WARDEN_ACTIONS_NOTE,
} from '../provider';
import { OPENAI_API } from '../../../config/provider-urls';

/**
 * OpenAI's Responses API through `openai`, with the computer tool the model takes
 * (config/model-tools.json): the GA `computer` tool (its call holds an ordered list of `actions`, a
 * batch, and is answered with a `computer_call_output`) or the preview's `computer_use_preview`
 * (one action, the display size of the scaled screenshot). Each request is
 * whole (no `previous_response_id`, docs/models.md says why): the task, the run's timeline and
 * the current screenshot, in one message that only grows at its end from one step to the next, so
 * that OpenAI's automatic prompt caching reads the rest from cache. Safety checks the model raised
 * are acknowledged (`acknowledged_safety_checks`) in the request after a person approved the
 * action, in the output of that call (its items sent back), and only there.
 */
/** Screen-only systems are desktop applications; the model adapts its key names to it. */
export const OPENAI_ENVIRONMENT = 'windows';
/** OpenAI's `wait` has no duration. */
const WAIT_SECONDS = 2;
/** `scroll_x`/`scroll_y` are pixels; Warden scrolls in notches. */
const PIXELS_PER_NOTCH = 100;
/** An answer's items kept for the next request, at most this much JSON; beyond, not continued. */
const MAX_CONTINUATION_CHARS = 256 * 1024;

const FUNCTIONS = [
  {
    type: 'function',
    name: 'done',
    description: 'The task is complete. Say in a sentence what changed.',
    parameters: {
      type: 'object',
      properties: { summary: { type: 'string' } },
      required: ['summary'],
      additionalProperties: false,
    },
    strict: true,
  },
  {
    type: 'function',
    name: 'fail',
    description: 'The task cannot be done. Say why.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string' } },
      required: ['reason'],
      additionalProperties: false,
    },
    strict: true,
  },
] satisfies OpenAI.Responses.FunctionTool[];

function dataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

function inputImage(png: Buffer): OpenAI.Responses.ResponseInputImage {
  return { type: 'input_image', image_url: dataUrl(png), detail: 'high' };
}

function inputText(text: string) {
  return { type: 'input_text', text };
}

export const openaiProvider: Provider = {
  name: 'openai',

  request(turn: Turn): Record<string, unknown> {
    const first: unknown[] = [inputText(turn.intro)];
    for (const entry of turn.timeline) {
      if (entry.screen) first.push(inputText(entry.screen.label), inputImage(entry.screen.png));
      first.push(inputText(entry.line));
    }
    const input: unknown[] = [{ role: 'user', content: first }];
    const c = turn.continuation;
    if (c?.call_type === 'computer_call' && turn.acknowledge.length > 0) {
      // The call a person approved gets its output, which acknowledges its safety checks.
      input.push(...c.items, {
        type: 'computer_call_output',
        call_id: c.call_id,
        output: { type: 'computer_screenshot', image_url: dataUrl(turn.current.png) },
        acknowledged_safety_checks: turn.acknowledge.map((s) => ({ ...s })),
      });
      input.push({
        role: 'user',
        content: [
          ...(turn.outcome ? [inputText(turn.outcome.text)] : []),
          inputText(`${turn.current.label} the screenshot above.`),
          inputText(turn.ask),
        ],
      });
    } else {
      first.push(inputText(turn.current.label), inputImage(turn.current.png), inputText(turn.ask));
    }
    for (const exchange of turn.exchanges) input.push(...exchangeItems(exchange));
    const computer =
      turn.tool === 'computer'
        ? ({ type: 'computer' } satisfies OpenAI.Responses.ComputerTool)
        : ({
            type: 'computer_use_preview',
            display_width: turn.display.width,
            display_height: turn.display.height,
            environment: OPENAI_ENVIRONMENT,
          } satisfies OpenAI.Responses.ComputerUsePreviewTool);
    return {
      model: turn.model,
      instructions: turn.instructions,
      tools: [computer, ...FUNCTIONS],
      input: input as OpenAI.Responses.ResponseInput,
      truncation: 'auto',
      max_output_tokens: turn.maxOutputTokens,
    } satisfies OpenAI.Responses.ResponseCreateParamsNonStreaming;
  },

  async send(body: Record<string, unknown>, o: SendOptions): Promise<unknown> {
    return client(o).responses.create(
      body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming,
      { signal: o.signal },
    );
  },

  read(raw: unknown): ProviderAnswer {
    const r = isRecord(raw) ? raw : {};
    const output = Array.isArray(r.output) ? r.output.filter(isRecord) : [];
    const usage = isRecord(r.usage) ? r.usage : null;
    const record = {
      id: str(r.id),
      model: str(r.model),
      status: str(r.status),
      // Encrypted reasoning is opaque and large: the transcript keeps that it was there.
      output: output.map((item) =>
        typeof item.encrypted_content === 'string'
          ? { ...item, encrypted_content: '[encrypted]' }
          : item,
      ),
      usage,
    };
    const input = tokens(usage?.input_tokens);
    const details = isRecord(usage?.input_tokens_details) ? usage.input_tokens_details : null;
    const base = {
      usage: {
        input_tokens: input,
        output_tokens: tokens(usage?.output_tokens),
        // Part of input_tokens, billed at the model's cached input price.
        cache_read_tokens: input === null ? null : (tokens(details?.cached_tokens) ?? 0),
      },
      record,
    };
    const calls = output.filter((i) => i.type === 'computer_call' || i.type === 'function_call');
    if (calls.length !== 1) {
      const said = output
        .filter((i) => i.type === 'message' && Array.isArray(i.content))
        .flatMap((i) => (i.content as unknown[]).filter(isRecord))
        .map((p) =>
          typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : '',
        )
        .join('\n');
      const refused: Move = {
        kind: 'refused',
        answer: { model_answer: excerpt(said || `${calls.length} calls`) },
        note:
          calls.length === 0
            ? 'Your answer had no computer call and no done or fail. Answer with exactly one.'
            : `Your answer had ${calls.length} calls; Warden takes exactly one call per answer.`,
      };
      // Not sent back: the model is told in a message of its own why nothing was done.
      return {
        ...base,
        move: refused,
        calls: [{ id: null, toolset: false, move: refused }],
        echo: [],
        callId: null,
        functionCalls: [],
        continuation: null,
        safetyChecks: [],
      };
    }
    const call = calls[0];
    const callId = str(call.call_id);
    const checks = call.type === 'computer_call' ? safetyChecks(call.pending_safety_checks) : [];
    const items = output.filter((i) =>
      ['reasoning', 'message', 'computer_call', 'function_call'].includes(String(i.type)),
    );
    const continuation: Continuation | null =
      callId && JSON.stringify(items).length <= MAX_CONTINUATION_CHARS
        ? {
            provider: 'openai',
            items,
            call_id: callId,
            call_type: call.type as 'computer_call' | 'function_call',
            safety_checks: checks,
          }
        : null;
    const move = call.type === 'function_call' ? functionMove(call) : computerMove(call);
    // The GA tool's batch: every action of the call, in order, for the planner to take one by one.
    const batch =
      call.type === 'computer_call' && !isRecord(call.action) && Array.isArray(call.actions)
        ? call.actions.map((a) => actionMove(isRecord(a) ? a : {}))
        : [move];
    const answerCalls: AnswerCall[] = (batch.length > 0 ? batch : [move]).map((m) => ({
      id: call.type === 'function_call' ? callId : null,
      toolset: false,
      move: m,
    }));
    return {
      ...base,
      move,
      calls: answerCalls,
      echo: items,
      callId: call.type === 'computer_call' ? callId : null,
      functionCalls: call.type === 'function_call' && callId ? [callId] : [],
      continuation,
      safetyChecks: answerCalls.some((c) => c.move.kind === 'action') ? checks : [],
    };
  },
};

/**
 * An earlier answer and what became of it, as the next request carries it: the answer's items, the
 * computer call's output (the screen after it, acknowledging the safety checks a person approved),
 * each function call's output, and a message with the results of its actions and what is asked.
 */
function exchangeItems(e: Exchange): unknown[] {
  // An answer whose screens are no longer shown: its calls and their results in words.
  if (e.collapsed) {
    return [
      { role: 'user', content: [...e.results.map((r) => inputText(r.text)), inputText(e.ask)] },
    ];
  }
  const items: unknown[] = [...e.echo];
  const screen = e.screen ?? e.results.findLast((r) => r.image)?.image ?? null;
  if (e.callId && screen) {
    items.push({
      type: 'computer_call_output',
      call_id: e.callId,
      output: { type: 'computer_screenshot', image_url: dataUrl(screen.png) },
      ...(e.acknowledge.length > 0
        ? { acknowledged_safety_checks: e.acknowledge.map((s) => ({ ...s })) }
        : {}),
    } satisfies OpenAI.Responses.ResponseInputItem.ComputerCallOutput);
  }
  for (const id of e.functionCalls) {
    const result = e.results.find((r) => r.id === id);
    items.push({
      type: 'function_call_output',
      call_id: id,
      output: result?.text ?? 'Not executed.',
    } satisfies OpenAI.Responses.ResponseInputItem.FunctionCallOutput);
  }
  const content: unknown[] = [];
  for (const r of e.results) {
    if (r.id !== null) continue;
    content.push(inputText(r.text));
    if (r.image) content.push(inputImage(r.image.png));
  }
  if (e.screen) content.push(inputText(`${e.screen.label} the screenshot above.`));
  content.push(inputText(e.ask));
  items.push({ role: 'user', content });
  return items;
}

function client(o: SendOptions): OpenAI {
  return new OpenAI({
    apiKey: o.apiKey,
    baseURL: o.baseURL ?? OPENAI_API,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: o.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
    // A redirect would carry the key to an origin nobody granted it for (docs/screen-host.md).
    fetchOptions: { redirect: 'error' },
  });
}

/** The shared client for `openai-compatible` (chat completions). */
export { client as openaiClient };

function safetyChecks(value: unknown): SafetyCheck[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).flatMap((c) => {
    const id = str(c.id);
    if (!id) return [];
    return [
      {
        id: excerpt(id, 200),
        code: str(c.code) ? excerpt(c.code as string, 200) : null,
        message: str(c.message) ? excerpt(c.message as string, 2000) : null,
      },
    ];
  });
}

function functionMove(call: Record<string, unknown>): Move {
  const name = str(call.name);
  const args = typeof call.arguments === 'string' ? parseJson(call.arguments) : call.arguments;
  const a = isRecord(args) ? args : {};
  if (name === 'done') return { kind: 'action', action: { action: 'done', summary: a.summary } };
  if (name === 'fail') return { kind: 'action', action: { action: 'fail', reason: a.reason } };
  return {
    kind: 'refused',
    answer: { action: name ?? 'unknown function' },
    note: `There is no function "${excerpt(name ?? '', 40)}". ${WARDEN_ACTIONS_NOTE}.`,
  };
}

/**
 * A `computer_call` of the preview tool in Warden's vocabulary (model coordinates), or why not: one
 * action (the GA tool's batch is read action by action, `actionMove`).
 */
export function computerMove(call: Record<string, unknown>): Move {
  let action = call.action;
  if (!isRecord(action) && Array.isArray(call.actions)) {
    if (call.actions.length !== 1) {
      return {
        kind: 'refused',
        answer: { action: 'batch', count: call.actions.length },
        note: `Your call had ${call.actions.length} actions; Warden takes exactly one action per answer.`,
      };
    }
    action = call.actions[0];
  }
  return actionMove(isRecord(action) ? action : {});
}

/** One action of a `computer_call` in Warden's vocabulary (model coordinates), or why not. */
export function actionMove(a: Record<string, unknown>): Move {
  const type = str(a.type) ?? '';
  const keys = Array.isArray(a.keys) ? a.keys : [];
  const unsupported = (note: string): Move => ({
    kind: 'refused',
    answer: { action: type || 'unknown', ...(a.x !== undefined ? { x: a.x, y: a.y } : {}) },
    note,
  });
  switch (type) {
    case 'click': {
      if (a.button !== 'left') {
        return unsupported(
          `A ${String(a.button)} click is not supported: only left clicks. ${WARDEN_ACTIONS_NOTE}.`,
        );
      }
      if (keys.length > 0) return unsupported('Holding keys while clicking is not supported.');
      return { kind: 'action', action: { action: 'click', x: a.x, y: a.y } };
    }
    case 'double_click':
      if (keys.length > 0) return unsupported('Holding keys while clicking is not supported.');
      return { kind: 'action', action: { action: 'double_click', x: a.x, y: a.y } };
    case 'type':
      return { kind: 'action', action: { action: 'type', text: a.text } };
    case 'keypress': {
      const names = keys.filter((k): k is string => typeof k === 'string');
      if (names.length === 0 || names.length !== keys.length) {
        return unsupported('keypress needs the keys to press, as names.');
      }
      return { kind: 'action', action: { action: 'key', key: names.join('+') } };
    }
    case 'scroll': {
      if (keys.length > 0) return unsupported('Holding keys while scrolling is not supported.');
      const dx = typeof a.scroll_x === 'number' ? a.scroll_x : 0;
      const dy = typeof a.scroll_y === 'number' ? a.scroll_y : 0;
      if (dx === 0 && dy === 0) return unsupported('A scroll by zero pixels does nothing.');
      const vertical = Math.abs(dy) >= Math.abs(dx);
      const pixels = vertical ? dy : dx;
      return {
        kind: 'action',
        action: {
          action: 'scroll',
          x: a.x,
          y: a.y,
          direction: vertical ? (dy > 0 ? 'down' : 'up') : dx > 0 ? 'right' : 'left',
          amount: Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_NOTCH)),
        },
      };
    }
    case 'wait':
      return { kind: 'action', action: { action: 'wait', seconds: WAIT_SECONDS } };
    case 'screenshot':
      return { kind: 'look' };
    default:
      return unsupported(`Warden has no "${excerpt(type, 40)}". ${WARDEN_ACTIONS_NOTE}.`);
  }
}
