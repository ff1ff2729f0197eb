import {
  type ApiSchemas,
  integer,
  pageOf,
  record,
  schemaRef,
  text,
  textOrNull,
  time,
  timeOrNull,
} from '../../common/api-schema';

const notices = {
  type: 'array' as const,
  description: 'what Warden says about this version (an upgrade rewrote it); [] for an admin’s',
  items: record({
    code: { type: 'string' as const, enum: ['approvers_typed'] },
    message: text(),
    changes: {
      type: 'array' as const,
      items: record({
        path: text(),
        from: { type: 'array' as const, items: text() },
        to: { type: 'array' as const, items: text() },
      }),
    },
  }),
};

const agents = {
  type: 'object' as const,
  description: 'agents by name, with every default filled in',
  additionalProperties: schemaRef('AgentConfig'),
};

const scriptGrants = {
  type: 'object' as const,
  description:
    'by agent whose writes need no approval and whose planner is a script: the script content granted to it, and which version, who and when granted it (read only: a PUT may send it back, it is ignored)',
  additionalProperties: record({
    sha256: text(
      'the SHA-256 of the script content granted (the script_sha256 of its audit events)',
    ),
    version: integer('the config version that granted this content'),
    granted_by: text(),
    granted_at: time(),
  }),
};

/** The tenant's computer-use config and its switches, as the admin API answers them. */
export const SETTINGS_SCHEMAS: ApiSchemas = {
  ComputerUseConfig: record({
    version: integer('0 before the first PUT'),
    updated_by: textOrNull(),
    updated_at: timeOrNull(),
    notices,
    enabled: { type: 'boolean' },
    agents,
    script_grants: scriptGrants,
  }),
  ComputerUseConfigVersion: record({
    version: integer(),
    created_by: text(),
    created_at: time(),
    config: record({ enabled: { type: 'boolean' }, agents }),
    notices,
  }),
  ComputerUseConfigVersionPage: pageOf('ComputerUseConfigVersion'),
  KillSwitch: record({
    agent: text(),
    engaged: { type: 'boolean' },
    reason: textOrNull(),
    updated_by: textOrNull(),
    updated_at: timeOrNull(),
  }),
  Pause: record({
    paused: { type: 'boolean' },
    reason: textOrNull(),
    updated_by: textOrNull(),
    updated_at: timeOrNull(),
  }),
  DoctorReport: record({
    agent: text(),
    ok: { type: 'boolean', description: 'every check passed' },
    checks: {
      type: 'array',
      items: record(
        {
          name: text(),
          ok: { type: 'boolean' },
          detail: text(),
          next_step: text('what a person can do about a failed check'),
        },
        ['next_step'],
      ),
    },
  }),
};
