import type { Turn } from '../provider';
import { cacheBreakpoints, shownScreens } from '../prompt';
import { ANTHROPIC_MAX_BREAKPOINTS, anthropicMove, anthropicProvider } from './anthropic.provider';
import { computerMove, openaiProvider } from './openai.provider';
import { openaiCompatibleProvider } from './openai-compatible.provider';

const png = (tag: string) => Buffer.from(`png-${tag}`);

function turn(extra: Partial<Turn> = {}): Turn {
  return {
    model: 'm',
    tool: 'computer_20250124',
    instructions: 'rules',
    intro: 'Task: t',
    timeline: [
      {
        screen: { png: png('old'), sha256: 'a'.repeat(64), label: 'The screen at step 1:' },
        line: '1. key Tab (a read): sent',
      },
    ],
    current: { png: png('now'), sha256: 'b'.repeat(64), label: 'The screen at step 2:' },
    ask: 'This is step 2.',
    cache: { timeline: true, current: true },
    display: { width: 1366, height: 768 },
    continuation: null,
    outcome: null,
    acknowledge: [],
    exchanges: [],
    maxOutputTokens: 1024,
    ...extra,
  };
}

/** Step n of a run whose every step had its own screen, with history_screens 3. */
function step(n: number): Turn {
  const history = Array.from({ length: n - 1 }, (_, i) => ({ screen_sha256: `sha-${i + 1}` }));
  const shown = shownScreens(history, 3);
  return turn({
    timeline: history.map((h, i) => ({
      screen: shown.has(i)
        ? { png: png(`s${i + 1}`), sha256: h.screen_sha256, label: `The screen at step ${i + 1}:` }
        : null,
      line: `${i + 1}. key Tab (a read): sent`,
    })),
    current: { png: png(`s${n}`), sha256: `sha-${n}`, label: `The screen at step ${n}:` },
    ask: `This is step ${n}.`,
    cache: cacheBreakpoints(n - 1, 3),
  });
}

function many(count: number, screens: boolean): Turn['timeline'] {
  return Array.from({ length: count }, (_, i) => ({
    screen: screens
      ? { png: png(`m${i}`), sha256: `m${i}`, label: `The screen at step ${i}:` }
      : null,
    line: `${i + 1}. wait 1 s: sent`,
  }));
}

/** Paths of every block with `cache_control`, in the cache's order (tools, system, messages). */
function breakpoints(body: any): string[] {
  const out: string[] = [];
  body.tools.forEach((t: any, i: number) => t.cache_control && out.push(`tools.${i}`));
  body.system.forEach((t: any, i: number) => t.cache_control && out.push(`system.${i}`));
  body.messages.forEach((m: any, i: number) =>
    m.content.forEach(
      (c: any, j: number) => c.cache_control && out.push(`messages.${i}.content.${j}`),
    ),
  );
  return out;
}

function at(body: any, path: string): any {
  return path.split('.').reduce((v, k) => v[k], body);
}

function withoutBreakpoint(block: any): any {
  const { cache_control: _, ...rest } = block;
  return rest;
}

