import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class DecideDto {
  @ApiPropertyOptional({ example: 'Checked the date with the customer.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comment?: string;
}
