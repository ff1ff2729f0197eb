import { decorateFields } from '../field-table';
import { MODEL_PLANNER_FIELD_SPECS } from '../planner-fields';

/**
 * An agent's `planner` when it names a model rather than a scripted planner. Its checks and its
 * OpenAPI properties come from planner-fields.ts.
 */
export class ModelPlannerDto {}
decorateFields(ModelPlannerDto, MODEL_PLANNER_FIELD_SPECS);

/** Its fields' names, for refusing unknown ones before anything else. */
export const MODEL_PLANNER_FIELDS: readonly string[] = Object.keys(MODEL_PLANNER_FIELD_SPECS);
