/**
 * The reference planner worker's environment (src/planner-worker.ts), read in one place: it is a
 * program of its own, run next to the customer's model, and shares none of Warden's settings.
 */
export interface PlannerWorkerEnv {
  /** Warden's API (`WARDEN_URL`). */
  wardenUrl: string | undefined;
  /** An API token with planners.serve for the family (`WARDEN_PLANNER_TOKEN`). */
  token: string | undefined;
  /** The OpenAI-compatible endpoint's key (`PLANNER_MODEL_API_KEY`); many local servers need none. */
  modelApiKey: string;
}

export function plannerWorkerEnv(env: NodeJS.ProcessEnv = process.env): PlannerWorkerEnv {
  return {
    wardenUrl: env.WARDEN_URL || undefined,
    token: env.WARDEN_PLANNER_TOKEN || undefined,
    modelApiKey: env.PLANNER_MODEL_API_KEY || 'none',
  };
}
