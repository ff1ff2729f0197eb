import {
  AGENT_DEFAULTS,
  type AgentConfig,
  LIMITS,
  WEAKENING_CONTROLS,
  withDefaults,
} from './agent-config';
import { AGENT_FIELD_SPECS } from './agent-fields';
import {
  PLANNER_ID_JSON_PATTERN,
  SCRIPTED_PLANNER_JSON_PATTERN,
  SCRIPTED_PLANNER_PATTERN,
} from './config-bounds';
import { parsePlannerId } from '../../config/planner-id';
import { AGENT_FIELDS, AgentDto } from './dto/computer-use-config.dto';
import {
  boundsOf,
  decorateFields,
  defaultsOf,
  type FieldTable,
  weakeningFields,
} from './field-table';
import { type AgentSchema } from './field-checks';
import { parseAgent } from './parse-config';

const MINIMAL = {
  screen_url: 'https://sapgui-host.internal:8443',
  screen_token_env: 'TICKETIQ_SAPGUI_HOST_TOKEN',
};

/** The agent's table with one field more, as a change adding `max_widgets` would write it. */
const WIDENED = {
  ...AGENT_FIELD_SPECS,
  max_widgets: {
    kind: 'int',
    default: 5,
    min: 1,
    max: 9,
    weakens: (before: number, after: number) => after > before,
  },
} satisfies FieldTable;

class WidenedAgentDto {}
decorateFields(WidenedAgentDto, WIDENED);
const WIDENED_SCHEMA: AgentSchema = { fields: WIDENED, dto: WidenedAgentDto };

function parse(agent: Record<string, unknown>, schema?: AgentSchema) {
  const problems: string[] = [];
  const config = parseAgent(agent, 'agents.a', problems, schema);
  return { config, problems };
}

