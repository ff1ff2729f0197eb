import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PLANNER_NAME } from './create-scripted-planner.dto';

/** `PUT /api/planners/{id}`: a new script, and a new name if given. */
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
}
