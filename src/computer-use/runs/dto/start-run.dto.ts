import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class StartRunDto {
  @ApiProperty({ example: 'sap-orders', description: 'an agent of the tenant computer-use config' })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'agent must be an agent name (a-z, 0-9, -)' })
  agent: string;

  @ApiProperty({ example: "Change order 4711's requested delivery date to 15.12.2026 and save" })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  goal: string;
}
