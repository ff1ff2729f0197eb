import {
  type ApiSchemas,
  integer,
  record,
  text,
  textOrNull,
  timeOrNull,
  uuid,
} from '../../common/api-schema';

const window = record({
  runs: integer(),
  ended: integer(),
  completed: integer(),
  success_rate: {
    type: 'number',
    nullable: true,
    description: 'completed / ended; null: none ended',
  },
});

/** Every agent of the config in force, with how it has been doing. */
export const INVENTORY_SCHEMAS: ApiSchemas = {
  Inventory: record({
    enabled: { type: 'boolean' },
    config_version: integer('0 before the first PUT'),
    agents: {
      type: 'array',
      items: record({
        agent: text(),
        system: textOrNull(),
        screen_host: text('the screen host’s URL'),
        planner: record(
          {
            kind: { type: 'string', enum: ['scripted', 'catalog', 'model', 'default'] },
            id: text(),
            provider: text(),
            model: text(),
          },
          ['id', 'provider', 'model'],
        ),
        write_approval: record({
          require_write_approval: { type: 'boolean' },
          approve_at: text(),
        }),
        last_run: {
          ...record({
            id: uuid,
            status: text(),
            end_reason: textOrNull(),
            ended_at: timeOrNull(),
          }),
          nullable: true,
        },
        runs_7d: window,
        runs_30d: window,
        approvals_30d: record({
          decided: integer(),
          median_seconds_to_decide: { type: 'number', nullable: true },
        }),
      }),
    },
  }),
};
