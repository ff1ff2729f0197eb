import Anthropic from '@anthropic-ai/sdk';
import type { AnthropicTool } from '../../../config/model-tools';
import {
  type AnswerCall,
  type CallResult,
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
import { ANTHROPIC_API } from '../../../config/provider-urls';
import { memberMove } from './anthropic-members';

type Block = Anthropic.Messages.ContentBlockParam;

/**
 * Anthropic's Messages API through `@anthropic-ai/sdk`, with the computer-use tool the model takes
 * (config/model-tools.json): the GA computer toolset (`computer_toolset_20260801`: one entry, no
 * display size, coordinates in the pixels of the screenshot Warden sends, the members Warden does
 * not offer switched off in `configs`), or the single tool of the beta before it
 * (`computer_20251124`, `computer_20250124`) with the display size of the scaled screenshot.
 * `done` and `fail` are two plain tools beside it.
 */
export const ANTHROPIC_TOOLSET = 'computer_toolset_20260801';
/** The beta each single computer tool needs. */
export const ANTHROPIC_BETAS: Readonly<
  Record<Exclude<AnthropicTool, typeof ANTHROPIC_TOOLSET>, string>
> = Object.freeze({
  computer_20251124: 'computer-use-2025-11-24',
  computer_20250124: 'computer-use-2025-01-24',
});

/**
 * The toolset's members Warden does not offer: switched off, so that the model is never served
 * them (a drag, a held key or a right click is nothing Warden can check and send).
 */
export const TOOLSET_MEMBERS_OFF = [
  'hold_key',
  'cursor_position',
  'mouse_move',
  'left_mouse_down',
  'left_mouse_up',
  'left_click_drag',
  'right_click',
  'middle_click',
  'triple_click',
] as const satisfies ReadonlyArray<keyof Anthropic.Messages.ComputerToolsetConfigs>;

const TOOLSET_CONFIGS: Anthropic.Messages.ComputerToolsetConfigs = Object.fromEntries(
  TOOLSET_MEMBERS_OFF.map((m) => [m, { enabled: false }]),
);

const DONE_TOOL = {
  name: 'done',
  description: 'The task is complete. Say in a sentence what changed.',
  input_schema: {
    type: 'object',
    properties: { summary: { type: 'string', description: 'What was done.' } },
    required: ['summary'],
  },
} satisfies Anthropic.Messages.Tool;
const FAIL_TOOL = {
  name: 'fail',
  description: 'The task cannot be done. Say why.',
  input_schema: {
    type: 'object',
    properties: { reason: { type: 'string', description: 'Why the task cannot be done.' } },
    required: ['reason'],
  },
} satisfies Anthropic.Messages.Tool;

function image(png: Buffer): Anthropic.Messages.ImageBlockParam {
  return {
    type: 'image',
    source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') },
  };
}

function text(t: string): Anthropic.Messages.TextBlockParam {
  return { type: 'text', text: t };
}

/** A prompt-cache breakpoint: the prefix up to and including this block is cached (5 minutes). */
const CACHED = { type: 'ephemeral' } as const;
/** The Messages API takes at most this many breakpoints in one request. */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

function cached<B extends Block>(block: B): B {
  return { ...block, cache_control: CACHED };
}

/** The tools of a request: the computer tool the model takes, `done` and `fail`. */
function toolsFor(
  turn: Turn,
): Array<Anthropic.Messages.ToolUnion | Anthropic.Beta.Messages.BetaToolUnion> {
  const last: Anthropic.Messages.Tool = { ...FAIL_TOOL, cache_control: CACHED };
  if (turn.tool === ANTHROPIC_TOOLSET) {
    const toolset = {
      type: ANTHROPIC_TOOLSET,
      configs: TOOLSET_CONFIGS,
    } satisfies Anthropic.Messages.ComputerToolset20260801;
    return [toolset, DONE_TOOL, last];
  }
  const computer = {
    type: turn.tool as 'computer_20251124' | 'computer_20250124',
    name: 'computer',
    display_width_px: turn.display.width,
    display_height_px: turn.display.height,
  } satisfies
    | Anthropic.Beta.Messages.BetaToolComputerUse20251124
    | Anthropic.Beta.Messages.BetaToolComputerUse20250124;
  return [computer, DONE_TOOL, last];
}

/**
 * One call's result: its text, and for a look or a zoom the image. A toolset member's result names
 * the toolset, as the API pairs it with its `tool_use`.
 */
function toolResult(r: CallResult): Anthropic.Messages.ToolResultBlockParam {
  return {
    type: 'tool_result',
    tool_use_id: r.id!,
    content: [text(r.text), ...(r.image ? [image(r.image.png)] : [])],
    ...(r.error ? { is_error: true } : {}),
    ...(r.toolset ? { toolset_name: 'computer' } : {}),
  };
}

/**
 * The user message after an earlier answer: each of its calls' results (calls without an id, a
 * text answer's, as text), the screen after it where no result shows it, and what is asked.
 */
function resultsMessage(exchange: Turn['exchanges'][number], mark: boolean): Block[] {
  const blocks: Block[] = exchange.results.map((r) =>
    r.id
      ? toolResult(exchange.collapsed ? { ...r, image: undefined } : r)
      : ({ type: 'text', text: r.text } satisfies Anthropic.Messages.TextBlockParam),
  );
  if (exchange.screen) blocks.push(text(exchange.screen.label), image(exchange.screen.png));
  if (mark) {
    // The last image of this message (the screen, or a look's), or its last result.
    const at = blocks.findLastIndex(
      (b) => b.type === 'image' || b.type === 'tool_result' || b.type === 'text',
    );
    if (at >= 0) blocks[at] = cached(blocks[at]);
  }
  blocks.push(text(exchange.ask));
  return blocks;
}

export const anthropicProvider: Provider = {
  name: 'anthropic',

  /**
   * One user message: the intro, each earlier step (its screenshot while shown, then its line),
   * the current screen, and what is asked; with the toolset, the model's answers since then, each
   * followed by its `tool_result`s and the screen after it. Breakpoints on the tools, the system
   * prompt, and two more: without earlier answers, the end of the timeline and the current screen
   * (`cacheBreakpoints`; a write costs 1.25 × the input, so only where it is read); with them, the
   * last image of the previous request (what this one reads) and of this one (what the next reads),
   * or at the conversation's new start the end of its timeline (docs/models.md, Prompt caching).
   */
  request(turn: Turn): Record<string, unknown> {
    // Two breakpoints besides the tools and the system prompt: the exchanges' marks first, then
    // the current screen and the timeline's end, as far as the API's maximum allows.
    const exchangeMarks = turn.exchanges.filter((e) => e.mark).length;
    const current = turn.cache.current && exchangeMarks < 2;
    const marks = {
      timeline: turn.cache.timeline && exchangeMarks + (current ? 1 : 0) < 2,
      current,
    };
    const content: Block[] = [text(turn.intro)];
    for (const entry of turn.timeline) {
      if (entry.screen) content.push(text(entry.screen.label), image(entry.screen.png));
      content.push(text(entry.line));
    }
    if (marks.timeline) content[content.length - 1] = cached(content[content.length - 1]);
    content.push(text(turn.current.label));
    content.push(marks.current ? cached(image(turn.current.png)) : image(turn.current.png));
    content.push(text(turn.ask));
    const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content }];
    let marked = 0;
    for (const exchange of turn.exchanges) {
      const mark = exchange.mark === true && marked++ < 2;
      messages.push({ role: 'assistant', content: exchange.echo as Block[] });
      messages.push({ role: 'user', content: resultsMessage(exchange, mark) });
    }
    const body = {
      model: turn.model,
      max_tokens: turn.maxOutputTokens,
      system: [cached(text(turn.instructions))],
      tools: toolsFor(turn) as Anthropic.Messages.ToolUnion[],
      messages,
    } satisfies Anthropic.Messages.MessageCreateParamsNonStreaming;
    if (turn.tool === ANTHROPIC_TOOLSET) return body;
    return { ...body, betas: [ANTHROPIC_BETAS[turn.tool as keyof typeof ANTHROPIC_BETAS]] };
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
    // The single computer tools are a beta; the toolset is the GA Messages API.
    if (Array.isArray(body.betas)) {
      return client.beta.messages.create(
        body as unknown as Anthropic.Beta.Messages.MessageCreateParamsNonStreaming,
        { signal: o.signal },
      );
    }
    return client.messages.create(
      body as unknown as Anthropic.Messages.MessageCreateParamsNonStreaming,
      {
        signal: o.signal,
      },
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
    const toolUses = content.filter((b) => b.type === 'tool_use');
    const toolset = toolUses.some((b) => b.toolset_name === 'computer');
    const answer = (calls: AnswerCall[]): ProviderAnswer => ({
      move: calls[0].move,
      calls,
      echo: echoOf(content),
      callId: null,
      functionCalls: [],
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
    if (toolUses.length === 0 || (toolUses.length > 1 && !toolset)) {
      const said = content
        .filter((b) => b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('\n');
      const note =
        toolUses.length === 0
          ? 'Your answer had no tool call. Answer with a tool call.'
          : `Your answer had ${toolUses.length} tool calls; Warden takes exactly one action per answer.`;
      const refused: Move = {
        kind: 'refused',
        answer: { model_answer: excerpt(said || `${toolUses.length} tool calls`) },
        note,
      };
      // Every call of an answer gets its result (the API pairs them): each is the refusal.
      const calls = toolUses.length
        ? toolUses.map((b) => ({ id: str(b.id), toolset: false, move: refused }))
        : [{ id: null, toolset: false, move: refused }];
      return answer(calls);
    }
    return answer(
      toolUses.map((b) => {
        const member = b.toolset_name === 'computer';
        return {
          id: str(b.id),
          toolset: member,
          move: member
            ? memberMove(str(b.name) ?? '', b.input)
            : anthropicMove(str(b.name), b.input),
        };
      }),
    );
  },
};

/**
 * The answer as it goes back in the next request: its text, its thinking (with its signature) and
 * its tool calls, as request blocks; anything else the response carried is left out.
 */
function echoOf(content: Array<Record<string, unknown>>): Block[] {
  return content.flatMap((b): Block[] => {
    if (b.type === 'text' && typeof b.text === 'string') return [text(b.text)];
    if (
      b.type === 'thinking' &&
      typeof b.thinking === 'string' &&
      typeof b.signature === 'string'
    ) {
      return [{ type: 'thinking', thinking: b.thinking, signature: b.signature }];
    }
    if (b.type === 'redacted_thinking' && typeof b.data === 'string') {
      return [{ type: 'redacted_thinking', data: b.data }];
    }
    if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
      return [
        {
          type: 'tool_use',
          id: b.id,
          name: b.name,
          input: isRecord(b.input) ? b.input : {},
          ...(typeof b.toolset_name === 'string' ? { toolset_name: b.toolset_name } : {}),
        },
      ];
    }
    return [];
  });
}

/**
 * A call of the single computer tool (its input's `action`) or of `done` or `fail`, in Warden's
 * vocabulary (model coordinates), or why not.
 */
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
  // The single tools are served without zoom: a zoom is nothing Warden offered them.
  if (name === 'zoom') {
    return {
      kind: 'refused',
      answer: { action: 'zoom' },
      note: `Warden has no "zoom" for this tool. ${WARDEN_ACTIONS_NOTE}.`,
    };
  }
  return memberMove(name, i);
}
