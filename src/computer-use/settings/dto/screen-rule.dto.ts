import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ScreenRuleShapeKey } from '../../actions/screen-rule-shapes';

/**
 * An agent's `screen_rules` (docs/rules.md), for OpenAPI only: the action rules check them (each
 * shape in its own file, actions/screen-rule-shapes.ts), so an error names the rule by its index.
 * The document is made from decorated classes, so each shape's class is here, listed in
 * SCREEN_RULE_DTOS under its shape's key.
 */

export class CommandFieldDto {
  @ApiProperty({
    type: [String],
    example: ['VA02', 'VA03'],
    description:
      'transaction codes (letters, digits and _, optionally after a /NAMESPACE/); compared without case',
  })
  transactions: string[];
}

/** A rectangle of the screen and what a click in it is (docs/rules.md). */
export class ScreenRuleRegionDto {
  @ApiProperty({ minimum: 0, maximum: 100000, example: 0, description: 'screen pixels' })
  x: number;

  @ApiProperty({ minimum: 0, maximum: 100000, example: 130, description: 'screen pixels' })
  y: number;

  @ApiProperty({ minimum: 1, maximum: 100000, example: 800 })
  width: number;

  @ApiProperty({ minimum: 1, maximum: 100000, example: 300 })
  height: number;

  @ApiProperty({
    enum: ['read', 'write'],
    example: 'read',
    description:
      '"read": a click here is navigation where the outline is served, has no element at the point and nothing read a label (a weakening); "write": every click here is a write',
  })
  click: 'read' | 'write';
}

/** A screen rule of the first shape (docs/rules.md). */
export class TitleScreenRuleDto {
  @ApiPropertyOptional({
    example: '^Change Sales Order: Initial Screen$',
    description:
      "a regular expression (JavaScript, u flag) over the screen's title: the outline's title element, or OCR of the title bar on a host without an outline. A rule has a title, transactions, or both (both must hold)",
  })
  title?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['VA03'],
    description:
      "the rule is for screens of these transactions, as the screen host reports the session's transaction code (SAP GUI Scripting's GuiSessionInfo); never while a modal dialog is open, and never on a host that reports none",
  })
  transactions?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: ['read', 'write'] },
    example: { Enter: 'read' },
    description:
      'navigation or commit keys (normalised like every key) and what they are on the screens the rule is for',
  })
  keys?: Record<string, 'read' | 'write'>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: ['read', 'write'] },
    example: { '^Display$': 'read' },
    description:
      "regular expressions over a clicked element's label, and what such a click is on the screens the rule is for",
  })
  labels?: Record<string, 'read' | 'write'>;

  @ApiPropertyOptional({
    type: [ScreenRuleRegionDto],
    description:
      'at most 50 rectangles of the screen, for an application that draws part of its window without elements in the outline (a register whose cells are drawn)',
  })
  regions?: ScreenRuleRegionDto[];
}

/** A screen rule of the second shape (docs/rules.md). */
export class CommandFieldScreenRuleDto {
  @ApiProperty({
    type: CommandFieldDto,
    description:
      'typing one of these codes (VA02, /nVA02 or /oVA02) into the field the outline names the command field, and the Enter right after it, are reads',
  })
  command_field: CommandFieldDto;
}

/** Each shape's class, under its key of SCREEN_RULE_SHAPES, in the order OpenAPI lists them. */
export const SCREEN_RULE_DTOS: Readonly<Record<ScreenRuleShapeKey, new () => object>> = {
  titled: TitleScreenRuleDto,
  commandField: CommandFieldScreenRuleDto,
};
