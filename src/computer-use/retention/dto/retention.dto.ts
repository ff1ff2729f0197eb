import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, MaxLength } from 'class-validator';

export class RetentionDto {
  @ApiProperty({
    description:
      "days a screen's PNG is kept after its last use: 180 (the EU AI Act's minimum for deployers' logs, the default) to 3650. Shortening it is a weakening: needs governance.weaken and a reason",
    minimum: 180,
    maximum: 3650,
  })
  @IsInt({ message: 'retention_days must be a whole number of days from 180 to 3650' })
  retention_days: number;

  @ApiPropertyOptional({
    description: 'why; required when retention_days is shortened (a weakening)',
    maxLength: 1000,
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}
