import { randomBytes } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { CountedUsage, FakeReply, FakeRequest, FakeUsage } from './fake-provider';

/**
 * The fake provider's answers with today's computer-use tools, which answer several actions in one
 * turn: Anthropic's computer toolset (`tool_use` blocks carrying `toolset_name`, one per member
 * call) and OpenAI's GA computer tool (a `computer_call` with an ordered list of `actions`). Each
 * answer is typed as the SDK types the provider's response (`satisfies`), so that the typecheck
 * fails the moment a shape drifts from the vendors'; and what a request said of the previous
 * answer, read back for tests and for the eval's batching model.
 */

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A toolset member call as the model makes it: `{name: 'left_click', input: {coordinate}}`. */
export type MemberCall = DistributiveOmit<
  Anthropic.Messages.ComputerToolUseBlock,
  'id' | 'caller' | 'type' | 'toolset_name'
>;
/** `done` or `fail`, the plain tools beside the toolset. */
export type PlainCall =
  { tool: 'done'; input: { summary: string } } | { tool: 'fail'; input: { reason: string } };
export type ToolsetCall = MemberCall | PlainCall;

let ids = 0;
const id = (prefix: string) => `${prefix}_${++ids}_${randomBytes(4).toString('hex')}`;

function usageOf(given: FakeUsage | CountedUsage | null): Anthropic.Messages.Usage | null {
  if (!given || 'counted' in given) return null;
  return {
    input_tokens: given.input,
    output_tokens: given.output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}

const countedOutput = (given: FakeUsage | CountedUsage | null) =>
  given && 'counted' in given ? { countedOutput: given.output } : {};

/** A Messages API answer with these toolset calls (and `done`/`fail`), in order. */
export function anthropicToolset(
  calls: ToolsetCall[],
  options: { text?: string; usage?: FakeUsage | CountedUsage | null } = {},
): FakeReply & { json: Anthropic.Messages.Message } {
  const content: Anthropic.Messages.ContentBlock[] = [];
  if (options.text) content.push({ type: 'text', text: options.text, citations: null });
  for (const call of calls) {
    if ('tool' in call) {
      content.push({
        type: 'tool_use',
        id: id('toolu'),
        caller: { type: 'direct' },
        name: call.tool,
        input: call.input,
      } satisfies Anthropic.Messages.ToolUseBlock);
    } else {
      const block = {
        ...call,
        type: 'tool_use',
        id: id('toolu'),
        caller: { type: 'direct' },
        toolset_name: 'computer',
      } as Anthropic.Messages.ComputerToolUseBlock;
      content.push(block satisfies Anthropic.Messages.ToolUseBlock);
    }
  }
  const usage = options.usage === undefined ? { input: 1000, output: 100 } : options.usage;
  const message = {
    id: id('msg'),
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: usageOf(usage) ?? (usageOf({ input: 0, output: 0 }) as Anthropic.Messages.Usage),
  } satisfies Anthropic.Messages.Message;
  return { ...countedOutput(usage), json: message };
}

/** One action of OpenAI's GA computer tool, as its `actions` list carries it. */
export type ComputerAction = OpenAI.Responses.ComputerAction;

type WireResponse = Omit<OpenAI.Responses.Response, 'output_text'>;

function openaiUsage(
  given: FakeUsage | CountedUsage | null,
): OpenAI.Responses.ResponseUsage | undefined {
  if (!given || 'counted' in given) return undefined;
  return {
    input_tokens: given.input,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: given.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: given.input + given.output,
  };
}

function response(
  output: OpenAI.Responses.ResponseOutputItem[],
  given: FakeUsage | CountedUsage | null,
): FakeReply & { json: WireResponse } {
  const usage = openaiUsage(given);
  const json = {
    id: id('resp'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model: 'gpt-5.4',
    output,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    parallel_tool_calls: false,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    ...(usage ? { usage } : {}),
  } satisfies WireResponse;
  return { ...countedOutput(given), json };
}

/** A Responses API answer: one GA `computer_call` with these actions, in order. */
export function openaiActions(
  actions: ComputerAction[],
  options: {
    safetyChecks?: Array<{ id: string; code: string; message: string }>;
    usage?: FakeUsage | CountedUsage | null;
  } = {},
): FakeReply & { json: WireResponse } {
  const call = {
    type: 'computer_call',
    id: id('cu'),
    call_id: id('call'),
    actions,
    pending_safety_checks: options.safetyChecks ?? [],
    status: 'completed',
  } satisfies OpenAI.Responses.ResponseComputerToolCall;
  const reasoning = {
    type: 'reasoning',
    id: id('rs'),
    summary: [],
  } satisfies OpenAI.Responses.ResponseReasoningItem;
  return response(
    [reasoning, call],
    options.usage === undefined ? { input: 1000, output: 100 } : options.usage,
  );
}

/** A Responses API answer: the `done` or `fail` function. */
export function openaiDone(
  name: 'done' | 'fail',
  args: Record<string, string>,
  usage: FakeUsage | CountedUsage | null = { input: 1000, output: 100 },
): FakeReply & { json: WireResponse } {
  const call = {
    type: 'function_call',
    id: id('fc'),
    call_id: id('call'),
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  } satisfies OpenAI.Responses.ResponseFunctionToolCall;
  return response([call], usage);
}

// ------------------------------------------------------------------ what a request says

/** A call's result as the request carries it. */
export interface SeenResult {
  text: string;
  error: boolean;
  /** Images in it (a look's, a zoom's). */
  images: number;
}

/**
 * The results the request gives the model's previous answer, in order: Anthropic's `tool_result`
 * blocks of its last user message; OpenAI's lines of its last user message after a
 * `computer_call_output`. Empty on a request that follows no answer.
 */
export function previousResults(request: FakeRequest): SeenResult[] {
  const body = request.body;
  if (request.wire === 'anthropic') {
    const messages: any[] = body.messages ?? [];
    if (messages.length < 3) return [];
    const last = messages[messages.length - 1];
    return (last.content as any[])
      .filter((b) => b.type === 'tool_result' || (b.type === 'text' && /^(Call|Your)/.test(b.text)))
      .map((b) =>
        b.type === 'tool_result'
          ? {
              text: (b.content as any[])
                .filter((c) => c.type === 'text')
                .map((c) => c.text)
                .join(' '),
              error: b.is_error === true,
              images: (b.content as any[]).filter((c) => c.type === 'image').length,
            }
          : { text: b.text, error: true, images: 0 },
      );
  }
  const input: any[] = body.input ?? [];
  const outputAt = input.map((i) => i.type).lastIndexOf('computer_call_output');
  if (outputAt < 0) return [];
  const message = input.slice(outputAt).find((i) => i.role === 'user');
  const parts: any[] = message?.content ?? [];
  const results: SeenResult[] = [];
  for (const p of parts) {
    if (p.type === 'input_text' && /^Call \d+:/.test(p.text)) {
      const error = /^Call \d+: not executed|refused by Warden|not sent|not completed/.test(p.text);
      results.push({ text: p.text, error, images: 0 });
    } else if (p.type === 'input_image' && results.length > 0) {
      results[results.length - 1].images++;
    }
  }
  return results;
}
