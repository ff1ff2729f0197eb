import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  AGENT_DEFAULTS,
  APPROVE_AT,
  type ApproveAt,
  ON_INJECTION,
  type OnInjection,
  ENV_NAME_PATTERN,
  FINGERPRINT_PATTERN,
  LIMITS,
} from '../agent-config';
import { ENV_NAME_MESSAGE, HTTPS_URL } from './field-checks';
import { ModelPlannerDto } from './model-planner.dto';
import { NotifyChannelDto } from './notify-channel.dto';
import { CommandFieldScreenRuleDto, TitleScreenRuleDto } from './screen-rule.dto';

/**
 * The body of `PUT /api/admin/computer-use` as classes: class-validator checks each agent with
 * them (see parse-config.ts, which also reports the path of every refusal) and OpenAPI shows them.
 * Nothing is coerced: `"max_steps": "20"` is refused.
 */

export class RectDto {
  @ApiProperty({ minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(LIMITS.coordinate)
  x: number;

  @ApiProperty({ minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(LIMITS.coordinate)
  y: number;

  @ApiProperty({ minimum: 1 })
  @IsInt()
  @Min(1)
  @Max(LIMITS.coordinate)
  width: number;

  @ApiProperty({ minimum: 1 })
  @IsInt()
  @Min(1)
  @Max(LIMITS.coordinate)
  height: number;
}

/** Exactly one of the two. Left out: the system's CAs. */
export class ScreenTlsDto {
  @ApiPropertyOptional({
    description: 'SHA-256 of the DER certificate: 64 hex digits, colons between pairs optional',
    example: '3f:a2:…',
  })
  @IsOptional()
  @IsString()
  @Matches(FINGERPRINT_PATTERN, {
    message:
      'fingerprint_sha256 must be the SHA-256 of the certificate: 64 hex digits, with or without colons between pairs',
  })
  fingerprint_sha256?: string;

  @ApiPropertyOptional({ description: 'absolute path to a PEM file of CA certificates' })
  @IsOptional()
  @IsString()
  @Matches(/^\/[^\0]*$/, { message: 'ca_file must be an absolute path' })
  @MaxLength(LIMITS.ca_file)
  ca_file?: string;
}

@ApiExtraModels(ModelPlannerDto, TitleScreenRuleDto, CommandFieldScreenRuleDto)
export class AgentDto {
  @ApiProperty({
    example: 'https://sapgui-host.internal:8443',
    description:
      'a new one for an agent whose writes need no approval is a weakening: needs governance.weaken and a reason',
  })
  @IsString()
  @IsUrl(HTTPS_URL, {
    message: 'screen_url must be an https:// URL without credentials in it',
  })
  screen_url: string;

  @ApiProperty({ example: 'TICKETIQ_SAPGUI_HOST_TOKEN' })
  @IsString()
  @Matches(ENV_NAME_PATTERN, { message: ENV_NAME_MESSAGE('screen_token_env') })
  screen_token_env: string;

  @ApiPropertyOptional({ type: ScreenTlsDto, description: 'left out: the system CAs' })
  @IsOptional()
  screen_tls?: ScreenTlsDto;

  @ApiPropertyOptional({ example: 'SAP GUI' })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.system)
  system?: string;

  @ApiPropertyOptional({ default: AGENT_DEFAULTS.max_steps, minimum: 1, maximum: 40 })
  @IsOptional()
  @IsInt()
  @Min(LIMITS.max_steps.min)
  @Max(LIMITS.max_steps.max)
  max_steps?: number;

  @ApiPropertyOptional({ default: AGENT_DEFAULTS.max_seconds })
  @IsOptional()
  @IsInt()
  @Min(LIMITS.max_seconds.min)
  @Max(LIMITS.max_seconds.max)
  max_seconds?: number;

  @ApiPropertyOptional({
    default: true,
    description: 'false needs governance.weaken and a reason',
  })
  @IsOptional()
  @IsBoolean()
  require_write_approval?: boolean;

  @ApiPropertyOptional({
    description:
      'why the agent is weakened: required (not blank) with every weakening (docs/security.md) and whenever require_write_approval is false',
  })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.reason)
  reason?: string;

  @ApiPropertyOptional({
    default: true,
    description: 'false is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  @IsBoolean()
  four_eyes?: boolean;

  @ApiPropertyOptional({
    default: AGENT_DEFAULTS.approval_timeout_seconds,
    description:
      'raising it above the default is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  @IsInt()
  @Min(LIMITS.approval_timeout_seconds.min)
  @Max(LIMITS.approval_timeout_seconds.max)
  approval_timeout_seconds?: number;

  @ApiPropertyOptional({ default: AGENT_DEFAULTS.stall_after })
  @IsOptional()
  @IsInt()
  @Min(LIMITS.stall_after.min)
  @Max(LIMITS.stall_after.max)
  stall_after?: number;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', pattern: '^scripted-<uuid>$' },
      { $ref: getSchemaPath(ModelPlannerDto) },
    ],
    description:
      'left out: the deployment default model, if any; a new one for an agent whose writes need no approval is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  planner?: string | ModelPlannerDto;

  /** Checked by the action rules (loadRules), which know what a committing word may be. */
  @ApiPropertyOptional({
    type: [String],
    description:
      'committing verbs added to the defaults; removing one is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  commit_words?: string[];

  /** Checked by the action rules (loadRules), like commit_words. */
  @ApiPropertyOptional({
    type: [String],
    description:
      'words added to the defaults that make a command control (a button, a menu item) a read when its labels name nothing else; adding one is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  navigation_words?: string[];

  @ApiPropertyOptional({
    enum: ['read', 'write'],
    default: 'write',
    description: '"read" is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  @IsIn(['read', 'write'])
  unlabelled_clicks?: 'read' | 'write';

  /** Each rectangle is checked on its own (parse-config.ts), so an error names its index. */
  @ApiPropertyOptional({
    type: [RectDto],
    description:
      'covering more than 2% of a 1024×768 screen, and pixels not ignored before, is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIMITS.ignore_regions)
  ignore_regions?: RectDto[];

  /** Checked like ignore_regions. */
  @ApiPropertyOptional({
    type: [RectDto],
    description:
      "blacked out in every screenshot Warden stores or shows (the model's included), never in what the host acts on",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIMITS.redact_regions)
  redact_regions?: RectDto[];

  /** Checked by the action rules (screen-rules-read.ts), so an error names the rule by its index. */
  @ApiPropertyOptional({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(TitleScreenRuleDto) },
        { $ref: getSchemaPath(CommandFieldScreenRuleDto) },
      ],
    },
    default: [],
    description:
      'what keys, labels and transaction codes are on given screens (docs/rules.md); a change that may make a write a read (a read entry added or changed, a write entry removed or changed) is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  screen_rules?: Array<TitleScreenRuleDto | CommandFieldScreenRuleDto>;

  @ApiPropertyOptional({
    enum: APPROVE_AT,
    default: 'every_write',
    description:
      'where writes wait for a person: every write, or only commits ("commit": typing is staged and listed on the commit\'s approval, docs/approver-guide.md); "commit" is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  @IsIn(APPROVE_AT)
  approve_at?: ApproveAt;

  @ApiPropertyOptional({
    enum: ON_INJECTION,
    default: 'hold',
    description:
      "when text on a model's screen looks like instructions to it (the injection rail, verdict injected): hold the action for a person, or stop the run (end reason injection)",
  })
  @IsOptional()
  @IsIn(ON_INJECTION)
  on_injection?: OnInjection;

  /** Each channel is checked by parse-notify.ts, so an error names its index and its kind's fields. */
  @ApiPropertyOptional({
    type: [NotifyChannelDto],
    default: [],
    description:
      'where Warden tells people that a write is held, decided, escalated or reminded, and that a run ended (docs/notifications.md); at most 10',
  })
  @IsOptional()
  notify?: NotifyChannelDto[];

  @ApiPropertyOptional({
    default: false,
    description:
      'false: messages say "typed text (N characters)" and carry no screenshot link; true: typed text in full and a link to the held screen',
  })
  @IsOptional()
  notify_include_screen?: boolean;
  /** This and the three below are checked in approver-fields.ts, so an error names its index. */
  @ApiPropertyOptional({
    type: [String],
    default: [],
    maxItems: LIMITS.approvers,
    example: ['group:sap-leads', 'subject:carol'],
    description:
      'who may approve or reject this agent\'s writes, each entry typed: "group:NAME" (a group of the identity provider the deployment trusts) or "subject:NAME" (an API token\'s subject, or the subject (sub) of a person signed in through that provider); an untyped entry is refused. [] (the default): anyone with agents.approve in the tenant. Widening it (adding an entry, or emptying it) is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  approvers?: string[];

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: LIMITS.approval_timer_seconds.min,
    description:
      'a pending write is recalled (audited approval.reminded) this many seconds after it was held; less than approval_timeout_seconds; null (the default): never',
  })
  @IsOptional()
  remind_after_seconds?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: LIMITS.approval_timer_seconds.min,
    description:
      'a pending write is handed to escalate_to as well this many seconds after it was held (audited approval.escalated); greater than remind_after_seconds, less than approval_timeout_seconds; null (the default): never',
  })
  @IsOptional()
  escalate_after_seconds?: number | null;

  @ApiPropertyOptional({
    type: [String],
    default: [],
    maxItems: LIMITS.approvers,
    description:
      'who may decide as well once a write is escalated, typed like approvers ("group:NAME", "subject:NAME"); required (non-empty) with escalate_after_seconds. A new entry while approvers is not empty is a weakening: needs governance.weaken and a reason',
  })
  @IsOptional()
  escalate_to?: string[];
}

@ApiExtraModels(AgentDto)
export class ComputerUseConfigDto {
  @ApiProperty({ description: 'computer use is off until this is true' })
  @IsBoolean()
  enabled: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(AgentDto) },
    description: 'agents by name (1-63 of a-z, 0-9 and -)',
  })
  agents: Record<string, AgentDto>;

  @ApiPropertyOptional({
    description:
      'the version this change is based on (from GET): if another change came first, 409',
  })
  version?: number;
}

/** The names of each object's fields, for refusing unknown ones before anything else. */
export const AGENT_FIELDS: readonly string[] = [
  'screen_url',
  'screen_token_env',
  'screen_tls',
  'system',
  'max_steps',
  'max_seconds',
  'require_write_approval',
  'reason',
  'four_eyes',
  'approval_timeout_seconds',
  'stall_after',
  'planner',
  'commit_words',
  'navigation_words',
  'unlabelled_clicks',
  'ignore_regions',
  'redact_regions',
  'screen_rules',
  'approve_at',
  'on_injection',
  'notify',
  'notify_include_screen',
  'approvers',
  'remind_after_seconds',
  'escalate_after_seconds',
  'escalate_to',
];
export const SCREEN_TLS_FIELDS: readonly string[] = ['fingerprint_sha256', 'ca_file'];
export const RECT_FIELDS: readonly string[] = ['x', 'y', 'width', 'height'];
