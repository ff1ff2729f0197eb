import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';

/** A worker's name: what its claims and answers are known by (and its heartbeat). */
export const WORKER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,99}$/;
const WORKER_MESSAGE =
  'worker must be 1-100 letters, digits and _ . : @ -, starting with a letter or digit';

/** `GET /api/planner-work?families=&worker=`. */
export class ListPlannerWorkDto {
  @ApiProperty({ example: 'vision-lab', description: 'families, comma-separated' })
  @IsString({ message: 'families is missing: the families to ask for, comma-separated' })
  @Length(1, 1000)
  families: string;

  @ApiProperty({ example: 'gpu-box-1' })
  @IsString({ message: WORKER_MESSAGE })
  @Matches(WORKER_NAME, { message: WORKER_MESSAGE })
  worker: string;
}

/** `POST /api/planner-work/{id}/claim`. */
export class ClaimPlannerWorkDto {
  @ApiProperty({ example: 'gpu-box-1' })
  @IsString({ message: WORKER_MESSAGE })
  @Matches(WORKER_NAME, { message: WORKER_MESSAGE })
  worker: string;
}

/** `POST /api/planner-work/{id}/answer`: a decision (one action, docs/rules.md) or an error. */
export class AnswerPlannerWorkDto {
  @ApiProperty({ example: 'gpu-box-1' })
  @IsString({ message: WORKER_MESSAGE })
  @Matches(WORKER_NAME, { message: WORKER_MESSAGE })
  worker: string;

  @ApiPropertyOptional({
    description: 'one action as a planner answers it: `{"action": "click", "x": 10, "y": 20}`',
    type: 'object',
    additionalProperties: true,
    example: { action: 'click', x: 227, y: 347, target: 'VA03 - Display Sales Order' },
  })
  @ValidateIf((o: AnswerPlannerWorkDto) => o.error === undefined)
  @IsDefined({ message: 'send either decision (one action) or error (a message)' })
  decision?: unknown;

  @ApiPropertyOptional({
    description:
      'why the worker gives no decision; kept only when it is a code of the documented list (`model_unreachable`, `model_http_503`, docs/planners.md), else only its length',
    example: 'model_unreachable',
    maxLength: 2000,
  })
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  error?: string;
}
