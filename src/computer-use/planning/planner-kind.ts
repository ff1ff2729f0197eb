import type { Planner } from '../planner-contract/planner';

/**
 * What one of Warden's own planner kinds is (docs/planners.md): all that differs between kinds, in
 * one entry of PLANNER_KINDS (planner-kinds.ts), listed under its family. A planner of the
 * deployment's models, of a remote family (registered by the operator) or over MCP is none of
 * these: those are configured, not built.
 */
export interface PlannerKind {
  /**
   * Whether the injection rail reads the screens of the steps it plans (docs/security.md): false
   * only where the steps are the tenant's own, written down beforehand (a script). Failing closed,
   * a planner of no kind here is railed.
   */
  railed: boolean;
  /**
   * Why it cannot be a script's `fallback` (which must be a model planner), as the refusal goes on
   * after `a model planner (a catalog id or a model object)`; absent: it can.
   */
  notFallback?: string;
  /**
   * A kind with one id of its own: its entry in the catalog and its planner. Absent: its planners
   * are the tenant's own, each under its own id (a script, built from its stored steps by
   * planners.service.ts).
   */
  own?: {
    entry: OwnCatalogEntry;
    planner: () => Planner;
  };
}

/**
 * What the catalog lists of a kind's own planner (catalog/catalog-entries.ts makes it an entry:
 * of its family, run on the platform).
 */
export interface OwnCatalogEntry {
  id: string;
  /** What it is, in words. */
  name: string;
  /** Whether it is sent the screenshot. */
  pixels: boolean;
  /** Public to every tenant; else by an allow, a tag or a program (docs/planners.md). */
  public: boolean;
  tags: readonly string[];
  programs: readonly string[];
}
