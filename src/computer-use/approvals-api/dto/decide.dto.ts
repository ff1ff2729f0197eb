import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

export class DecideDto {
  @ApiPropertyOptional({ example: 'Checked the date with the customer.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comment?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'the console page view it is decided from (POST …/views): oversight records how long after the page opened, and whether the change list was in view',
  })
  @IsOptional()
  @IsUUID()
  view_id?: string;
}
