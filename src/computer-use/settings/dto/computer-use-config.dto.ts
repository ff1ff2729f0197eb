import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { AGENT_FIELD_SPECS } from '../agent-fields';
import { decorateFields } from '../field-table';
import { ModelPlannerDto } from './model-planner.dto';
import { SCREEN_RULE_DTOS } from './screen-rule.dto';

export { RECT_FIELDS, RectDto, SCREEN_TLS_FIELDS, ScreenTlsDto } from './screen-parts.dto';

/**
 * The body of `PUT /api/admin/computer-use` as classes: class-validator checks each agent with
 * them (see parse-config.ts, which also reports the path of every refusal) and OpenAPI shows them.
 * Nothing is coerced: `"max_steps": "20"` is refused. An agent's properties, their checks and what
 * OpenAPI says of them come from its field table (agent-fields.ts).
 */

@ApiExtraModels(ModelPlannerDto, ...Object.values(SCREEN_RULE_DTOS))
export class AgentDto {}
decorateFields(AgentDto, AGENT_FIELD_SPECS);

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

/** The names of an agent's fields, for refusing unknown ones before anything else. */
export const AGENT_FIELDS: readonly string[] = Object.keys(AGENT_FIELD_SPECS);
