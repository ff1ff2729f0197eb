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
  uuid,
} from '../../common/api-schema';

const work = {
  id: uuid,
  planner: text('the catalog id of the remote planner (`<family>-<version>-<effort>`)'),
  family: text(),
  run_id: uuid,
  step: integer('the step of the run'),
  status: {
    type: 'string' as const,
    enum: ['waiting', 'claimed', 'answered', 'failed', 'timed_out', 'offline'],
  },
  worker: textOrNull('the worker that claimed it'),
  created_at: time(),
  deadline_at: time('after this the step fails planner_timeout'),
};

/** The worker API of remote planners (docs/models.md). */
export const PLANNER_WORK_SCHEMAS: ApiSchemas = {
  PlannerWork: record(work),
  PlannerWorkPage: pageOf('PlannerWork'),
  PlannerWorkClaimed: record({
    work: record({
      ...work,
      input: anyObject('the published input of the step (docs/planners.md, JSON Schema there)'),
    }),
  }),
  PlannerWorkAnswered: record({ work: schemaRef('PlannerWork') }),
};