describe('anthropic', () => {
  it('maps the computer tool’s actions onto Warden’s, and refuses what Warden does not have', () => {
    expect(anthropicMove('computer', { action: 'left_click', coordinate: [3, 4] })).toEqual({
      kind: 'action',
      action: { action: 'click', x: 3, y: 4 },
    });
    expect(anthropicMove('computer', { action: 'double_click', coordinate: [3, 4] })).toEqual({
      kind: 'action',
      action: { action: 'double_click', x: 3, y: 4 },
    });
    expect(anthropicMove('computer', { action: 'key', text: 'ctrl+s' })).toEqual({
      kind: 'action',
      action: { action: 'key', key: 'ctrl+s' },
    });
    expect(
      anthropicMove('computer', {
        action: 'scroll',
        coordinate: [1, 2],
        scroll_direction: 'down',
        scroll_amount: 5,
      }),
    ).toEqual({
      kind: 'action',
      action: { action: 'scroll', x: 1, y: 2, direction: 'down', amount: 5 },
    });
    expect(anthropicMove('computer', { action: 'wait', duration: 2 })).toEqual({
      kind: 'action',
      action: { action: 'wait', seconds: 2 },
    });
    expect(anthropicMove('computer', { action: 'screenshot' })).toEqual({ kind: 'look' });
    expect(anthropicMove('done', { summary: 's' })).toEqual({
      kind: 'action',
      action: { action: 'done', summary: 's' },
    });
    for (const action of [
      'right_click',
      'middle_click',
      'triple_click',
      'mouse_move',
      'left_click_drag',
      'hold_key',
    ]) {
      const move = anthropicMove('computer', { action, coordinate: [1, 1] });
      expect(move).toMatchObject({ kind: 'refused', answer: { action } });
    }
    expect(anthropicMove('computer', { action: 'left_click' })).toMatchObject({ kind: 'refused' });
    expect(
      anthropicMove('computer', { action: 'left_click', coordinate: [1, 1], text: 'shift' }),
    ).toMatchObject({ kind: 'refused', note: expect.stringMatching(/Holding keys/) });
  });

  it('sends the tool with the scaled display, and the run as one message: no previous turn', () => {
    const body = anthropicProvider.request(turn()) as any;
    expect(body.tools[0]).toEqual({
      type: 'computer_20250124',
      name: 'computer',
      display_width_px: 1366,
      display_height_px: 768,
    });
    expect(body.betas).toEqual(['computer-use-2025-01-24']);
    expect(body.messages.map((m: any) => m.role)).toEqual(['user']);
    expect(body.messages[0].content.map((c: any) => c.text ?? c.type)).toEqual([
      'Task: t',
      'The screen at step 1:',
      'image',
      '1. key Tab (a read): sent',
      'The screen at step 2:',
      'image',
      'This is step 2.',
    ]);
  });

  it('puts cache breakpoints on the tools, the system prompt, the timeline’s end and the current screen', () => {
    const body = anthropicProvider.request(turn()) as any;
    const marked = breakpoints(body);
    expect(marked).toEqual(['tools.2', 'system.0', 'messages.0.content.3', 'messages.0.content.5']);
    expect(marked.length).toBeLessThanOrEqual(ANTHROPIC_MAX_BREAKPOINTS);
    for (const path of marked) {
      expect(at(body, path).cache_control).toEqual({ type: 'ephemeral' });
    }
    // Without earlier steps (or with none of their screens shown) there are still at most four.
    const first = anthropicProvider.request(turn({ timeline: [] })) as any;
    expect(breakpoints(first)).toEqual([
      'tools.2',
      'system.0',
      'messages.0.content.0',
      'messages.0.content.2',
    ]);
    expect(
      breakpoints(anthropicProvider.request(turn({ timeline: many(30, false) }))),
    ).toHaveLength(4);
    // What the next step will not read is not written (a write costs 1.25 × input).
    const dropping = turn({ cache: { timeline: false, current: false } });
    expect(breakpoints(anthropicProvider.request(dropping))).toEqual(['tools.2', 'system.0']);
    const noScreens = turn({ cache: { timeline: true, current: false } });
    expect(breakpoints(anthropicProvider.request(noScreens))).toEqual([
      'tools.2',
      'system.0',
      'messages.0.content.3',
    ]);
  });

  it('sends step n+1 a request that starts with step n’s up to its current screen', () => {
    for (let n = 1; n <= 8; n++) {
      const before = anthropicProvider.request(step(n)) as any;
      const after = anthropicProvider.request(step(n + 1)) as any;
      const blocks = (b: any) => b.messages[0].content.map(withoutBreakpoint);
      expect(after.system.map(withoutBreakpoint)).toEqual(before.system.map(withoutBreakpoint));
      expect(after.tools.map(withoutBreakpoint)).toEqual(before.tools.map(withoutBreakpoint));
      const shared = blocks(before).length - 1; // all but what is asked
      if (!(n > 1 && n % 3 === 1)) {
        // Within a block of history_screens (3) steps: everything up to the current screen.
        expect(blocks(after).slice(0, shared)).toEqual(blocks(before).slice(0, shared));
      } else {
        // Screens are dropped three at a time: then only the intro and the lines before them.
        expect(blocks(after)[0]).toEqual(blocks(before)[0]);
      }
    }
  });
  it('reads usage, including cached input, and leaves unknown usage null', () => {
    const read = anthropicProvider.read({
      content: [{ type: 'tool_use', id: 't', name: 'computer', input: { action: 'screenshot' } }],
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 90 },
    });
    expect(read.usage).toEqual({
      input_tokens: 100,
      output_tokens: 5,
      cache_read_tokens: 90,
      cache_write_tokens: 0,
    });
    expect(
      anthropicProvider.read({
        content: [],
        usage: {
          input_tokens: 10,
          output_tokens: 5,
          cache_read_input_tokens: 90,
          cache_creation_input_tokens: 20,
        },
      }).usage,
    ).toEqual({
      input_tokens: 120,
      output_tokens: 5,
      cache_read_tokens: 90,
      cache_write_tokens: 20,
    });
    expect(anthropicProvider.read({ content: [] }).usage).toEqual({
      input_tokens: null,
      output_tokens: null,
      cache_read_tokens: null,
      cache_write_tokens: null,
    });
    expect(anthropicProvider.read('garbage').move).toMatchObject({ kind: 'refused' });
  });
});

