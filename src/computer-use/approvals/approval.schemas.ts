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

const nullableArray = (description: string) => ({
  type: 'array' as const,
  items: anyObject(),
  nullable: true,
  description,
});

/** A waiting action (docs/api.md) as the approvals API answers it. */
export const APPROVAL_SCHEMAS: ApiSchemas = {
  Approval: record({
    id: uuid,
    kind: { type: 'string', enum: ['computer_use.write'] },
    status: { type: 'string', enum: ['pending', 'approved', 'rejected', 'expired', 'spent'] },
    tenant: text(),
    agent: text(),
    run_id: {
      ...uuid,
      nullable: true,
      description: 'null: a waiting action with no run, an admin’s seeded test',
    },
    step: integer('the step that proposed the write'),
    goal: textOrNull('a waiting action with no run says its goal itself; null: its run says it'),
    system: textOrNull('… and its system'),
    action: anyObject('the held action, `{type, …}`'),
    why: text('the planner’s reason'),
    screen_sha256: textOrNull('SHA-256 of the PNG the step saw; null: no run, no screen'),
    screen_pixel_sha256: textOrNull('SHA-256 of its decoded pixels'),
    volatile_pixels: integer('pixels left out of the frame comparison'),
    volatile_mask: {
      type: 'string',
      enum: ['learning', 'learnt', 'abandoned'],
      description:
        'those pixels: still being learnt after the hold, learnt, or given up (the screen is compared whole)',
    },
    volatile_regions: {
      ...record({
        frame: record({ width: integer(), height: integer() }),
        rects: { type: 'array', items: anyObject('`{x, y, width, height}`') },
      }),
      nullable: true,
      description: 'where those pixels are, in the screenshot’s own pixels; null: none',
    },
    requested_by: text(),
    created_at: time(),
    expires_at: time(),
    decided_by: textOrNull(),
    decided_at: timeOrNull(),
    decided_via: {
      type: 'string',
      enum: ['console', 'api', 'slack', 'teams'],
      nullable: true,
      description:
        'where it was decided: a console session, a bearer token, a Slack button or a Teams card; null before a decision',
    },
    comment: textOrNull(),
    spent_by: textOrNull('who resumed the run with the approved write'),
    spent_at: timeOrNull(),
    safety_checks: nullableArray('the model provider’s safety checks on the action'),
    changes: nullableArray('what a held commit stores, under commit-point approval'),
    rail: { ...anyObject('the injection rail’s flag when it held the action'), nullable: true },
    redaction: {
      ...record({
        percent: {
          type: 'number',
          description: 'the share of the screen the agent’s redact_regions hide, rounded up',
        },
        regions: { type: 'array', items: anyObject('`{x, y, width, height}`') },
        target: { type: 'boolean', description: 'what the write lands on lies under one' },
        changes: {
          type: 'array',
          items: integer(),
          description: 'the steps of the change list’s lines whose field lies under one',
        },
      }),
      nullable: true,
      description: 'what the approver cannot see (redact_regions); null: nothing redacted',
    },
    may_decide_now: {
      type: 'array',
      items: text(),
      nullable: true,
      description:
        'groups or token subjects who may decide it now; null: anyone with agents.approve',
    },
    escalates_at: timeOrNull(),
    escalated_at: timeOrNull(),
    reminded_at: timeOrNull(),
  }),
  ApprovalForYou: {
    allOf: [
      schemaRef('Approval'),
      record({
        for_you: record(
          {
            approve: textOrNull('null: the caller may approve; else why not'),
            reject: textOrNull('null: the caller may reject; else why not'),
          },
          [],
          'what the caller may do with it',
        ),
      }),
    ],
  },
  ApprovalPage: pageOf('Approval'),
};
