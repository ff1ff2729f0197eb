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
} from '../common/api-schema';

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
    run_id: uuid,
    step: integer('the step that proposed the write'),
    action: anyObject('the held action, `{type, …}`'),
    why: text('the planner’s reason'),
    screen_sha256: text('SHA-256 of the PNG the step saw'),
    screen_pixel_sha256: text('SHA-256 of its decoded pixels'),
    volatile_pixels: integer('pixels left out of the frame comparison'),
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
