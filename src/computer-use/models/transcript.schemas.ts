import {
  anyObject,
  type ApiSchemas,
  integer,
  record,
  text,
  time,
  uuid,
} from '../../common/api-schema';

const count = (description?: string) => ({ ...integer(description), nullable: true });

/** What a step asked its model and what it answered (no screenshot bytes). */
export const TRANSCRIPT_SCHEMAS: ApiSchemas = {
  ModelCall: record({
    seq: integer(),
    provider: text(),
    model: text(),
    request: anyObject('as sent, screenshots replaced by `{screen_sha256, width, height}`'),
    answer: { ...anyObject(), nullable: true },
    error: { ...anyObject(), nullable: true },
    attempts: { type: 'array', items: anyObject() },
    input_tokens: count('null: the provider did not say'),
    cache_read_tokens: count(),
    cache_write_tokens: count(),
    uncached_input_tokens: count(),
    output_tokens: count(),
    cost_usd: { type: 'number', nullable: true },
    latency_ms: { type: 'number' },
    created_at: time(),
  }),
  Transcript: record({
    run_id: uuid,
    n: integer(),
    calls: { type: 'array', items: { $ref: '#/components/schemas/ModelCall' } },
  }),
};
