import {
  type ApiSchemas,
  integer,
  record,
  schemaRef,
  text,
  textOrNull,
  time,
  timeOrNull,
  uuid,
} from '../../common/api-schema';

const secondsOrNull = (description: string) => ({
  type: 'number' as const,
  nullable: true,
  description,
});

/** Oversight's answers (docs/api.md). */
export const OVERSIGHT_SCHEMAS: ApiSchemas = {
  ApprovalPageView: record({
    id: uuid,
    approval_id: uuid,
    opened_at: time(),
    changes_seen_at: timeOrNull('when the change list first came into view; null: not yet'),
  }),
  OversightTotals: record({
    approver: text(),
    agent: text(),
    decisions: integer(),
    approved: integer(),
    rejected: integer(),
    timed: integer('decisions made from the approval page, whose time from opening it is known'),
    median_seconds: secondsOrNull(
      'median time from opening the page to deciding; null: none timed',
    ),
    approved_changes_unseen: integer(
      'approvals of writes with a change list that never came into view on the page',
    ),
    approved_changes_unknown: integer(
      'approvals of writes with a change list made away from the page (API, chat)',
    ),
    in_chat: integer('decisions made in Slack or Teams'),
  }),
  OversightFlag: record({
    approver: text(),
    decisions: integer(),
    median_seconds: secondsOrNull('median time from opening the page to deciding'),
    why: text(),
  }),
  OversightReport: record({
    settings: record({
      flag_after_decisions: integer('OVERSIGHT_FLAG_DECISIONS'),
      flag_median_seconds: integer('OVERSIGHT_FLAG_MEDIAN_SECONDS'),
    }),
    since: time('the totals count decisions from here'),
    approvers: { type: 'array', items: schemaRef('OversightTotals') },
    flagged: { type: 'array', items: schemaRef('OversightFlag') },
    tests: { type: 'array', items: schemaRef('OversightTest') },
  }),
  OversightTest: record({
    id: uuid,
    agent: text(),
    goal: text(),
    seeded_by: text(),
    created_at: time(),
    expires_at: time(),
    outcome: {
      type: 'string',
      enum: ['waiting', 'caught', 'missed', 'expired'],
      description: 'caught: rejected (the right answer); missed: approved',
    },
    decided_by: textOrNull(),
    decided_at: timeOrNull(),
    decided_via: textOrNull('console, api, slack or teams'),
  }),
};
