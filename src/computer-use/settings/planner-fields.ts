import { IsString, IsUrl, Matches } from 'class-validator';
import { BOUNDS, ENV_NAME_PATTERN, MODEL_PROVIDERS } from './config-bounds';
import { ENV_NAME_MESSAGE, HTTP_URL } from './dto/field-checks';
import type { FieldTable, IntField, NumberField } from './field-table';

/**
 * The fields of an agent's `planner` when it names a model: the one place each is declared, with
 * its default and bounds (docs/config-fields.md). Budgets and prices left out are `null`: no cap,
 * unknown price.
 */

const tokens: IntField = {
  kind: 'int',
  default: null,
  min: 1,
  max: BOUNDS.tokens,
  showBounds: 'min',
};
const usd = (description?: string): NumberField => ({
  kind: 'number',
  default: null,
  min: 0,
  max: BOUNDS.usd,
  showBounds: 'min',
  ...(description ? { doc: { description } } : {}),
});

export const MODEL_PLANNER_FIELD_SPECS = {
  provider: { kind: 'enum', required: true, values: MODEL_PROVIDERS },
  model: {
    kind: 'text',
    required: true,
    minLength: 1,
    maxLength: 200,
    doc: { example: 'claude-sonnet-5-5' },
  },
  api_key_env: {
    kind: 'other',
    type: String,
    read: 'value',
    required: true,
    doc: { description: 'the environment variable holding the key', example: 'ANTHROPIC_API_KEY' },
    checks: [IsString(), Matches(ENV_NAME_PATTERN, { message: ENV_NAME_MESSAGE('api_key_env') })],
  },
  base_url: {
    kind: 'other',
    type: String,
    read: 'value',
    default: null,
    doc: { description: 'required for openai-compatible; http or https' },
    checks: [
      IsString(),
      IsUrl(HTTP_URL, {
        message: 'base_url must be an http:// or https:// URL without credentials in it',
      }),
    ],
  },
  max_tokens_per_run: tokens,
  max_tokens_per_day: tokens,
  max_cost_usd_per_run: usd(),
  price_per_mtok_in: usd('USD per million input tokens'),
  price_per_mtok_out: usd('USD per million output tokens'),
  price_per_mtok_cache_read: usd(
    'USD per million input tokens read from the prompt cache; Anthropic: 0.1 × price_per_mtok_in when left out, OpenAI: the model’s cached input price (price_per_mtok_in when left out: an upper bound)',
  ),
  price_per_mtok_cache_write: usd(
    'USD per million input tokens written to the prompt cache (Anthropic); 1.25 × price_per_mtok_in when left out',
  ),
  /** How many earlier screenshots of the run the model sees besides the current one. */
  history_screens: { kind: 'int', default: 3, min: 0, max: 10 },
  /** The longest one planning call may take. */
  timeout_seconds: { kind: 'int', default: 60, min: 1, max: 600 },
} satisfies FieldTable;
