import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS } from '../agent-config';

export class KillSwitchDto {
  @ApiProperty({ description: 'true stops the agent before its next step; false releases it' })
  @IsBoolean()
  engaged: boolean;

  @ApiPropertyOptional({ description: 'required when engaging', maxLength: LIMITS.reason })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.reason)
  reason?: string;
}
