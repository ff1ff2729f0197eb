import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID, Matches } from 'class-validator';
import { IsDateTime } from '../../common/is-date-time.decorator';
import { ListQueryDto } from '../../common/list-query.dto';

export class AuditQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    description:
      'an exact type (`computer_use.write`), or a prefix ending with a dot (`computer_use.`)',
  })
  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_.]{0,99}$/, {
    message: 'type must be an event type or a prefix ending with "."',
  })
  type?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  run_id?: string;

  @ApiPropertyOptional({ description: 'ISO 8601, inclusive', example: '2026-11-01T00:00:00Z' })
  @IsOptional()
  @IsDateTime()
  since?: string;

  @ApiPropertyOptional({ description: 'ISO 8601, exclusive' })
  @IsOptional()
  @IsDateTime()
  until?: string;
}