describe('openai', () => {
  it('maps computer calls onto Warden’s actions', () => {
    expect(computerMove({ action: { type: 'click', button: 'left', x: 1, y: 2 } })).toEqual({
      kind: 'action',
      action: { action: 'click', x: 1, y: 2 },
    });
    expect(computerMove({ action: { type: 'keypress', keys: ['CTRL', 'S'] } })).toEqual({
      kind: 'action',
      action: { action: 'key', key: 'CTRL+S' },
    });
    expect(
      computerMove({ action: { type: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: -300 } }),
    ).toEqual({
      kind: 'action',
      action: { action: 'scroll', x: 5, y: 6, direction: 'up', amount: 3 },
    });
    expect(computerMove({ action: { type: 'wait' } })).toMatchObject({
      action: { action: 'wait' },
    });
    expect(computerMove({ action: { type: 'screenshot' } })).toEqual({ kind: 'look' });
    for (const action of [
      { type: 'click', button: 'right', x: 1, y: 1 },
      { type: 'move', x: 1, y: 1 },
      { type: 'drag', path: [] },
    ]) {
      expect(computerMove({ action })).toMatchObject({ kind: 'refused' });
    }
    expect(computerMove({ actions: [{ type: 'wait' }, { type: 'wait' }] })).toMatchObject({
      kind: 'refused',
    });
  });

  it('keeps pending safety checks with the action and the call to continue', () => {
    const read = openaiProvider.read({
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'x'.repeat(100) },
        {
          type: 'computer_call',
          id: 'cu_1',
          call_id: 'call_1',
          action: { type: 'click', button: 'left', x: 1, y: 1 },
          pending_safety_checks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'm' }],
        },
      ],
      usage: { input_tokens: 7, output_tokens: 3 },
    });
    expect(read.safetyChecks).toEqual([
      { id: 'sc_1', code: 'malicious_instructions', message: 'm' },
    ]);
    expect(read.continuation).toMatchObject({ provider: 'openai', call_id: 'call_1' });
    expect(JSON.stringify(read.record)).not.toContain('x'.repeat(100));
  });

  it('acknowledges safety checks in the computer_call_output only when told to', () => {
    const continuation = {
      provider: 'openai' as const,
      items: [{ type: 'computer_call', call_id: 'call_1' }],
      call_id: 'call_1',
      call_type: 'computer_call' as const,
      safety_checks: [{ id: 'sc_1', code: 'c', message: null }],
    };
    // Not approved: the call is not continued, and the screen comes as the timeline's last.
    const plain = openaiProvider.request(turn({ continuation })) as any;
    expect(plain.input).toHaveLength(1);
    expect(plain.raw).toBeUndefined();
    expect(JSON.stringify(plain)).not.toContain('acknowledged_safety_checks');
    const acked = openaiProvider.request(
      turn({ continuation, acknowledge: continuation.safety_checks }),
    ) as any;
    expect(
      acked.input.find((i: any) => i.type === 'computer_call_output').acknowledged_safety_checks,
    ).toEqual([{ id: 'sc_1', code: 'c', message: null }]);
    expect(plain.tools[0]).toMatchObject({ type: 'computer_use_preview', display_width: 1366 });
    expect(plain.truncation).toBe('auto');
    expect(plain.previous_response_id).toBeUndefined();
  });

  it('reads cached input tokens as part of the input', () => {
    const read = openaiProvider.read({
      output: [],
      usage: {
        input_tokens: 5000,
        output_tokens: 3,
        input_tokens_details: { cached_tokens: 4096 },
      },
    });
    expect(read.usage).toEqual({ input_tokens: 5000, output_tokens: 3, cache_read_tokens: 4096 });
  });

  it('sends step n+1 a request that starts with step n’s timeline: automatic caching applies', () => {
    for (let n = 2; n <= 8; n++) {
      const continuation = {
        provider: 'openai' as const,
        items: [{ type: 'computer_call', call_id: `call_${n}` }],
        call_id: `call_${n}`,
        call_type: 'computer_call' as const,
        safety_checks: [],
      };
      const before = openaiProvider.request({ ...step(n), continuation }) as any;
      const after = openaiProvider.request({ ...step(n + 1), continuation }) as any;
      expect(after.instructions).toBe(before.instructions);
      expect(after.tools).toEqual(before.tools);
      const [head] = before.input;
      // Screens are dropped three at a time (at steps 5 and 8 here); between, the timeline grows.
      if (!(n > 1 && n % 3 === 1)) {
        // All but what is asked at its end.
        const shared = head.content.length - 1;
        expect(after.input[0].content.slice(0, shared)).toEqual(head.content.slice(0, shared));
      }
    }
  });
});

