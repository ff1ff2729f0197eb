import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../../../common/list-query.dto';

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'spent'] as const;

export class ListApprovalsDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: APPROVAL_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(APPROVAL_STATUSES)
  status: (typeof APPROVAL_STATUSES)[number] = 'pending';
}
