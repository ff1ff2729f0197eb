import {
  anyObject,
  type ApiSchemas,
  integer,
  pageOf,
  record,
  text,
  time,
  uuid,
} from '../common/api-schema';

/** Audit events and the chain check (docs/security.md). */
export const AUDIT_SCHEMAS: ApiSchemas = {
  AuditEvent: record({
    id: uuid,
    tenant: text(),
    seq: integer('its place in the tenant’s hash chain, from 1'),
    type: text('e.g. computer_use.run_started'),
    actor: text(),
    run_id: { ...uuid, nullable: true },
    step: { ...integer(), nullable: true },
    at: time(),
    details: anyObject(),
    prev_sha256: text(),
    sha256: text(),
  }),
  AuditEventPage: pageOf('AuditEvent'),
  AuditVerification: record(
    {
      ok: { type: 'boolean' },
      checked: integer('events whose hash and link were recomputed'),
      first_bad_id: text('the first event whose hash or link does not hold'),
      head_sha256: text(),
    },
    ['first_bad_id'],
  ),
};
