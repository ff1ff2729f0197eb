import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import {
  ENV_NAME_PATTERN,
  LIMITS,
  MODEL_PLANNER_DEFAULTS,
  MODEL_PROVIDERS,
  type ModelProvider,
} from '../agent-config';
import { ENV_NAME_MESSAGE, HTTP_URL } from './field-checks';

/** An agent's `planner` when it names a model rather than a scripted planner. */
export class ModelPlannerDto {
  @ApiProperty({ enum: MODEL_PROVIDERS })
  @IsIn(MODEL_PROVIDERS)
  provider: ModelProvider;

  @ApiProperty({ example: 'claude-sonnet-4-5' })
  @IsString()
  @MinLength(1)
  @MaxLength(LIMITS.model)
  model: string;

  @ApiProperty({
    description: 'the environment variable holding the key',
    example: 'ANTHROPIC_API_KEY',
  })
  @IsString()
  @Matches(ENV_NAME_PATTERN, { message: ENV_NAME_MESSAGE('api_key_env') })
  api_key_env: string;

  @ApiPropertyOptional({ description: 'required for openai-compatible; http or https' })
  @IsOptional()
  @IsString()
  @IsUrl(HTTP_URL, {
    message: 'base_url must be an http:// or https:// URL without credentials in it',
  })
  base_url?: string;

  @ApiPropertyOptional({ minimum: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(LIMITS.tokens)
  max_tokens_per_run?: number;

  @ApiPropertyOptional({ minimum: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(LIMITS.tokens)
  max_tokens_per_day?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(LIMITS.usd)
  max_cost_usd_per_run?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'USD per million input tokens' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(LIMITS.usd)
  price_per_mtok_in?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'USD per million output tokens' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(LIMITS.usd)
  price_per_mtok_out?: number;

  @ApiPropertyOptional({
    minimum: 0,
    description:
      'USD per million input tokens read from the prompt cache; Anthropic: 0.1 × price_per_mtok_in when left out, OpenAI: the model’s cached input price (price_per_mtok_in when left out: an upper bound)',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(LIMITS.usd)
  price_per_mtok_cache_read?: number;

  @ApiPropertyOptional({
    minimum: 0,
    description:
      'USD per million input tokens written to the prompt cache (Anthropic); 1.25 × price_per_mtok_in when left out',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(LIMITS.usd)
  price_per_mtok_cache_write?: number;

  @ApiPropertyOptional({ default: MODEL_PLANNER_DEFAULTS.history_screens })
  @IsOptional()
  @IsInt()
  @Min(LIMITS.history_screens.min)
  @Max(LIMITS.history_screens.max)
  history_screens?: number;

  @ApiPropertyOptional({ default: MODEL_PLANNER_DEFAULTS.timeout_seconds })
  @IsOptional()
  @IsInt()
  @Min(LIMITS.timeout_seconds.min)
  @Max(LIMITS.timeout_seconds.max)
  timeout_seconds?: number;
}

/** Its fields' names, for refusing unknown ones before anything else. */
export const MODEL_PLANNER_FIELDS: readonly string[] = [
  'provider',
  'model',
  'api_key_env',
  'base_url',
  'max_tokens_per_run',
  'max_tokens_per_day',
  'max_cost_usd_per_run',
  'price_per_mtok_in',
  'price_per_mtok_out',
  'price_per_mtok_cache_read',
  'price_per_mtok_cache_write',
  'history_screens',
  'timeout_seconds',
];
