import { getSchemaPath } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, IsUrl, Matches } from 'class-validator';
import {
  APPROVE_AT,
  BOUNDS,
  ENV_NAME_PATTERN,
  ON_INJECTION,
  PLANNER_ID_JSON_PATTERN,
  SCRIPTED_PLANNER_JSON_PATTERN,
} from './config-bounds';
import { ENV_NAME_MESSAGE, HTTPS_URL } from './dto/field-checks';
import { ModelPlannerDto } from './dto/model-planner.dto';
import { NotifyChannelDto } from './dto/notify-channel.dto';
import { SCREEN_RULE_DTOS } from './dto/screen-rule.dto';
import { RectDto, ScreenTlsDto } from './dto/screen-parts.dto';
import type { FieldTable, OtherField } from './field-table';

/**
 * The fields of an agent (the values of `agents` in `PUT /api/admin/computer-use`), each once: its
 * type, its default, its bounds, what OpenAPI says of it and, where a field alone says so, when a
 * change of it is a weakening. The defaults, the bounds, the DTO's checks, the fields the parser
 * accepts and the weakening table's controls are all read from here (docs/config-fields.md).
 * agent-config.ts checks it against the `AgentConfig` the engine reads.
 */

const WEAKENING = 'is a weakening: needs governance.weaken and a reason';

/** A list of typed approver entries; checked in approver-fields.ts, so an error names its index. */
const deciders = (doc: Record<string, unknown>): OtherField<string[]> => ({
  kind: 'other',
  type: Array,
  read: 'own',
  default: [],
  doc: { type: [String], maxItems: BOUNDS.approvers, ...doc },
  checks: [],
});

/** Seconds after a write was held, or null: never; checked in approver-fields.ts. */
const timer = (description: string): OtherField<number | null> => ({
  kind: 'other',
  type: Object,
  read: 'own',
  default: null,
  doc: {
    type: 'integer',
    nullable: true,
    minimum: BOUNDS.approval_timer_seconds.min,
    description,
  },
  checks: [],
});

