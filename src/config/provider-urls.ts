import type { ModelProvider } from './names';

/** Where each provider's API is when a planner names no `base_url`. */
export const ANTHROPIC_API = 'https://api.anthropic.com';
export const OPENAI_API = 'https://api.openai.com/v1';

/** The URL a model planner's calls (and its key) go to. */
export function modelEndpoint(model: {
  provider: ModelProvider;
  base_url?: string | null;
}): string {
  if (model.base_url) return model.base_url;
  return model.provider === 'anthropic' ? ANTHROPIC_API : OPENAI_API;
}
