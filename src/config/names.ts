/**
 * Names the deployment's settings and a tenant's config share: the model providers Warden speaks
 * to, and what a variable name may be. Defined here, below both, so that the deployment's config
 * never depends on a tenant's.
 */
export const MODEL_PROVIDERS = ['anthropic', 'openai', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A variable name a shell and a container runtime both accept. */
export const ENV_NAME_PATTERN = /^[A-Z_][A-Z0-9_]{0,127}$/;
