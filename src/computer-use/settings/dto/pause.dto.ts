import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS } from '../agent-config';

export class PauseDto {
  @ApiProperty({
    description: 'true stops every agent of the tenant before its next step or send; false resumes',
  })
  @IsBoolean()
  paused: boolean;

  @ApiPropertyOptional({ description: 'required when pausing', maxLength: LIMITS.reason })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.reason)
  reason?: string;
}
