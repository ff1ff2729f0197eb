import { createHash } from 'node:crypto';

/**
 * Token counts and prompt caching as the fake provider reports them (issue 18 §3): an
 * approximation of the real APIs, deterministic, so that a test can measure what caching saves.
 *
 * Counting: text is ceil(characters / 4); an image is priced by its PNG size the way each provider
 * documents it (Anthropic: ceil(width × height / 750); OpenAI `detail: "high"`: fitted into
 * 2048×2048, then its short side to 768, 85 + 170 per 512-pixel tile; `low`: 85); Anthropic's
 * computer tool counts as 735 tokens (its documented overhead), every other tool as its JSON text.
 *
 * A request is a list of blocks in the providers' cache order (tools, system or instructions, then
 * each content part of each message or input item), each with its tokens and a hash of everything
 * up to it.
 *
 * - Anthropic: only where `cache_control` says. More than four breakpoints is the API's 400. A
 *   request reads from cache the longest prefix ending at a block boundary that an earlier request
 *   wrote, looking back at most 20 blocks from one of its breakpoints; it writes (creates) the
 *   prefix up to each of its breakpoints of at least 1024 tokens. `cache_read_input_tokens` is the
 *   prefix read, `cache_creation_input_tokens` what was written beyond it, `input_tokens` the rest.
 * - OpenAI (Responses and chat completions): automatic. Every request's prefixes are remembered; a
 *   later request reads the longest remembered prefix, if it has at least 1024 tokens, rounded down
 *   to 1024 + a multiple of 128. `input_tokens` is the whole prompt, `cached_tokens` part of it.
 *
 * The memory is the fake server's, forgotten when a test scripts new replies. No expiry.
 */

export const ANTHROPIC_COMPUTER_TOOL_TOKENS = 735;
export const MIN_CACHEABLE_TOKENS = 1024;
const ANTHROPIC_LOOKBACK_BLOCKS = 20;
const OPENAI_CACHE_STEP = 128;

interface Block {
  tokens: number;
  breakpoint: boolean;
  /** Hash of every block up to and including this one. */
  prefix: string;
}

export interface AnthropicCounted {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface OpenAICounted {
  input_tokens: number;
  cached_tokens: number;
}

export class TokenCounter {
  private readonly written = new Set<string>();

  forget(): void {
    this.written.clear();
  }

