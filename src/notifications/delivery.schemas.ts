import {
  type ApiSchemas,
  integer,
  pageOf,
  record,
  text,
  textOrNull,
  time,
  timeOrNull,
  uuid,
} from '../common/api-schema';

/** A notification delivery: where it went and how it went, never a secret. */
export const DELIVERY_SCHEMAS: ApiSchemas = {
  Delivery: record({
    id: uuid,
    agent: text(),
    run_id: { ...uuid, nullable: true },
    approval_id: { ...uuid, nullable: true },
    event: text(),
    channel: record({ kind: text(), to: text('an origin, addresses, or `$VARIABLE`') }),
    status: text(),
    attempts: integer(),
    last_error: textOrNull(),
    created_at: time(),
    updated_at: time(),
    delivered_at: timeOrNull(),
  }),
  DeliveryPage: pageOf('Delivery'),
};
