import { MODEL_TOOLS } from '../config/model-tools';
import {
  anyObject,
  type ApiSchemas,
  integer,
  pageOf,
  record,
  schemaRef,
  text,
  textOrNull,
  time,
} from '../common/api-schema';

const planner = {
  id: { ...text('`scripted-<uuid>`: the agent config’s `planner`'), pattern: '^scripted-' },
  name: text(),
  created_by: text(),
  created_at: time(),
  updated_at: time(),
  source_run_id: textOrNull('the run the script was saved from; null: written by hand'),
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
  PlannerCatalog: record({
    default: textOrNull('the id of the deployment default: what an agent with no planner uses'),
    tags: { type: 'array', items: text(), description: 'the caller’s planner tags' },
    planners: { type: 'array', items: schemaRef('CatalogPlanner') },
  }),
  CatalogPlanner: record(
    {
      id: text('`<family>-<version>-<effort>` or `scripted-<uuid>`'),
      name: text(),
      family: text(),
      runs: { type: 'string', enum: ['platform', 'remote'] },
      pixels: { type: 'boolean', description: 'whether it is sent the screenshot' },
      public: { type: 'boolean' },
      tags: { type: 'array', items: text() },
      programs: { type: 'array', items: text() },
      available: { type: 'boolean', description: 'whether the caller may use it' },
      why: text('why, in one sentence'),
      serving: { type: 'boolean', description: 'a remote family: a worker asked within 30 s' },
      tool: {
        type: 'string',
        enum: [...MODEL_TOOLS.anthropic, ...MODEL_TOOLS.openai, 'json'],
        description:
          'a model planner: the computer-use tool its model takes (config/model-tools.json); `json` for an OpenAI-compatible server, asked for one JSON action',
      },
      created_by: text(),
      created_at: time(),
      updated_at: time(),
      source_run_id: textOrNull('a scripted planner read by its id: the run it was saved from'),
      script: {
        ...record({ steps: { type: 'array', items: anyObject() } }),
        additionalProperties: true,
        description: 'a scripted planner read by its id: the script as stored',
      },
    },
    ['serving', 'tool', 'created_by', 'created_at', 'updated_at', 'source_run_id', 'script'],
  ),
  CatalogPlannerAnswer: record({ planner: schemaRef('CatalogPlanner') }),
};
