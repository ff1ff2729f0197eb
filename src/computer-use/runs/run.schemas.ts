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
  timeOrNull,
  uuid,
} from '../../common/api-schema';
import { END_REASONS, RUN_STATUSES } from './run-status';
import type { StepOutcome } from './step.entity';

const OUTCOMES = [
  'sent',
  'held',
  'sent_after_approval',
  'staged',
  'stale',
  'rejected',
  'refused',
  'ended',
  'screen_changed',
  'refused_by_application',
] as const satisfies readonly StepOutcome[];
// Every outcome a step can record is in the document: a new one fails to compile here.
const everyOutcome: Exclude<StepOutcome, (typeof OUTCOMES)[number]> extends never ? true : never =
  true;
void everyOutcome;

const sha256 = (description?: string) => ({
  ...textOrNull(description),
  pattern: '^[0-9a-f]{64}$',
});

/** A run and its steps as GET /api/computer-use/runs/{id} answers them (docs/api.md). */
export const RUN_SCHEMAS: ApiSchemas = {
  Step: record(
    {
      n: integer('1 for the first step'),
      screen_sha256: sha256('SHA-256 of the PNG the step saw'),
      screen_pixel_sha256: sha256('SHA-256 of its decoded pixels'),
      width: { ...integer(), nullable: true },
      height: { ...integer(), nullable: true },
      action: {
        ...anyObject('the action the planner chose (`{type, …}`), or what a refused answer said'),
        nullable: true,
      },
      classification: { type: 'string', enum: ['read', 'write', 'invalid'], nullable: true },
      why: textOrNull('the planner’s reason'),
      outcome: { type: 'string', enum: [...OUTCOMES], nullable: true },
      error: text('why the step failed or was refused'),
      staged: anyObject('a staged edit under commit-point approval: field, before, text'),
      edit: anyObject(
        'an edit held for a person (approve_at every_write): field, before, text, selected',
      ),
      rail: anyObject('the injection rail’s verdict on the screen'),
      receipt: anyObject('what the application said after a sent write'),
      approval: record({
        id: uuid,
        status: text(),
        decided_by: textOrNull(),
        decided_at: timeOrNull(),
        comment: textOrNull(),
        resumed_by: textOrNull(),
        resumed_at: timeOrNull(),
      }),
      model: {
        ...record(
          {
            provider: text(),
            model: text(),
            input_tokens: { ...integer(), nullable: true },
            output_tokens: { ...integer(), nullable: true },
            latency_ms: { type: 'number' },
            calls: integer(
              'calls made to the model for the step; 0: a planner that asks no model (the navigator) or a later action of a batch',
            ),
            notes: text('what a planner that asks no model says of its choice'),
          },
          ['calls', 'notes'],
          'the model call that planned the step',
        ),
        additionalProperties: true,
      },
      label_evidence: anyObject('how the label was read: outline, OCR, or why nothing was read'),
      timings: {
        type: 'array',
        items: anyObject('`{job, total_ms, host_ms, planner_ms, pause_ms, overhead_ms}`'),
      },
      planned_by: {
        type: 'string',
        enum: ['script', 'fallback'],
        description:
          "which planner answered a scripted run's step: the script, or its fallback model",
      },
      batch: record(
        {
          turn: text('the id of the model’s answer that held several actions'),
          place: integer('the action’s place in that answer, from 1'),
        },
        [],
        'the model’s answer of several actions (a batch) the step’s action came in',
      ),
      started_at: time(),
      ended_at: timeOrNull(),
    },
    [
      'error',
      'staged',
      'edit',
      'rail',
      'receipt',
      'approval',
      'model',
      'label_evidence',
      'timings',
      'planned_by',
      'batch',
    ],
  ),
  Run: record(
    {
      id: uuid,
      agent: text(),
      system: textOrNull('the system the agent works, as its config named it at the start'),
      goal: text(),
      status: { type: 'string', enum: [...RUN_STATUSES] },
      end_reason: {
        type: 'string',
        enum: [...new Set(Object.values(END_REASONS).flat())],
        nullable: true,
      },
      summary: textOrNull('what the planner said when it ended the run'),
      created_by: text(),
      created_at: time(),
      started_at: timeOrNull(),
      ended_at: timeOrNull(),
      active_seconds: { type: 'number' },
      max_steps: integer(),
      max_seconds: integer(),
      step_count: integer(),
      invalid_actions: integer(),
      pending_approval: { type: 'object', allOf: [schemaRef('Approval')], nullable: true },
      params: {
        type: 'object',
        additionalProperties: text(),
        description: 'the parameters a run of a script was started with',
      },
      planning: record(
        {
          script_steps: integer(),
          fallback_steps: integer(),
          model_calls: integer(),
          input_tokens: { ...integer(), nullable: true },
          output_tokens: { ...integer(), nullable: true },
          cost_usd: { type: 'number', nullable: true },
        },
        [],
        'what planning the run cost over its steps (null: some step’s usage was unknown); with its steps only',
      ),
      steps: { type: 'array', items: schemaRef('Step'), description: 'in GET of one run only' },
    },
    ['steps', 'params', 'planning'],
  ),
  RunPage: pageOf('Run'),
};
