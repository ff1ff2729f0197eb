import type { Turn } from '../provider';
import { anthropicMove, anthropicProvider } from './anthropic.provider';
import { computerMove, openaiProvider } from './openai.provider';
import { openaiCompatibleProvider } from './openai-compatible.provider';

const png = (tag: string) => Buffer.from(`png-${tag}`);

function turn(extra: Partial<Turn> = {}): Turn {
  return {
    model: 'm',
    instructions: 'rules',
    intro: 'Task: t',
    history: [{ png: png('old'), sha256: 'a'.repeat(64), label: 'The screen at step 1:' }],
    current: { png: png('now'), sha256: 'b'.repeat(64), label: 'The current screen:' },
    display: { width: 1366, height: 768 },
    continuation: null,
    outcome: null,
    acknowledge: [],
    maxOutputTokens: 1024,
    ...extra,
  };
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

  it('sends the tool with the scaled display, and continues the previous tool call', () => {
    const body = anthropicProvider.request(
      turn({
        continuation: {
          provider: 'anthropic',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'computer', input: {} }],
          tool_use_id: 'toolu_1',
        },
        outcome: { text: 'Refused: no.', error: true },
      }),
    ) as any;
    expect(body.tools[0]).toEqual({
      type: 'computer_20250124',
      name: 'computer',
      display_width_px: 1366,
      display_height_px: 768,
    });
    expect(body.betas).toEqual(['computer-use-2025-01-24']);
    expect(body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
    });
  });

  it('reads usage, including cached input, and leaves unknown usage null', () => {
    const read = anthropicProvider.read({
      content: [{ type: 'tool_use', id: 't', name: 'computer', input: { action: 'screenshot' } }],
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 90 },
    });
    expect(read.usage).toEqual({ input_tokens: 100, output_tokens: 5 });
    expect(anthropicProvider.read({ content: [] }).usage).toEqual({
      input_tokens: null,
      output_tokens: null,
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
    const plain = openaiProvider.request(turn({ continuation })) as any;
    const output = plain.input.find((i: any) => i.type === 'computer_call_output');
    expect(output.acknowledged_safety_checks).toBeUndefined();
    const acked = openaiProvider.request(
      turn({ continuation, acknowledge: continuation.safety_checks }),
    ) as any;
    expect(
      acked.input.find((i: any) => i.type === 'computer_call_output').acknowledged_safety_checks,
    ).toEqual([{ id: 'sc_1', code: 'c', message: null }]);
    expect(plain.tools[0]).toMatchObject({ type: 'computer_use_preview', display_width: 1366 });
    expect(plain.truncation).toBe('auto');
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
    expect(ok.usage).toEqual({ input_tokens: 4, output_tokens: 2 });
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
