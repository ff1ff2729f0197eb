import type OpenAI from 'openai';
import {
  excerpt,
  isRecord,
  parseJson,
  type Provider,
  type Move,
  type ProviderAnswer,
  type SendOptions,
  str,
  tokens,
  type Turn,
} from '../provider';
import { openaiClient } from './openai.provider';

/**
 * Any OpenAI-compatible server (vLLM, Ollama, LM Studio …): chat completions with the screenshots
 * as images and a JSON schema for exactly one action, through `openai` pointed at `base_url`. The
 * schema is flat (every field present, unused ones null) because that is what guided decoding in
 * self-hosted servers handles best.
 */
const nullable = (type: string) => ({ type: [type, 'null'] });

export const ACTION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    action: {
      type: 'string',
      enum: ['click', 'double_click', 'type', 'key', 'scroll', 'wait', 'done', 'fail'],
    },
    x: nullable('integer'),
    y: nullable('integer'),
    target: nullable('string'),
    text: nullable('string'),
    key: nullable('string'),
    direction: { type: ['string', 'null'], enum: ['up', 'down', 'left', 'right', null] },
    amount: nullable('integer'),
    seconds: nullable('number'),
    summary: nullable('string'),
    reason: nullable('string'),
  },
  required: [
    'action',
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
  ],
} as const;

const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i;

function imagePart(png: Buffer) {
  return {
    type: 'image_url',
    image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
  };
}

export const openaiCompatibleProvider: Provider = {
  name: 'openai-compatible',

  request(turn: Turn): Record<string, unknown> {
    // The timeline only grows at its end: servers with prefix caching (vLLM) reuse the rest.
    const content: unknown[] = [{ type: 'text', text: turn.intro }];
    for (const entry of turn.timeline) {
      if (entry.screen) {
        content.push({ type: 'text', text: entry.screen.label }, imagePart(entry.screen.png));
      }
      content.push({ type: 'text', text: entry.line });
    }
    content.push({ type: 'text', text: turn.current.label }, imagePart(turn.current.png), {
      type: 'text',
      text: turn.ask,
    });
    return {
      model: turn.model,
      messages: [
        { role: 'system', content: turn.instructions },
        { role: 'user', content },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'warden_action', strict: true, schema: ACTION_SCHEMA },
      },
      max_tokens: turn.maxOutputTokens,
    };
  },

  async send(body: Record<string, unknown>, o: SendOptions): Promise<unknown> {
    return openaiClient(o).chat.completions.create(
      body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
      { signal: o.signal },
    );
  },

  read(raw: unknown): ProviderAnswer {
    const r = isRecord(raw) ? raw : {};
    const choice = Array.isArray(r.choices) && isRecord(r.choices[0]) ? r.choices[0] : {};
    const message = isRecord(choice.message) ? choice.message : {};
    const usage = isRecord(r.usage) ? r.usage : null;
    const said = typeof message.content === 'string' ? message.content : '';
    const input = tokens(usage?.prompt_tokens);
    const details = isRecord(usage?.prompt_tokens_details) ? usage.prompt_tokens_details : null;
    const base = {
      usage: {
        input_tokens: input,
        output_tokens: tokens(usage?.completion_tokens),
        // Servers with prefix caching (OpenAI, vLLM) say how much of the prompt was cached.
        cache_read_tokens: input === null ? null : (tokens(details?.cached_tokens) ?? 0),
      },
      continuation: null,
      safetyChecks: [],
      echo: [],
      callId: null,
      functionCalls: [],
      record: {
        id: str(r.id),
        model: str(r.model),
        finish_reason: str(choice.finish_reason),
        content: said,
        refusal: str(message.refusal),
        usage,
      },
    };
    const trimmed = said.trim();
    const parsed = parseJson(FENCE.exec(trimmed)?.[1] ?? trimmed);
    const one = (move: Move): ProviderAnswer => ({
      ...base,
      move,
      calls: [{ id: null, toolset: false, move }],
    });
    if (!isRecord(parsed) || typeof parsed.action !== 'string') {
      return one({
        kind: 'refused',
        answer: { model_answer: excerpt(said || str(message.refusal) || 'an empty answer') },
        note: 'Your answer was not one JSON object with an "action". Answer with exactly one.',
      });
    }
    // Fields the schema made null are fields the action does not have.
    const action = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== null));
    return one({ kind: 'action', action });
  },
};
