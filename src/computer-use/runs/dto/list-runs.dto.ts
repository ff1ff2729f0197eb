import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { ListQueryDto } from '../../../common/list-query.dto';
import { RUN_STATUSES, RunStatus } from '../run-status';

export class ListRunsDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: RUN_STATUSES })
  @IsOptional()
  @IsIn(RUN_STATUSES)
  status?: RunStatus;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'agent must be an agent name' })
  agent?: string;
}
