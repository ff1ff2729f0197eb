import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

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

  @ApiPropertyOptional({
    description:
      "a value for each of the agent's script's parameters (routine runs, docs/planners.md): every one given, each 1 to 500 characters, no control characters",
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 500 },
    example: { order: '4712', date: '15.05.2026' },
  })
  @IsOptional()
  @IsObject({ message: 'params must be an object {name: value}' })
  params?: Record<string, unknown>;
}
