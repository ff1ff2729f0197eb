import Anthropic from '@anthropic-ai/sdk';
import {
  excerpt,
  isRecord,
  type Move,
  type Provider,
  type ProviderAnswer,
  type SendOptions,
  str,
  tokens,
  type Turn,
  WARDEN_ACTIONS_NOTE,
} from '../provider';
import { ANTHROPIC_API } from '../provider-urls';

/**
 * Anthropic's Messages API with the computer-use tool (beta), through `@anthropic-ai/sdk`. The tool
 * gets the display size of the scaled screenshot; `done` and `fail` are two plain tools beside it.
 */
export const ANTHROPIC_COMPUTER_TOOL = 'computer_20250124';
export const ANTHROPIC_COMPUTER_BETA = 'computer-use-2025-01-24';

const DONE_TOOL = {
  name: 'done',
  description: 'The task is complete. Say in a sentence what changed.',
  input_schema: {
    type: 'object',
    properties: { summary: { type: 'string', description: 'What was done.' } },
    required: ['summary'],
  },
};
const FAIL_TOOL = {
  name: 'fail',
  description: 'The task cannot be done. Say why.',
  input_schema: {
    type: 'object',
    properties: { reason: { type: 'string', description: 'Why the task cannot be done.' } },
    required: ['reason'],
  },
};

function image(png: Buffer) {
  return {
    type: 'image',
    source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') },
  };
}

function text(t: string) {
  return { type: 'text', text: t };
}

/** A prompt-cache breakpoint: the prefix up to and including this block is cached (5 minutes). */
const CACHED = { type: 'ephemeral' } as const;
/** The Messages API takes at most this many breakpoints in one request. */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

