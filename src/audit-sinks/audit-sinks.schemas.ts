import {
  type ApiSchemas,
  integer,
  record,
  schemaRef,
  textOrNull,
  time,
  timeOrNull,
} from '../common/api-schema';

/** The tenant's audit sinks, each with how its delivery goes (docs/security.md). */
export const AUDIT_SINK_SCHEMAS: ApiSchemas = {
  AuditSinkStatus: record({
    delivered_seq: integer('the last event the sink acknowledged; 0: none yet'),
    head_seq: integer('the tenant’s newest event'),
    lag_events: integer(),
    lag_seconds: { type: 'number' },
    last_delivered_at: timeOrNull(),
    last_error: textOrNull('why the last try failed (a code or status); null after a delivery'),
    last_error_at: timeOrNull(),
    next_try_at: time(),
    missing_grant: textOrNull(
      'the operator’s command that grants what the sink lacks; null: granted',
    ),
  }),
  AuditSinks: record({
    sinks: {
      type: 'array',
      items: {
        allOf: [schemaRef('AuditSinkDto'), record({ status: schemaRef('AuditSinkStatus') })],
      },
    },
  }),
};
