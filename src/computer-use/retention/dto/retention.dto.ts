import { ApiProperty } from '@nestjs/swagger';
import { IsInt } from 'class-validator';

export class RetentionDto {
  @ApiProperty({
    description:
      "days a screen's PNG is kept after its last use: 180 (the EU AI Act's minimum for deployers' logs, the default) to 3650",
    minimum: 180,
    maximum: 3650,
  })
  @IsInt({ message: 'retention_days must be a whole number of days from 180 to 3650' })
  retention_days: number;
}
