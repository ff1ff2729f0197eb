import type { PlannerKind } from './planner-kind';

/**
 * A tenant's script as a planner kind (docs/models.md): each script is a planner of its own,
 * `scripted-<uuid>`, built from its stored steps (planners.service.ts), and listed in the catalog
 * as its tenant's. Its steps are the tenant's own, so the injection rail does not read them (its
 * fallback's are: those are a model's); a script is no script's fallback.
 */
export const SCRIPTED: PlannerKind = Object.freeze({
  railed: false,
  notFallback: ', not a script',
});
