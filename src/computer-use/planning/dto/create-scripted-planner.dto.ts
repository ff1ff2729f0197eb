import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Length, Matches } from 'class-validator';

export const PLANNER_NAME = /^\S(?:[^\p{Cc}]*\S)?$/u;

/** `POST /api/planners/scripted`. The script is checked by `checkScript`, which names the step. */
export class CreateScriptedPlannerDto {
  @ApiProperty({ example: 'VA02: change the delivery date of order 4711', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @Matches(PLANNER_NAME, {
    message: 'name must not start or end with a space or contain control characters',
  })
  name: string;

  @ApiProperty({
    description:
      'a script: `{steps: [{step?, when?, patience?, action}], patience?}` (docs/api.md)',
    type: 'object',
    additionalProperties: true,
  })
  @IsDefined({ message: 'script is missing: an object {steps, patience?}' })
  script: unknown;
}
