import type { PlannerKind } from '../planner-kind';
import { NAVIGATOR_PLANNER_ID, NavigatorPlanner } from './navigator-planner';

/**
 * The navigator as a planner kind (docs/models.md): no language model, on the platform, no pixels
 * (it reads the outline). Not public: subjects tagged `researcher` may use it (step 4 of the
 * catalog's rule), and whoever the operator allows it to. Railed like a model's steps (it plans
 * from what the screen says), and no script's fallback: it plans no single step.
 */
export const NAVIGATOR: PlannerKind = Object.freeze({
  railed: true,
  notFallback: '; the navigator plans no single step',
  own: {
    entry: Object.freeze({
      id: NAVIGATOR_PLANNER_ID,
      name: 'the navigator: presses the control whose name is nearest the task, asks no model',
      pixels: false,
      public: false,
      tags: ['researcher'],
      programs: [],
    }),
    planner: () => new NavigatorPlanner(),
  },
});
