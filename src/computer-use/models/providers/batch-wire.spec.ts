import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { anthropicToolset, openaiActions } from '../../../../test/support/fake-batches';
import type { Exchange, Turn } from '../provider';
import {
  ANTHROPIC_MAX_BREAKPOINTS,
  anthropicProvider,
  TOOLSET_MEMBERS_OFF,
} from './anthropic.provider';
import { openaiProvider } from './openai.provider';

/**
 * Today's tools on the wire: the fake provider's answers (typed as the SDKs type the providers'
 * responses) read into batches, and the requests that carry an earlier answer with its results in
 * the provider's own format (each `tool_use` answered by its `tool_result`, a `computer_call` by its
 * `computer_call_output`).
 */

const png = (tag: string) => Buffer.from(`png-${tag}`);
const image = (tag: string) => ({
  png: png(tag),
  sha256: tag.padEnd(64, '0'),
  label: `The screen ${tag}:`,
});

function turn(tool: Turn['tool'], exchanges: Exchange[] = []): Turn {
  return {
    model: 'm',
    tool,
    instructions: 'rules',
    intro: 'Task: t',
    timeline: [{ screen: null, line: '1. key Tab (a read): sent' }],
    current: image('base'),
    ask: 'This is step 2.',
    cache: exchanges.length
      ? { timeline: false, current: true }
      : { timeline: true, current: true },
    display: { width: 1280, height: 800 },
    continuation: null,
    outcome: null,
    acknowledge: [],
    exchanges,
    maxOutputTokens: 2048,
  };
}

function breakpoints(body: any): number {
  return JSON.stringify(body).split('"cache_control"').length - 1;
}