describe('openai-compatible', () => {
  it('reads one JSON action, drops the nulls, and refuses anything else', () => {
    const ok = openaiCompatibleProvider.read({
      choices: [
        {
          message: {
            content: JSON.stringify({ action: 'click', x: 1, y: 2, text: null, key: null }),
          },
        },
      ],
      usage: { prompt_tokens: 4, completion_tokens: 2 },
    });
    expect(ok.move).toEqual({ kind: 'action', action: { action: 'click', x: 1, y: 2 } });
    expect(ok.usage).toEqual({ input_tokens: 4, output_tokens: 2, cache_read_tokens: 0 });
    expect(
      openaiCompatibleProvider.read({
        choices: [],
        usage: {
          prompt_tokens: 4000,
          completion_tokens: 2,
          prompt_tokens_details: { cached_tokens: 3072 },
        },
      }).usage,
    ).toEqual({ input_tokens: 4000, output_tokens: 2, cache_read_tokens: 3072 });
    for (const content of ['click the button', '[1,2]', '{"x":1}', '']) {
      expect(
        openaiCompatibleProvider.read({ choices: [{ message: { content } }] }).move,
      ).toMatchObject({ kind: 'refused', answer: { model_answer: expect.any(String) } });
    }
  });

  it('asks for one action by JSON schema with every image as a data URL', () => {
    const body = openaiCompatibleProvider.request(turn()) as any;
    expect(body.response_format.json_schema.schema.required).toContain('action');
    const images = body.messages[1].content.filter((c: any) => c.type === 'image_url');
    expect(images).toHaveLength(2);
    expect(images[1].image_url.url).toBe(`data:image/png;base64,${png('now').toString('base64')}`);
  });
});
