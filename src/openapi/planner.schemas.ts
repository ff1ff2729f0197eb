import {
  anyObject,
  type ApiSchemas,
  integer,
  pageOf,
  record,
  schemaRef,
  text,
  time,
} from '../common/api-schema';

const planner = {
  id: { ...text('`scripted-<uuid>`: the agent config’s `planner`'), pattern: '^scripted-' },
  name: text(),
  created_by: text(),
  created_at: time(),
  updated_at: time(),
};

/**
 * Scripted planners' answers. Kept here rather than beside the planners' controller while that
 * folder is reworked on another branch; it moves there with the next change to it.
 */
export const PLANNER_SCHEMAS: ApiSchemas = {
  ScriptedPlanner: record({
    ...planner,
    script: {
      ...record({ steps: { type: 'array', items: anyObject() } }),
      additionalProperties: true,
      description: 'the script as stored',
    },
  }),
  ScriptedPlannerSummary: record({ ...planner, step_count: integer() }),
  ScriptedPlannerPage: pageOf('ScriptedPlannerSummary'),
  ScriptedPlannerAnswer: record({ planner: schemaRef('ScriptedPlanner') }),
};
