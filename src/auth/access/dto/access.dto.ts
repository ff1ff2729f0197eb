import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { PERMISSIONS } from '../../permission';

export class AccessDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string', enum: [...PERMISSIONS] } },
    description:
      "the identity provider's groups by name, each with the permissions its members get in this tenant; replaces the whole mapping. A group newly mapped to governance.weaken needs governance.weaken",
    example: { 'warden-approvers': ['agents.approve'], 'warden-audit': ['audit.read'] },
  })
  @IsObject()
  groups: Record<string, string[]>;
}
