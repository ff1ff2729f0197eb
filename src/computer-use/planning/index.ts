/** Planning (docs/models.md): the Planner interface, the scripted planner, and its store. */
export * from '../planner-contract/planner';
export * from './script.types';
export { checkScript } from './check-script';
export {
  ScriptedPlanner,
  centreOf,
  findElement,
  type ScriptedPlannerOptions,
  type ScriptedPlannerState,
} from './scripted-planner';
export { ScriptedPlannerRecord } from './scripted-planner.entity';
export {
  PlannersService,
  SCRIPTED_PREFIX,
  scriptedRowId,
  type ScriptedPlannerView,
  type ScriptedPlannerSummary,
} from './planners.service';
export { PlanningModule } from './planning.module';
export { VA02_EXAMPLE_SCRIPT } from './va02-example';
