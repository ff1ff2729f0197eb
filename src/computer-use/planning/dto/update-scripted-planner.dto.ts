import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PLANNER_NAME } from './create-scripted-planner.dto';

/** `PUT /api/planners/{id}`: a new script, and a new name if given (and why, where it weakens). */
export class UpdateScriptedPlannerDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: 200,
    nullable: true,
    description: 'left out or null: kept',
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Matches(PLANNER_NAME, {
    message: 'name must not start or end with a space or contain control characters',
  })
  name?: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsDefined({ message: 'script is missing: an object {steps, patience?}' })
  script: unknown;

  @ApiPropertyOptional({
    type: String,
    maxLength: 1000,
    nullable: true,
    description:
      'why: required (with governance.weaken) when an agent whose writes need no approval names this script and its content changes',
  })
  @IsOptional()
  @IsString()
  @Length(0, 1000)
  reason?: string | null;
}

/** `DELETE /api/planners/{id}?reason=`: why, when an agent whose writes need no approval names it. */
export class DeleteScriptedPlannerQuery {
  @ApiPropertyOptional({
    maxLength: 1000,
    description:
      'why: required (with governance.weaken) when an agent whose writes need no approval names this script',
  })
  @IsOptional()
  @IsString()
  @Length(0, 1000)
  reason?: string;
}
