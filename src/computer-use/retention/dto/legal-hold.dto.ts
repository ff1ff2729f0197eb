import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

export class LegalHoldDto {
  @ApiProperty({ description: "true keeps the run's screens past retention; false lifts the hold" })
  @IsBoolean()
  held: boolean;

  @ApiPropertyOptional({
    description:
      'required when holding (a case, a request), and when lifting a hold (a weakening: needs governance.weaken as well)',
    maxLength: 500,
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
