import type { ModelProvider } from '../../settings/agent-config';
import type { Provider } from '../provider';
import { anthropicProvider } from './anthropic.provider';
import { openaiCompatibleProvider } from './openai-compatible.provider';
import { openaiProvider } from './openai.provider';

/** Each provider's wire format, by the name a planner config gives it. */
export const PROVIDERS: Readonly<Record<ModelProvider, Provider>> = Object.freeze({
  anthropic: anthropicProvider,
  openai: openaiProvider,
  'openai-compatible': openaiCompatibleProvider,
});
