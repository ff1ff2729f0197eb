/**
 * Planner ids (docs/planners.md "Planners as a catalog"): `<family>-<version>-<effort>` for a planner of
 * the deployment (a model, the navigator, a remote family), `scripted-<uuid>` for a tenant's script.
 * A family is lower-case words joined by hyphens, each starting with a letter; a version is dotted
 * numbers (`4.6`) or a date (`2026-11-10`); an effort is one word (`normal`). Pure.
 */

/** A family name: also what an allow or deny may name instead of one id. */
export const PLANNER_FAMILY = /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*$/;
const PLANNER_ID =
  /^([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*)-(\d{4}-\d\d-\d\d|\d+(?:\.\d+)*)-([a-z]+)$/;
const SCRIPTED_ID = /^scripted-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The family of every `scripted-<uuid>`: an allow or deny of `scripted` names all scripts. */
export const SCRIPTED_FAMILY = 'scripted';

/**
 * The families of the planner kinds Warden has itself, besides models (the navigator, the scripts):
 * no model planner of the deployment (model-planners.ts) nor remote family takes one. What each
 * kind is, computer-use/planning/planner-kinds.ts says, in a table keyed by exactly these names;
 * they are here so that the deployment's config can refuse them without importing computer use.
 */
export const PLANNER_KIND_FAMILIES = ['navigator', SCRIPTED_FAMILY] as const;
export type PlannerKindFamily = (typeof PLANNER_KIND_FAMILIES)[number];

/** The `mcp` planner's family: the agent calling Warden's MCP endpoint (docs/mcp.md). */
export const MCP_FAMILY_NAME = 'mcp';

/**
 * The families the deployment itself has, which neither a model planner of the deployment nor a
 * remote family may take: Warden's own planner kinds, `mcp`, and `remote` (the remote planners as
 * a whole). A model planner `mcp-1-normal` would otherwise be a second planner of the `mcp` id.
 */
export const RESERVED_FAMILIES: readonly string[] = [
  ...PLANNER_KIND_FAMILIES,
  MCP_FAMILY_NAME,
  'remote',
];

export type PlannerIdParts =
  | { kind: 'versioned'; id: string; family: string; version: string; effort: string }
  | { kind: 'scripted'; id: string; family: typeof SCRIPTED_FAMILY; uuid: string };

/** The parts of a planner id (compared lower-case), or null when it is no planner id. */
export function parsePlannerId(raw: unknown): PlannerIdParts | null {
  if (typeof raw !== 'string' || raw.length > 200) return null;
  const id = raw.toLowerCase();
  const scripted = SCRIPTED_ID.exec(id);
  if (scripted) return { kind: 'scripted', id, family: SCRIPTED_FAMILY, uuid: scripted[1] };
  const m = PLANNER_ID.exec(id);
  if (!m || m[1] === SCRIPTED_FAMILY) return null;
  return { kind: 'versioned', id, family: m[1], version: m[2], effort: m[3] };
}

/**
 * What an allow or deny names, normalised: a whole id, or a family (every version and effort of
 * it); null when it is neither.
 */
export function parsePlannerTarget(raw: string): { id: string } | { family: string } | null {
  const parts = parsePlannerId(raw);
  if (parts) return { id: parts.id };
  const family = raw.toLowerCase();
  return PLANNER_FAMILY.test(family) && family.length <= 100 ? { family } : null;
}
