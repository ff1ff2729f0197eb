/**
 * Names the deployment's settings and a tenant's config share: the model providers Warden speaks
 * to, and what a variable name may be (and what a field is told that holds something else).
 * Defined here, below both, so that the deployment's config never depends on a tenant's.
 */
export const MODEL_PROVIDERS = ['anthropic', 'openai', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A variable name a shell and a container runtime both accept. */
export const ENV_NAME_PATTERN = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** What a field naming a variable is told when it holds something else (a value, a lower-case name). */
export const ENV_NAME_MESSAGE = (field: string) =>
  `${field} must name an environment variable (A-Z, 0-9 and _, not starting with a digit, at most 128), not hold a value`;
