import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '../../common/list-query.dto';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../delivery.entity';

export class ListDeliveriesDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'left out: every status' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ description: 'only the deliveries about this run' })
  @IsOptional()
  @IsUUID()
  run_id?: string;
}
