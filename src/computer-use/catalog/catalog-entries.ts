import type { ModelTool } from '../../config/model-tools';
import type { PlannerKindFamily } from '../../config/planner-id';
import { ownEntries } from '../planning/planner-kinds';
import type { RulePlanner } from './access-rule';

/** A planner of the catalog (docs/planners.md "Planners as a catalog"), before the rule decides. */
export interface CatalogEntry extends RulePlanner {
  /** What it is, in words. */
  name: string;
  /** A model of the deployment's, a remote planner, or of one of Warden's own kinds. */
  kind: 'model' | 'remote' | PlannerKindFamily;
  /** Where its decisions are made: in Warden, or by a worker outside it. */
  runs: 'platform' | 'remote';
  /** Whether it is sent the screenshot. */
  pixels: boolean;
  /** A remote family's: whether a worker asked for work within the last 30 s. */
  serving?: boolean;
  /** A model planner's: the computer-use tool its model takes (config/model-tools.json). */
  tool?: ModelTool;
}

/**
 * The deployment's own planners besides its models (planning/planner-kinds.ts: the navigator), on
 * the platform, each of its kind's family.
 */
export const OWN_KIND_ENTRIES: readonly CatalogEntry[] = ownEntries().map(({ family, entry }) =>
  Object.freeze({
    id: entry.id,
    family,
    name: entry.name,
    kind: family,
    runs: 'platform',
    pixels: entry.pixels,
    public: entry.public,
    tags: entry.tags,
    programs: entry.programs,
  }),
);

/** What GET /api/planners answers for one planner. */
export interface CatalogItem {
  id: string;
  name: string;
  family: string;
  runs: 'platform' | 'remote';
  pixels: boolean;
  public: boolean;
  tags: string[];
  programs: string[];
  available: boolean;
  why: string;
  serving?: boolean;
  tool?: ModelTool;
}
