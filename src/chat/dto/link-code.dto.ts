import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

/** The one-time code a chat account got to link itself (the part of its link after `#`). */
export class LinkCodeDto {
  @ApiProperty({ example: 'n2V0aGluZy1oZXJlLWp1c3QtYW4tZXhhbXBsZQ' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{16,100}$/, { message: 'code must be the code from the chat link' })
  code: string;
}
