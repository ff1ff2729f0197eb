import { PNG } from 'pngjs';
import {
  anthropicImageTokens,
  openaiImageTokens,
  pngSize,
  textTokens,
  TokenCounter,
} from '../support/fake-tokens';

/**
 * The fake provider's token counts and prompt caching (test/support/fake-tokens.ts), which the
 * caching measurements rest on: deterministic, and caching only where the real APIs would.
 */

const png = (width: number, height: number) =>
  PNG.sync.write(new PNG({ width, height })).toString('base64');
const SCREEN = png(1280, 800);
const OTHER = png(1280, 801);
const cached = { type: 'ephemeral' };

function anthropicBody(
  blocks: Array<Record<string, unknown>>,
  systemText = 'rules '.repeat(800),
): any {
  return {
    system: [{ type: 'text', text: systemText, cache_control: cached }],
    tools: [{ type: 'computer_20250124', name: 'computer' }],
    messages: [{ role: 'user', content: blocks }],
  };
}

const text = (t: string, mark = false) => ({
  type: 'text',
  text: t,
  ...(mark ? { cache_control: cached } : {}),
});
const image = (data: string, mark = false) => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data },
  ...(mark ? { cache_control: cached } : {}),
});

describe('the fake provider’s token counts', () => {
  it('counts text by characters and images by size, as each provider prices them', () => {
    expect(textTokens('abcdefghi')).toBe(3);
    expect(pngSize(SCREEN)).toEqual({ width: 1280, height: 800 });
    expect(pngSize(`data:image/png;base64,${SCREEN}`)).toEqual({ width: 1280, height: 800 });
    expect(pngSize('bm90IGEgcG5n')).toBeNull();
    expect(anthropicImageTokens({ width: 1280, height: 800 })).toBe(1366);
    // 1280x800 → 1229x768: 3 × 2 tiles.
    expect(openaiImageTokens({ width: 1280, height: 800 })).toBe(85 + 170 * 6);
    expect(openaiImageTokens({ width: 1280, height: 800 }, 'low')).toBe(85);
  });

  it('anthropic: writes at breakpoints, reads the longest written prefix within 20 blocks', () => {
    const counter = new TokenCounter();
    const step1 = anthropicBody([
      text('Task: t'),
      text('The screen at step 1:'),
      image(SCREEN, true),
      text('ask 1'),
    ]);
    const first = counter.anthropic(step1) as any;
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1366);
    expect(first.input_tokens).toBe(textTokens('ask 1'));
    // The same again: everything up to the last breakpoint is read.
    const again = counter.anthropic(step1) as any;
    expect(again).toEqual({
      input_tokens: first.input_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: first.cache_creation_input_tokens,
    });
    // The next step: the same up to the screen, then more; read that, write the rest.
    const step2 = anthropicBody([
      text('Task: t'),
      text('The screen at step 1:'),
      image(SCREEN),
      text('1. key Tab (a read): sent', true),
      text('The screen at step 2:'),
      image(OTHER, true),
      text('ask 2'),
    ]);
    const second = counter.anthropic(step2) as any;
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe(
      textTokens('1. key Tab (a read): sent') +
        textTokens('The screen at step 2:') +
        anthropicImageTokens({ width: 1280, height: 801 }),
    );
    // A change before the screen: only the system prompt and tools are read.
    const changed = counter.anthropic(
      anthropicBody([text('Task: another'), text('The screen at step 1:'), image(SCREEN, true)]),
    ) as any;
    expect(changed.cache_read_input_tokens).toBe(735 + textTokens('rules '.repeat(800)));
  });

  it('anthropic: no breakpoint, no cache; under 1024 tokens, no write; more than four, the API’s 400', () => {
    const counter = new TokenCounter();
    const plain = {
      system: 'short',
      messages: [{ role: 'user', content: [text('Task: t'), image(SCREEN)] }],
    };
    counter.anthropic(plain);
    expect(counter.anthropic(plain)).toMatchObject({ cache_read_input_tokens: 0 });
    const small = anthropicBody([text('hello', true)], 'short');
    expect(counter.anthropic(small)).toMatchObject({ cache_creation_input_tokens: 0 });
    expect(counter.anthropic(small)).toMatchObject({ cache_read_input_tokens: 0 });
    const five = anthropicBody([1, 2, 3, 4].map((i) => text(`t${i}`, true)));
    expect(counter.anthropic(five)).toMatch(/maximum of 4 blocks with cache_control/);
  });

  it('openai: reads the longest earlier prefix from 1024 tokens, in steps of 128', () => {
    const counter = new TokenCounter();
    const body = (extra: unknown[]) => ({
      instructions: 'rules',
      tools: [],
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Task: t' },
            { type: 'input_image', image_url: `data:image/png;base64,${SCREEN}`, detail: 'high' },
            ...extra,
          ],
        },
      ],
    });
    const first = counter.openai(body([{ type: 'input_text', text: 'ask 1' }]), 'openai');
    expect(first.cached_tokens).toBe(0);
    const next = counter.openai(body([{ type: 'input_text', text: 'x'.repeat(4000) }]), 'openai');
    const common = textTokens('rules') + textTokens('Task: t') + 85 + 170 * 6;
    expect(next.input_tokens).toBe(common + 1000);
    expect(next.cached_tokens).toBe(1024 + Math.floor((common - 1024) / 128) * 128);
    const short = new TokenCounter();
    const tiny = { instructions: 'rules', input: [{ role: 'user', content: 'hi' }] };
    short.openai(tiny, 'openai');
    expect(short.openai(tiny, 'openai').cached_tokens).toBe(0);
  });
});
