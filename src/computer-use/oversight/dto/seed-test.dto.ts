import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

/** How long a seeded test waits for a decision when the request names no time: a day. */
export const SEED_TEST_EXPIRY_S = 86400;
/** One line of the known-bad change list: the field, its value before, what the "commit" stores. */
export class SeedChangeDto {
  @ApiProperty({ example: 'Net price' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  field: string;

  @ApiProperty({ example: '1.250,00' })
  @IsString()
  @MaxLength(500)
  before: string;

  @ApiProperty({ example: '12,50' })
  @IsString()
  @MaxLength(500)
  after: string;
}

/**
 * A seeded test (docs/approver-guide.md, oversight): a held write that looks like the agent's, made
 * up by an admin so that rejecting it is the right answer. It waits in the inbox of whoever may
 * decide the agent's writes.
 */
export class SeedTestDto {
  @ApiProperty({ example: 'sap-orders', description: 'the agent it seems to come from' })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'agent must be an agent name (a-z, 0-9, -)' })
  agent: string;

  @ApiProperty({ example: 'Change the net price of order 4711 to 12,50' })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  goal: string;

  @ApiPropertyOptional({ example: 'SAP GUI · S4H 100' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  system?: string;

  @ApiProperty({
    description: 'the action as a planner would propose it',
    example: { action: 'key', key: 'Ctrl+S' },
    type: 'object',
    additionalProperties: true,
  })
  @IsObject({ message: 'action must be an action object, like {"action": "key", "key": "Ctrl+S"}' })
  action: Record<string, unknown>;

  @ApiProperty({ example: 'Ctrl+S saves the order' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  why: string;

  @ApiPropertyOptional({ type: [SeedChangeDto], description: 'the change list it seems to store' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => SeedChangeDto)
  changes?: SeedChangeDto[];

  /** Omitted or null: SEED_TEST_EXPIRY_S. */
  @ApiPropertyOptional({ type: Number, minimum: 60, maximum: 604800, default: 86400 })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(604800)
  expires_in_seconds?: number = SEED_TEST_EXPIRY_S;
}