describe('the agent field table', () => {
  it('is enough to add a field: it is defaulted, bounded, parsed, shown and judged', () => {
    // Without the row the field is unknown: the check below can fail.
    expect(parse({ ...MINIMAL, max_widgets: 7 }).problems).toEqual([
      expect.stringMatching(/^agents\.a\.max_widgets is not a field of an agent \(one of /),
    ]);

    // Defaulted, in the table's place (last), every other field as before.
    const left = parse(MINIMAL, WIDENED_SCHEMA);
    expect(left.problems).toEqual([]);
    expect(left.config).toEqual({ ...AGENT_DEFAULTS, ...MINIMAL, max_widgets: 5 });
    expect(Object.keys(left.config!).at(-1)).toBe('max_widgets');
    expect(defaultsOf(WIDENED).max_widgets).toBe(5);

    // Parsed.
    expect(parse({ ...MINIMAL, max_widgets: 7 }, WIDENED_SCHEMA).config).toMatchObject({
      max_widgets: 7,
    });

    // Bounded, with class-validator's messages under the field's path; never coerced.
    expect(boundsOf(WIDENED).max_widgets).toEqual({ min: 1, max: 9 });
    expect(parse({ ...MINIMAL, max_widgets: 10 }, WIDENED_SCHEMA).problems).toEqual([
      'agents.a.max_widgets must not be greater than 9',
    ]);
    expect(parse({ ...MINIMAL, max_widgets: 0 }, WIDENED_SCHEMA).problems).toEqual([
      'agents.a.max_widgets must not be less than 1',
    ]);
    expect(parse({ ...MINIMAL, max_widgets: '7' }, WIDENED_SCHEMA).problems).toEqual([
      'agents.a.max_widgets must be an integer number',
    ]);

    // Shown in OpenAPI with its default, after the fields before it.
    const properties = Reflect.getMetadata(
      'swagger/apiModelPropertiesArray',
      WidenedAgentDto.prototype,
    ) as string[];
    expect(properties.at(-1)).toBe(':max_widgets');
    expect(
      Reflect.getMetadata('swagger/apiModelProperties', WidenedAgentDto.prototype, 'max_widgets'),
    ).toEqual({ type: Number, default: 5, required: false });

    // A control of the weakening table.
    expect(weakeningFields(WIDENED).at(-1)).toBe('max_widgets');
  });

  it('holds the defaults and bounds the API documents', () => {
    expect(AGENT_DEFAULTS).toMatchObject({
      max_steps: 20,
      max_seconds: 300,
      require_write_approval: true,
      four_eyes: true,
      approval_timeout_seconds: 3600,
      stall_after: 3,
      settle_ms: null,
      planner: null,
      commit_words: [],
      unlabelled_clicks: 'write',
      ignore_regions: [],
      screen_rules: [],
      approve_at: 'every_write',
      approvers: [],
    });
    expect(LIMITS.max_steps).toEqual({ min: 1, max: 40 });
  });

  it('is the DTO, the parser and OpenAPI field list, in its order', () => {
    const names = Object.keys(AGENT_FIELD_SPECS);
    expect(AGENT_FIELDS).toEqual(names);
    expect(Reflect.getMetadata('swagger/apiModelPropertiesArray', AgentDto.prototype)).toEqual(
      names.map((name) => `:${name}`),
    );
    // What the engine reads has every field, the required ones aside.
    expect(Object.keys(AGENT_DEFAULTS)).toEqual(
      names.filter((name) => !['screen_url', 'screen_token_env'].includes(name)),
    );
  });

  it('names the controls of the weakening table, in its order', () => {
    expect(WEAKENING_CONTROLS).toEqual([
      'screen_url',
      'require_write_approval',
      'four_eyes',
      'approval_timeout_seconds',
      'planner',
      'commit_words',
      'navigation_words',
      'unlabelled_clicks',
      'ignore_regions',
      'redact_regions',
      'screen_rules',
      'approve_at',
      'approvers',
      'escalate_to',
    ]);
  });

  it('fills in what a stored agent lacks: a field added since, a list stored as null', () => {
    const stored = {
      ...MINIMAL,
      max_steps: 7,
      commit_words: null,
      approvers: ['group:leads'],
    } as unknown as AgentConfig;
    expect(withDefaults({ enabled: true, agents: { a: stored } }).agents.a).toEqual({
      ...AGENT_DEFAULTS,
      ...MINIMAL,
      max_steps: 7,
      commit_words: [],
      approvers: ['group:leads'],
    });
  });
});

describe("OpenAPI's pattern for a scripted planner", () => {
  // docs/openapi.json once said `^scripted-<uuid>$`, which no planner id matches.
  const json = new RegExp(SCRIPTED_PLANNER_JSON_PATTERN);
  it.each([
    'scripted-3f0c9a52-7d1e-4b6a-9c2f-5e8d7a1b4c30',
    'scripted-3F0C9A52-7D1E-4B6A-9C2F-5E8D7A1B4C30',
    'scripted-<uuid>',
    'scripted-3f0c9a52-7d1e-4b6a-9c2f-5e8d7a1b4c3',
    'gpt',
  ])('agrees with the parser on %s', (id) => {
    expect(json.test(id)).toBe(SCRIPTED_PLANNER_PATTERN.test(id));
  });
});

describe("OpenAPI's patterns for a planner id", () => {
  const scripted = new RegExp(SCRIPTED_PLANNER_JSON_PATTERN);
  const versioned = new RegExp(PLANNER_ID_JSON_PATTERN);
  it.each([
    'navigator-2026-11-10-normal',
    'anthropic-claude-sonnet-4.6-normal',
    'Anthropic-Claude-4.6-High',
    'scripted-3f0c9a52-7d1e-4b6a-9c2f-5e8d7a1b4c30',
    'anthropic-claude-normal',
    'anthropic-4.6',
    '-2026-11-10-normal',
    'a-1.-x',
    'gpt',
  ])('agree with the parser on %s, and never both match', (id) => {
    expect(scripted.test(id) && versioned.test(id)).toBe(false);
    expect(scripted.test(id) || versioned.test(id)).toBe(parsePlannerId(id) !== null);
  });
});
