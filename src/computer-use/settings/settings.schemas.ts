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

/** The tenant's computer-use config and its switches, as the admin API answers them. */
export const SETTINGS_SCHEMAS: ApiSchemas = {
  ComputerUseConfig: record({
    version: integer('0 before the first PUT'),
    updated_by: textOrNull(),
    updated_at: timeOrNull(),
    notices,
    enabled: { type: 'boolean' },
    agents,
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
