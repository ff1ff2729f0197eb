import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PLANNER_NAME } from '../../planning/dto/create-scripted-planner.dto';

/** `POST /api/computer-use/runs/{id}/script`: save a completed run as a scripted planner. */
export class SaveScriptDto {
  @ApiProperty({ example: 'VA02: change the delivery date', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @Matches(PLANNER_NAME, {
    message: 'name must not start or end with a space or contain control characters',
  })
  name: string;

  @ApiPropertyOptional({
    description:
      'text the run typed that becomes a named parameter, given at each run start (`{"params": {…}}`): name → the value the run typed',
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 500 },
    example: { order: '4711', date: '30.04.2026' },
  })
  @IsOptional()
  @IsObject({ message: 'parameters must be an object {name: value the run typed}' })
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({
    description:
      'a model planner (a catalog id or a model object) that plans a step whose screen is not the one the script expects (docs/planners.md)',
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
    example: 'anthropic-claude-sonnet-4.5-normal',
  })
  @IsOptional()
  fallback?: unknown;
}