export const AGENT_FIELD_SPECS = {
  screen_url: {
    kind: 'other',
    type: String,
    read: 'value',
    required: true,
    doc: {
      example: 'https://sapgui-host.internal:8443',
      description: `a new one for an agent whose writes need no approval ${WEAKENING}`,
    },
    checks: [
      IsString(),
      IsUrl(HTTPS_URL, { message: 'screen_url must be an https:// URL without credentials in it' }),
    ],
    // Only while the agent's writes need no approval (weakening.ts).
    weakens: 'by-effect',
  },
  screen_token_env: {
    kind: 'other',
    type: String,
    read: 'value',
    required: true,
    doc: { example: 'TICKETIQ_SAPGUI_HOST_TOKEN' },
    checks: [
      IsString(),
      Matches(ENV_NAME_PATTERN, { message: ENV_NAME_MESSAGE('screen_token_env') }),
    ],
  },
  screen_tls: {
    kind: 'other',
    type: ScreenTlsDto,
    read: 'own',
    default: null,
    doc: { type: ScreenTlsDto, description: 'left out: the system CAs' },
    checks: [],
  },
  system: { kind: 'text', default: null, maxLength: 200, doc: { example: 'SAP GUI' } },
  max_steps: { kind: 'int', default: 20, min: 1, max: 40, showBounds: 'both' },
  max_seconds: { kind: 'int', default: 300, min: 10, max: 3600 },
  require_write_approval: {
    kind: 'boolean',
    default: true,
    doc: { description: 'false needs governance.weaken and a reason' },
    weakens: (before: boolean, after: boolean) => before && !after,
  },
  reason: {
    kind: 'text',
    default: null,
    maxLength: 1000,
    doc: {
      description:
        'why the agent is weakened: required (not blank) with every weakening (docs/security.md) and whenever require_write_approval is false',
    },
  },
  four_eyes: {
    kind: 'boolean',
    default: true,
    doc: { description: `false ${WEAKENING}` },
    weakens: (before: boolean, after: boolean) => before && !after,
  },
  approval_timeout_seconds: {
    kind: 'int',
    default: 3600,
    min: 5,
    max: 604_800,
    doc: { description: `raising it above the default ${WEAKENING}` },
    weakens: (before: number, after: number, fallback: number) =>
      after > fallback && after > before,
  },
  stall_after: { kind: 'int', default: 3, min: 1, max: 40 },
  settle_ms: {
    kind: 'int',
    default: null,
    min: 0,
    max: 5000,
    showBounds: 'both',
    doc: {
      nullable: true,
      description:
        "milliseconds between the two screenshots that must agree before the screen counts as settled after an action; null: the deployment's SETTLE_INTERVAL_MS. Raise it for applications that repaint late (LibreOffice Calc: 300)",
    },
  },
  planner: {
    kind: 'other',
    type: Object,
    read: 'own',
    default: null,
    doc: {
      oneOf: [
        { type: 'string', pattern: SCRIPTED_PLANNER_JSON_PATTERN },
        { type: 'string', pattern: PLANNER_ID_JSON_PATTERN },
        { $ref: getSchemaPath(ModelPlannerDto) },
      ],
      description: `left out: the deployment default model, if any; a new one for an agent whose writes need no approval ${WEAKENING}`,
    },
    checks: [],
    // Only while the agent's writes need no approval, and by who plans (weakening.ts).
    weakens: 'by-effect',
  },
  /** Checked by the action rules (loadRules), which know what a committing word may be. */
  commit_words: {
    kind: 'other',
    type: Array,
    read: 'own',
    default: [],
    showDefault: false,
    doc: {
      type: [String],
      description: `committing verbs added to the defaults; removing one ${WEAKENING}`,
    },
    checks: [],
    // Compared as written: a word spelt anew counts as removed (the safe side).
    weakens: (before: readonly string[], after: readonly string[]) =>
      before.some((word) => !after.includes(word)),
  },
  /** Checked by the action rules (loadRules), like commit_words. */
  navigation_words: {
    kind: 'other',
    type: Array,
    read: 'own',
    default: [],
    showDefault: false,
    doc: {
      type: [String],
      description: `words added to the defaults that make a command control (a button, a menu item) a read when its labels name nothing else; adding one ${WEAKENING}`,
    },
    checks: [],
    // Compared as written: a word spelt anew counts as added (the safe side).
    weakens: (before: readonly string[], after: readonly string[]) =>
      after.some((word) => !before.includes(word)),
  },
  unlabelled_clicks: {
    kind: 'enum',
    values: ['read', 'write'] as const,
    default: 'write' as const,
    doc: { description: `"read" ${WEAKENING}` },
    weakens: (before: string, after: string) => before !== 'read' && after === 'read',
  },
  /** Each rectangle is checked on its own (parse-config.ts), so an error names its index. */
  ignore_regions: {
    kind: 'other',
    type: Array,
    read: 'own',
    default: [],
    showDefault: false,
    doc: {
      type: [RectDto],
      description: `covering more than 2% of a 1024×768 screen, and pixels not ignored before, ${WEAKENING}`,
    },
    checks: [IsArray(), ArrayMaxSize(BOUNDS.ignore_regions)],
    // By the area newly ignored (weakening.ts).
    weakens: 'by-effect',
  },
  /** Checked like ignore_regions. */
  redact_regions: {
    kind: 'other',
    type: Array,
    read: 'own',
    default: [],
    showDefault: false,
    doc: {
      type: [RectDto],
      description: `blacked out in every screenshot Warden stores or shows (the model's and the approver's included), never in what the host acts on; the outline's texts under them are never read; covering more than 2% of a 1024×768 screen, and pixels not redacted before, ${WEAKENING}`,
    },
    checks: [IsArray(), ArrayMaxSize(BOUNDS.redact_regions)],
    // By the area newly hidden from the approver (weakening.ts).
    weakens: 'by-effect',
  },
  /** Checked by the action rules (screen-rules-read.ts), so an error names the rule by its index. */
  screen_rules: {
    kind: 'other',
    type: Array,
    read: 'own',
    default: [],
    doc: {
      type: 'array',
      items: {
        oneOf: Object.values(SCREEN_RULE_DTOS).map((dto) => ({ $ref: getSchemaPath(dto) })),
      },
      description: `what keys, labels and transaction codes are on given screens (docs/rules.md); a change that may make a write a read (a read entry added or changed, a write entry removed or changed) ${WEAKENING}`,
    },
    checks: [],
    // By what each rule's entries make of a write (screen-rule-effect.ts).
    weakens: 'by-effect',
  },
  approve_at: {
    kind: 'enum',
    values: APPROVE_AT,
    default: 'every_write' as const,
    doc: {
      description: `where writes wait for a person: every write, or only commits ("commit": typing is staged and listed on the commit's approval, docs/approver-guide.md); "commit" ${WEAKENING}`,
    },
    weakens: (before: string, after: string) => before !== 'commit' && after === 'commit',
  },
  on_injection: {
    kind: 'enum',
    values: ON_INJECTION,
    default: 'hold' as const,
    doc: {
      description:
        "when text on a model's screen looks like instructions to it (the injection rail, verdict injected): hold the action for a person, or stop the run (end reason injection)",
    },
  },
  /** Each channel is checked by parse-notify.ts, so an error names its index and its kind's fields. */
  notify: {
    kind: 'other',
    type: Array,
    read: 'own',
    default: [],
    doc: {
      type: [NotifyChannelDto],
      description:
        'where Warden tells people that a write is held, decided, escalated or reminded, and that a run ended (docs/notifications.md); at most 10',
    },
    checks: [],
  },
  /** Checked by parse-notify.ts. */
  notify_include_screen: {
    kind: 'other',
    type: Boolean,
    read: 'own',
    default: false,
    doc: {
      description:
        'false: messages say "typed text (N characters)" and carry no screenshot link; true: typed text in full and a link to the held screen',
    },
    checks: [],
  },
  approvers: {
    ...deciders({
      example: ['group:sap-leads', 'subject:carol'],
      description: `who may approve or reject this agent's writes, each entry typed: "group:NAME" (a group of the identity provider the deployment trusts) or "subject:NAME" (an API token's subject, or the subject (sub) of a person signed in through that provider); an untyped entry is refused. [] (the default): anyone with agents.approve in the tenant. Widening it (adding an entry, or emptying it) ${WEAKENING}`,
    }),
    // Wider is any list that is not a subset of the old one, or [] (weakening.ts).
    weakens: 'by-effect',
  },
  remind_after_seconds: timer(
    'a pending write is recalled (audited approval.reminded) this many seconds after it was held; less than approval_timeout_seconds; null (the default): never',
  ),
  escalate_after_seconds: timer(
    'a pending write is handed to escalate_to as well this many seconds after it was held (audited approval.escalated); greater than remind_after_seconds, less than approval_timeout_seconds; null (the default): never',
  ),
  escalate_to: {
    ...deciders({
      description: `who may decide as well once a write is escalated, typed like approvers ("group:NAME", "subject:NAME"); required (non-empty) with escalate_after_seconds. A new entry while approvers is not empty ${WEAKENING}`,
    }),
    // Only while approvers is not empty, against approvers and escalate_to before (weakening.ts).
    weakens: 'by-effect',
  },
} satisfies FieldTable;