export const anthropicProvider: Provider = {
  name: 'anthropic',

  /**
   * One user message: the intro, each earlier step (its screenshot while shown, then its line),
   * the current screen, and what is asked. Breakpoints on the tools, the system prompt, the end of
   * the timeline and the current screen: the next step's request starts with everything up to the
   * current screen (it is then step n's screenshot in the timeline), so it reads that from cache.
   * The last two only where they are read (`cacheBreakpoints`): a write costs 1.25 × the input.
   */
  request(turn: Turn): Record<string, unknown> {
    const content: Array<Record<string, unknown>> = [text(turn.intro)];
    for (const entry of turn.timeline) {
      if (entry.screen) content.push(text(entry.screen.label), image(entry.screen.png));
      content.push(text(entry.line));
    }
    if (turn.cache.timeline) {
      content[content.length - 1] = { ...content[content.length - 1], cache_control: CACHED };
    }
    content.push(text(turn.current.label), {
      ...image(turn.current.png),
      ...(turn.cache.current ? { cache_control: CACHED } : {}),
    });
    content.push(text(turn.ask));
    return {
      model: turn.model,
      max_tokens: turn.maxOutputTokens,
      system: [{ type: 'text', text: turn.instructions, cache_control: CACHED }],
      tools: [
        {
          type: ANTHROPIC_COMPUTER_TOOL,
          name: 'computer',
          display_width_px: turn.display.width,
          display_height_px: turn.display.height,
        },
        DONE_TOOL,
        { ...FAIL_TOOL, cache_control: CACHED },
      ],
      betas: [ANTHROPIC_COMPUTER_BETA],
      messages: [{ role: 'user', content }],
    };
  },

  async send(body: Record<string, unknown>, o: SendOptions): Promise<unknown> {
    const client = new Anthropic({
      apiKey: o.apiKey,
      baseURL: o.baseURL ?? ANTHROPIC_API,
      timeout: o.timeoutMs,
      maxRetries: 0,
      logLevel: 'off',
      openTelemetry: false,
      // A redirect would carry the key (x-api-key) to an origin nobody granted it for (docs/screen-host.md).
      fetchOptions: { redirect: 'error' },
    });
    return client.beta.messages.create(
      body as unknown as Anthropic.Beta.Messages.MessageCreateParamsNonStreaming,
      { signal: o.signal },
    );
  },

  read(raw: unknown): ProviderAnswer {
    const r = isRecord(raw) ? raw : {};
    const content = Array.isArray(r.content) ? r.content.filter(isRecord) : [];
    const usage = isRecord(r.usage) ? r.usage : null;
    const input = tokens(usage?.input_tokens);
    const cacheWrite = usage?.cache_creation_input_tokens;
    const cacheRead = usage?.cache_read_input_tokens;
    const record = {
      id: str(r.id),
      model: str(r.model),
      stop_reason: str(r.stop_reason),
      content,
      usage,
    };
    const answer = (move: Move): ProviderAnswer => ({
      move,
      // Anthropic's input_tokens are only those after the last cache breakpoint: Warden's input is
      // all three, of which the cache read and written are told apart for their prices.
      usage: {
        input_tokens:
          input === null ? null : input + (tokens(cacheWrite) ?? 0) + (tokens(cacheRead) ?? 0),
        output_tokens: tokens(usage?.output_tokens),
        cache_read_tokens: input === null ? null : (tokens(cacheRead) ?? 0),
        cache_write_tokens: input === null ? null : (tokens(cacheWrite) ?? 0),
      },
      continuation: null,
      safetyChecks: [],
      record,
    });
    const calls = content.filter((b) => b.type === 'tool_use');
    if (calls.length !== 1) {
      const said = content
        .filter((b) => b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('\n');
      return answer({
        kind: 'refused',
        answer: { model_answer: excerpt(said || `${calls.length} tool calls`) },
        note:
          calls.length === 0
            ? 'Your answer had no tool call. Answer with exactly one tool call.'
            : `Your answer had ${calls.length} tool calls; Warden takes exactly one action per answer.`,
      });
    }
    const call = calls[0];
    return answer(anthropicMove(str(call.name), call.input));
  },
};

/** A tool call in Warden's vocabulary (model coordinates), or why not. */
export function anthropicMove(tool: string | null, input: unknown): Move {
  const i = isRecord(input) ? input : {};
  if (tool === 'done') return { kind: 'action', action: { action: 'done', summary: i.summary } };
  if (tool === 'fail') return { kind: 'action', action: { action: 'fail', reason: i.reason } };
  if (tool !== 'computer') {
    return {
      kind: 'refused',
      answer: { action: tool ?? 'unknown tool' },
      note: `There is no tool "${tool ?? ''}". ${WARDEN_ACTIONS_NOTE}.`,
    };
  }
  const name = str(i.action) ?? '';
  const point = Array.isArray(i.coordinate) ? i.coordinate : null;
  const xy =
    point && point.length === 2 ? { x: point[0] as unknown, y: point[1] as unknown } : null;
  const unsupported = (why: string): Move => ({
    kind: 'refused',
    answer: { action: name || 'unknown', ...(xy ?? {}) },
    note: why,
  });
  switch (name) {
    case 'left_click':
    case 'double_click': {
      if (!xy)
        return unsupported(`${name} needs a coordinate [x, y]: Warden clicks only where you say.`);
      if (i.text !== undefined && i.text !== null && i.text !== '') {
        return unsupported('Holding keys while clicking is not supported. Click without them.');
      }
      return {
        kind: 'action',
        action: { action: name === 'left_click' ? 'click' : 'double_click', ...xy },
      };
    }
    case 'type':
      return { kind: 'action', action: { action: 'type', text: i.text } };
    case 'key':
      return { kind: 'action', action: { action: 'key', key: i.text } };
    case 'scroll': {
      if (!xy) return unsupported('scroll needs a coordinate [x, y] to scroll at.');
      if (i.text !== undefined && i.text !== null && i.text !== '') {
        return unsupported('Holding keys while scrolling is not supported.');
      }
      return {
        kind: 'action',
        action: {
          action: 'scroll',
          ...xy,
          direction: i.scroll_direction,
          amount: i.scroll_amount ?? 3,
        },
      };
    }
    case 'wait':
      return { kind: 'action', action: { action: 'wait', seconds: i.duration ?? 1 } };
    case 'screenshot':
      return { kind: 'look' };
    default:
      return unsupported(`Warden has no "${excerpt(name, 40)}". ${WARDEN_ACTIONS_NOTE}.`);
  }
}
