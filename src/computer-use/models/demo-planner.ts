import { MODEL_PLANNER_DEFAULTS, type ModelPlannerConfig } from '../settings/agent-config';

/**
 * What the demo runs on when a key is set: each provider's current computer-use model, which takes
 * its current tool (config/model-tools.json: Anthropic's computer toolset, OpenAI's GA computer tool).
 */
export const DEMO_MODELS = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-5.4',
} as const;

/**
 * The planner the demo should use: a real model when `ANTHROPIC_API_KEY` (first) or
 * `OPENAI_API_KEY` is set, with a modest budget; null for the scripted planner. `WARDEN_DEMO_MODEL`
 * overrides the model's name. Only names the key's variable: the key stays in the environment.
 */
export function demoPlanner(env: Record<string, string | undefined>): ModelPlannerConfig | null {
  const set = (name: string) => typeof env[name] === 'string' && env[name] !== '';
  const provider = set('ANTHROPIC_API_KEY') ? 'anthropic' : set('OPENAI_API_KEY') ? 'openai' : null;
  if (!provider) return null;
  return {
    ...MODEL_PLANNER_DEFAULTS,
    provider,
    model: set('WARDEN_DEMO_MODEL') ? env.WARDEN_DEMO_MODEL! : DEMO_MODELS[provider],
    api_key_env: provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY',
    max_tokens_per_run: 400_000,
    timeout_seconds: 120,
  };
}
