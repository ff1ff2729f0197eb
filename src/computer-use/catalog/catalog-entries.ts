import type { ModelTool } from '../../config/model-tools';
import { NAVIGATOR_PLANNER_ID } from '../settings/config-bounds';
import type { RulePlanner } from './access-rule';

/** A planner of the catalog (docs/planners.md "Planners as a catalog"), before the rule decides. */
export interface CatalogEntry extends RulePlanner {
  /** What it is, in words. */
  name: string;
  kind: 'model' | 'scripted' | 'navigator' | 'remote';
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
 * The navigator (docs/models.md): no language model, on the platform, no pixels (it reads the outline).
 * Not public: subjects tagged `researcher` may use it (step 4 of the rule), and whoever the
 * operator allows it to.
 */
export const NAVIGATOR_ENTRY: CatalogEntry = Object.freeze({
  id: NAVIGATOR_PLANNER_ID,
  family: 'navigator',
  name: 'the navigator: presses the control whose name is nearest the task, asks no model',
  kind: 'navigator',
  runs: 'platform',
  pixels: false,
  public: false,
  tags: ['researcher'],
  programs: [],
});

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