  /** Anthropic Messages usage, or a string: why the real API would refuse the request. */
  anthropic(body: any): AnthropicCounted | string {
    const blocks = chain(anthropicBlocks(body));
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (breakpoints.length > 4) {
      return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints.length}.`;
    }
    const cum = cumulative(blocks);
    const total = cum[cum.length - 1] ?? 0;
    let readAt = -1;
    for (const b of breakpoints) {
      for (let p = b; p >= Math.max(0, b - ANTHROPIC_LOOKBACK_BLOCKS); p--) {
        if (this.written.has(blocks[p].prefix)) {
          readAt = Math.max(readAt, p);
          break;
        }
      }
    }
    const read = readAt >= 0 ? cum[readAt] : 0;
    let writtenTo = read;
    for (const b of breakpoints) {
      if (cum[b] < MIN_CACHEABLE_TOKENS) continue;
      this.written.add(blocks[b].prefix);
      writtenTo = Math.max(writtenTo, cum[b]);
    }
    return {
      input_tokens: total - writtenTo,
      cache_creation_input_tokens: writtenTo - read,
      cache_read_input_tokens: read,
    };
  }

  /** OpenAI Responses or chat completions usage: automatic prefix caching. */
  openai(body: any, wire: 'openai' | 'chat'): OpenAICounted {
    const blocks = chain(wire === 'openai' ? responsesBlocks(body) : chatBlocks(body));
    const cum = cumulative(blocks);
    const total = cum[cum.length - 1] ?? 0;
    let longest = 0;
    blocks.forEach((b, i) => {
      if (this.written.has(b.prefix)) longest = cum[i];
    });
    for (const b of blocks) this.written.add(b.prefix);
    const cached =
      longest < MIN_CACHEABLE_TOKENS
        ? 0
        : MIN_CACHEABLE_TOKENS +
          Math.floor((longest - MIN_CACHEABLE_TOKENS) / OPENAI_CACHE_STEP) * OPENAI_CACHE_STEP;
    return { input_tokens: total, cached_tokens: cached };
  }
}

interface RawBlock {
  tokens: number;
  breakpoint: boolean;
  key: string;
}

function chain(raw: RawBlock[]): Block[] {
  let prefix = '';
  return raw.map((b) => {
    prefix = createHash('sha256').update(prefix).update(b.key).digest('hex');
    return { tokens: b.tokens, breakpoint: b.breakpoint, prefix };
  });
}

function cumulative(blocks: Block[]): number[] {
  let sum = 0;
  return blocks.map((b) => (sum += b.tokens));
}

export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Width and height from a PNG's IHDR (base64 or a data URL); null when it is not a PNG. */
export function pngSize(data: string): { width: number; height: number } | null {
  const b64 = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  const head = Buffer.from(b64.slice(0, 32), 'base64');
  if (head.length < 24 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

export function anthropicImageTokens(size: { width: number; height: number }): number {
  return Math.ceil((size.width * size.height) / 750);
}

export function openaiImageTokens(
  size: { width: number; height: number },
  detail: string = 'high',
): number {
  if (detail === 'low') return 85;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const short = Math.min(1, 768 / Math.min(width, height));
  width *= short;
  height *= short;
  return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
}

/** A block's identity: its JSON without `cache_control` (a breakpoint does not change content). */
function keyOf(value: unknown, role = ''): string {
  return `${role}|${JSON.stringify(value, (k, v: unknown) => (k === 'cache_control' ? undefined : v))}`;
}

function hasBreakpoint(value: any): boolean {
  return typeof value === 'object' && value !== null && value.cache_control !== undefined;
}

function anthropicPartTokens(part: any): number {
  if (typeof part === 'string') return textTokens(part);
  if (part?.type === 'text') return textTokens(String(part.text ?? ''));
  if (part?.type === 'image' && part.source?.type === 'base64') {
    const size = pngSize(String(part.source.data));
    return size ? anthropicImageTokens(size) : 0;
  }
  if (part?.type === 'tool_result') {
    const content = typeof part.content === 'string' ? [part.content] : (part.content ?? []);
    return 5 + (content as unknown[]).reduce<number>((s, c) => s + anthropicPartTokens(c), 0);
  }
  return textTokens(JSON.stringify(part));
}

function anthropicBlocks(body: any): RawBlock[] {
  const out: RawBlock[] = [];
  for (const tool of body?.tools ?? []) {
    const tokens =
      typeof tool.type === 'string' && tool.type.startsWith('computer_')
        ? ANTHROPIC_COMPUTER_TOOL_TOKENS
        : textTokens(keyOf(tool));
    out.push({ tokens, breakpoint: hasBreakpoint(tool), key: keyOf(tool, 'tool') });
  }
  const system =
    typeof body?.system === 'string' ? [{ type: 'text', text: body.system }] : (body?.system ?? []);
  for (const s of system) {
    out.push({
      tokens: anthropicPartTokens(s),
      breakpoint: hasBreakpoint(s),
      key: keyOf(s, 'system'),
    });
  }
  for (const m of body?.messages ?? []) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const part of content ?? []) {
      out.push({
        tokens: anthropicPartTokens(part),
        breakpoint: hasBreakpoint(part),
        key: keyOf(part, m.role),
      });
    }
  }
  return out;
}

function openaiPartTokens(part: any): number {
  if (typeof part === 'string') return textTokens(part);
  if (part?.type === 'input_text' || part?.type === 'text') return textTokens(String(part.text));
  const url =
    part?.type === 'input_image'
      ? part.image_url
      : part?.type === 'image_url'
        ? part.image_url?.url
        : part?.type === 'computer_call_output'
          ? part.output?.image_url
          : null;
  if (typeof url === 'string') {
    const size = pngSize(url);
    const image = size ? openaiImageTokens(size, part.detail ?? part.image_url?.detail) : 0;
    return part.type === 'computer_call_output' ? image + 10 : image;
  }
  return textTokens(JSON.stringify(part));
}

function responsesBlocks(body: any): RawBlock[] {
  const out: RawBlock[] = [];
  for (const tool of body?.tools ?? []) {
    out.push({ tokens: textTokens(keyOf(tool)), breakpoint: false, key: keyOf(tool, 'tool') });
  }
  if (typeof body?.instructions === 'string') {
    out.push({
      tokens: textTokens(body.instructions),
      breakpoint: false,
      key: keyOf(body.instructions, 'instructions'),
    });
  }
  const input =
    typeof body?.input === 'string' ? [{ role: 'user', content: body.input }] : body?.input;
  for (const item of input ?? []) {
    if (item?.role && item.type === undefined) {
      const content = typeof item.content === 'string' ? [item.content] : item.content;
      for (const part of content ?? []) {
        out.push({
          tokens: openaiPartTokens(part),
          breakpoint: false,
          key: keyOf(part, item.role),
        });
      }
    } else {
      out.push({ tokens: openaiPartTokens(item), breakpoint: false, key: keyOf(item, 'item') });
    }
  }
  return out;
}

function chatBlocks(body: any): RawBlock[] {
  const out: RawBlock[] = [];
  for (const m of body?.messages ?? []) {
    const content = typeof m.content === 'string' ? [m.content] : m.content;
    for (const part of content ?? []) {
      out.push({ tokens: openaiPartTokens(part), breakpoint: false, key: keyOf(part, m.role) });
    }
  }
  if (body?.response_format) {
    const f = body.response_format;
    out.push({ tokens: textTokens(JSON.stringify(f)), breakpoint: false, key: keyOf(f, 'format') });
  }
  return out;
}
