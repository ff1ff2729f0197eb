import type { PlannerKindFamily } from '../../config/planner-id';
import type { Planner } from '../planner-contract/planner';
import { NAVIGATOR } from './navigator/navigator-kind';
import type { OwnCatalogEntry, PlannerKind } from './planner-kind';
import { SCRIPTED } from './scripted-kind';

/**
 * Warden's own planner kinds besides models (docs/planners.md), each with all that differs between
 * kinds (planner-kind.ts): whether the injection rail reads its steps, whether it can be a
 * script's fallback, and, for a kind with an id of its own, its catalog entry and its planner.
 * Keyed by family: config/planner-id.ts `PLANNER_KIND_FAMILIES` names them (the deployment's
 * config refuses them as model ids without importing computer use), and the type holds this table
 * to exactly those names. A new kind is its folder (as navigator/, with its `PlannerKind`), its
 * family there, and one line here; the catalog lists the kinds' own entries in this order, after
 * the deployment's models.
 */
const PLANNER_KINDS: Readonly<Record<PlannerKindFamily, PlannerKind>> = {
  navigator: NAVIGATOR,
  scripted: SCRIPTED,
};

const KINDS = Object.entries(PLANNER_KINDS) as ReadonlyArray<[PlannerKindFamily, PlannerKind]>;

/**
 * The kind of what an agent's `planner` (or a script's `fallback`) names, by its id's family,
 * compared lower-case; null for a model, a remote planner and anything else.
 */
export function plannerKindOf(planner: unknown): PlannerKind | null {
  if (typeof planner !== 'string') return null;
  const id = planner.toLowerCase();
  return KINDS.find(([family]) => id.startsWith(`${family}-`))?.[1] ?? null;
}

/**
 * Whether the injection rail reads the agent's steps: every planner but a script (the deployment's
 * default, a model configured, a planner of the catalog named by id: docs/models.md). Failing
 * closed, anything of no kind that says otherwise counts as a model.
 */
export function plannedByModel(planner: unknown): boolean {
  return plannerKindOf(planner)?.railed ?? true;
}

/** The planner of a kind's own id (exactly as written), new for the run; null for any other. */
export function ownPlanner(planner: unknown): Planner | null {
  const kind = KINDS.find(([, k]) => k.own?.entry.id === planner)?.[1];
  return kind?.own ? kind.own.planner() : null;
}

/** The catalog entries of the kinds with an id of their own, in the table's order. */
export function ownEntries(): Array<{ family: PlannerKindFamily; entry: OwnCatalogEntry }> {
  return KINDS.flatMap(([family, kind]) => (kind.own ? [{ family, entry: kind.own.entry }] : []));
}