describe("Anthropic's computer toolset", () => {
  const answer = anthropicToolset(
    [
      { name: 'left_click', input: { coordinate: [10, 20] } },
      { name: 'type', input: { text: '4711' } },
      { name: 'key', input: { text: 'Tab', repeat: 2 } },
      { name: 'zoom', input: { region: [0, 0, 100, 50] } },
      { name: 'screenshot', input: {} },
      { tool: 'done', input: { summary: 'ok' } },
    ],
    { text: 'I click the field and type.' },
  );
  // The fake's answer is the SDK's Message; the provider reads it as it comes off the wire.
  const message: Anthropic.Messages.Message = answer.json;
  const read = anthropicProvider.read(JSON.parse(JSON.stringify(message)));

  it('reads an answer of several member calls as a batch, in order, each with its id', () => {
    expect(read.calls.map((c) => c.move)).toEqual([
      { kind: 'action', action: { action: 'click', x: 10, y: 20 } },
      { kind: 'action', action: { action: 'type', text: '4711' } },
      {
        kind: 'refused',
        answer: { action: 'key' },
        note: expect.stringMatching(/once per action/),
      },
      { kind: 'zoom', region: [0, 0, 100, 50] },
      { kind: 'look' },
      { kind: 'action', action: { action: 'done', summary: 'ok' } },
    ]);
    const ids = message.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    expect(read.calls.map((c) => c.id)).toEqual(ids);
    expect(read.calls.map((c) => c.toolset)).toEqual([true, true, true, true, true, false]);
    // Sent back as request blocks: the text and each call, with its toolset.
    expect(read.echo).toHaveLength(7);
    expect(read.echo[1]).toMatchObject({
      type: 'tool_use',
      name: 'left_click',
      toolset_name: 'computer',
    });
  });

  it('is one tools[] entry with no display size, the members Warden does not offer switched off', () => {
    const body = anthropicProvider.request(turn('computer_toolset_20260801')) as any;
    expect(body.betas).toBeUndefined();
    expect(body.tools[0]).toEqual({
      type: 'computer_toolset_20260801',
      configs: Object.fromEntries(TOOLSET_MEMBERS_OFF.map((m) => [m, { enabled: false }])),
    });
    for (const m of [
      'left_click',
      'double_click',
      'type',
      'key',
      'scroll',
      'wait',
      'screenshot',
      'zoom',
    ]) {
      expect(body.tools[0].configs[m]).toBeUndefined();
    }
    expect(body.tools.slice(1).map((t: any) => t.name)).toEqual(['done', 'fail']);
  });

  it('the single tools go with their beta and the display size', () => {
    const body = anthropicProvider.request(turn('computer_20251124')) as any;
    expect(body.betas).toEqual(['computer-use-2025-11-24']);
    expect(body.tools[0]).toEqual({
      type: 'computer_20251124',
      name: 'computer',
      display_width_px: 1280,
      display_height_px: 800,
    });
  });

  it('answers every call of the previous answer with its tool_result, in the next user message', () => {
    const exchange: Exchange = {
      echo: read.echo,
      callId: null,
      functionCalls: [],
      results: read.calls.map((c, i) => ({
        id: c.id,
        toolset: c.toolset,
        text: i < 2 ? `Call ${i + 1}: sent` : `Call ${i + 1}: not executed: a write was held.`,
        error: i >= 2,
        ...(i === 4 ? { image: image('look') } : {}),
      })),
      screen: image('after'),
      acknowledge: [],
      ask: 'This is step 4.',
    };
    const body = anthropicProvider.request(turn('computer_toolset_20260801', [exchange])) as any;
    expect(body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    const results = body.messages[2].content.filter((b: any) => b.type === 'tool_result');
    expect(results.map((r: any) => r.tool_use_id)).toEqual(read.calls.map((c) => c.id));
    expect(results.map((r: any) => r.toolset_name ?? null)).toEqual([
      'computer',
      'computer',
      'computer',
      'computer',
      'computer',
      null,
    ]);
    expect(results.map((r: any) => r.is_error === true)).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect(results[4].content.map((c: any) => c.type)).toEqual(['text', 'image']);
    // The tool_results first, then the screen after the answer and what is asked.
    expect(body.messages[2].content.slice(-3).map((b: any) => b.type)).toEqual([
      'text',
      'image',
      'text',
    ]);
    expect(breakpoints(body)).toBeLessThanOrEqual(ANTHROPIC_MAX_BREAKPOINTS);
    // The request as the SDK types it.
    const typed: Anthropic.Messages.MessageCreateParamsNonStreaming = body;
    expect(typed.messages).toHaveLength(3);
  });

  it('never marks more breakpoints than the API takes, however long the conversation', () => {
    const exchange = (n: number): Exchange => ({
      echo: [
        {
          type: 'tool_use',
          id: `t${n}`,
          name: 'key',
          input: { text: 'Tab' },
          toolset_name: 'computer',
        },
      ],
      callId: null,
      functionCalls: [],
      results: [{ id: `t${n}`, toolset: true, text: 'sent', error: false }],
      screen: image(`s${n}`),
      acknowledge: [],
      ask: `step ${n}`,
      mark: true,
    });
    for (let count = 0; count < 6; count++) {
      const t = turn(
        'computer_toolset_20260801',
        Array.from({ length: count }, (_, i) => exchange(i)),
      );
      for (const cache of [
        { timeline: true, current: false },
        { timeline: false, current: true },
        { timeline: false, current: false },
      ]) {
        expect(breakpoints(anthropicProvider.request({ ...t, cache }))).toBeLessThanOrEqual(
          ANTHROPIC_MAX_BREAKPOINTS,
        );
      }
    }
  });
});

describe("OpenAI's GA computer tool", () => {
  const answer = openaiActions([
    { type: 'click', button: 'left', x: 5, y: 6 },
    { type: 'type', text: '30.04.2026' },
    { type: 'keypress', keys: ['ENTER'] },
    { type: 'click', button: 'right', x: 1, y: 1 },
  ]);
  const response: Omit<OpenAI.Responses.Response, 'output_text'> = answer.json;
  const read = openaiProvider.read(JSON.parse(JSON.stringify(response)));

  it("reads a computer_call's actions as a batch, in order", () => {
    expect(read.calls.map((c) => c.move)).toEqual([
      { kind: 'action', action: { action: 'click', x: 5, y: 6 } },
      { kind: 'action', action: { action: 'type', text: '30.04.2026' } },
      { kind: 'action', action: { action: 'key', key: 'ENTER' } },
      {
        kind: 'refused',
        answer: { action: 'click', x: 1, y: 1 },
        note: expect.stringMatching(/right click/),
      },
    ]);
    const call = response.output.find((o) => o.type === 'computer_call')!;
    expect(read.callId).toBe(call.call_id);
    expect(read.echo.map((i: any) => i.type)).toEqual(['reasoning', 'computer_call']);
  });

  it('is the computer tool with no display size, and answers the call with its output and the results', () => {
    const exchange: Exchange = {
      echo: read.echo,
      callId: read.callId,
      functionCalls: [],
      results: read.calls.map((_, i) => ({
        id: null,
        toolset: false,
        text: i === 0 ? 'Call 1: sent' : `Call ${i + 1}: not executed: held.`,
        error: i > 0,
      })),
      screen: image('after'),
      acknowledge: [{ id: 'sc_1', code: 'malicious_instructions', message: 'm' }],
      ask: 'This is step 3.',
    };
    const body = openaiProvider.request(turn('computer', [exchange])) as any;
    expect(body.tools[0]).toEqual({ type: 'computer' });
    const types = body.input.map((i: any) => i.type ?? i.role);
    expect(types).toEqual(['user', 'reasoning', 'computer_call', 'computer_call_output', 'user']);
    expect(body.input[3]).toMatchObject({
      call_id: read.callId,
      output: { type: 'computer_screenshot' },
      acknowledged_safety_checks: [{ id: 'sc_1' }],
    });
    const texts = body.input[4].content.map((p: any) => p.text);
    expect(texts.slice(0, 4)).toEqual([
      'Call 1: sent',
      'Call 2: not executed: held.',
      'Call 3: not executed: held.',
      'Call 4: not executed: held.',
    ]);
    const typed: OpenAI.Responses.ResponseCreateParamsNonStreaming = body;
    expect(typed.input).toHaveLength(5);
  });

  it('the preview model keeps its tool with the display size', () => {
    const body = openaiProvider.request(turn('computer_use_preview')) as any;
    expect(body.tools[0]).toMatchObject({ type: 'computer_use_preview', display_width: 1280 });
  });
});
