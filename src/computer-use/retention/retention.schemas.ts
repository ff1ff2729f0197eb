import {
  type ApiSchemas,
  integer,
  record,
  textOrNull,
  timeOrNull,
  uuid,
} from '../../common/api-schema';

/** How long the tenant keeps screens, and a run's legal hold. */
export const RETENTION_SCHEMAS: ApiSchemas = {
  Retention: record({
    retention_days: integer(),
    default: { type: 'boolean', description: 'no admin set it' },
    updated_by: textOrNull(),
    updated_at: timeOrNull(),
  }),
  LegalHold: record({
    run_id: uuid,
    held: { type: 'boolean' },
    reason: textOrNull(),
    updated_by: textOrNull(),
    updated_at: timeOrNull(),
  }),
};
