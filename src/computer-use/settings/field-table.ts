import 'reflect-metadata';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

/**
 * A field table: each field of an object of the configuration once, with its type, its default,
 * its bounds and whether a change of it is a weakening. From a table come the defaults
 * (`defaultsOf`), the bounds (`boundsOf`), the field names the parser accepts (`Object.keys`), the
 * DTO's class-validator checks and OpenAPI property (`decorateFields`) and the fields the
 * weakening table judges (`weakeningFields`). docs/config-fields.md says how to add a field.
 */

/**
 * Whether moving a field from `before` to `after` lets more happen without a person, judged by the
 * field alone (`fallback` is its default); or `'by-effect'`: it is a control of the weakening table
 * (weakening.ts), judged there with other fields or by what the change does.
 */
export type Weakens<T> = Judge<T>['judge'] | 'by-effect';

/** A method's parameters are bivariant, so a table of many field types is a table of `unknown`s. */
interface Judge<T> {
  judge(before: T, after: T, fallback: T): boolean;
}

interface FieldBase<T> {
  /** Refused when left out (`… is required`); a required field has no default. */
  required?: true;
  /** What the engine reads when the field is left out. */
  default?: T;
  /** OpenAPI shows the default unless it is null or this is false. */
  showDefault?: false;
  /** What OpenAPI says besides the type, the default and the bounds (description, example, …). */
  doc?: Readonly<Record<string, unknown>>;
  weakens?: Weakens<T>;
}

/** A whole number from `min` to `max`; OpenAPI shows `minimum` (`'min'`) or both (`'both'`). */
export interface IntField<T = number | null> extends FieldBase<T> {
  kind: 'int';
  min: number;
  max: number;
  showBounds?: 'min' | 'both';
}

/** A finite number from `min` to `max`. */
export interface NumberField<T = number | null> extends FieldBase<T> {
  kind: 'number';
  min: number;
  max: number;
  showBounds?: 'min' | 'both';
}

export interface BooleanField<T = boolean> extends FieldBase<T> {
  kind: 'boolean';
}

/** One of `values`. */
export interface EnumField<T = string> extends FieldBase<T> {
  kind: 'enum';
  values: readonly string[];
}

/** A string of at most `maxLength` characters (and at least `minLength`). */
export interface TextField<T = string | null> extends FieldBase<T> {
  kind: 'text';
  maxLength: number;
  minLength?: number;
}

/**
 * Any other shape: `checks` are its class-validator decorators in the order they would be written
 * above a property (`IsOptional` is added for a field that is not required), `type` its class as
 * OpenAPI and class-transformer see it. `read: 'own'`: the parser reads it with its own reader
 * (a nested object, a list whose entries are named by index); `'value'`: as the DTO checked it.
 */
export interface OtherField<T = unknown> extends FieldBase<T> {
  kind: 'other';
  type: abstract new (...args: never[]) => unknown;
  checks: readonly PropertyDecorator[];
  read: 'own' | 'value';
}

export type FieldSpec<T = unknown> =
  IntField<T> | NumberField<T> | BooleanField<T> | EnumField<T> | TextField<T> | OtherField<T>;

export type FieldTable = Readonly<Record<string, FieldSpec>>;

/** The field's default, for each field that has one. */
export function defaultsOf(table: FieldTable): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(table)) {
    if ('default' in field) defaults[name] = field.default;
  }
  return defaults;
}

type Bounded = { kind: 'int' | 'number'; min: number; max: number };

/** The bounds of a table's numbers (`{min, max}`) and texts (the longest). */
export type BoundsOf<T> = {
  [K in keyof T as T[K] extends Bounded | { kind: 'text' } ? K : never]: T[K] extends {
    kind: 'text';
  }
    ? number
    : { min: number; max: number };
};

export function boundsOf<T extends FieldTable>(table: T): BoundsOf<T> {
  const bounds: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(table)) {
    if (field.kind === 'int' || field.kind === 'number') {
      bounds[name] = { min: field.min, max: field.max };
    } else if (field.kind === 'text') {
      bounds[name] = field.maxLength;
    }
  }
  return bounds as BoundsOf<T>;
}

/** The fields whose change may be a weakening, in the table's order. */
export type WeakeningFieldOf<T> = {
  [K in keyof T]: T[K] extends { weakens: unknown } ? K : never;
}[keyof T];

export function weakeningFields<T extends FieldTable>(table: T): WeakeningFieldOf<T>[] {
  return Object.keys(table).filter(
    (name) => table[name].weakens !== undefined,
  ) as WeakeningFieldOf<T>[];
}

/** The fields the parser reads as the DTO checked them, filled with their default when left out. */
export function valueFields(table: FieldTable): string[] {
  return Object.keys(table).filter((name) => {
    const field = table[name];
    return field.kind !== 'other' || field.read === 'value';
  });
}

/**
 * Puts each field of `table` on `cls`, in the table's order, as a decorated property would be:
 * its design type, its class-validator checks and its OpenAPI property.
 */
export function decorateFields(cls: abstract new () => object, table: FieldTable): void {
  for (const [name, field] of Object.entries(table)) {
    const prototype = cls.prototype as object;
    Reflect.defineMetadata('design:type', designType(field), prototype, name);
    FieldChecks(field)(prototype, name);
  }
}

/** One field's decorators as one: its OpenAPI property, then its checks. */
export function FieldChecks(field: FieldSpec): PropertyDecorator {
  const api = field.required
    ? ApiProperty(apiOptions(field))
    : ApiPropertyOptional(apiOptions(field));
  const optional = field.required ? [] : [IsOptional()];
  return inWrittenOrder(api, ...optional, ...checks(field));
}

/**
 * Decorators in the order they would be written above a property. Written decorators run from
 * the bottom up, and class-validator reports a property's failed checks in the order they ran.
 */
function inWrittenOrder(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

function checks(field: FieldSpec): readonly PropertyDecorator[] {
  switch (field.kind) {
    case 'int':
      return [IsInt(), Min(field.min), Max(field.max)];
    case 'number':
      return [IsNumber({ allowNaN: false, allowInfinity: false }), Min(field.min), Max(field.max)];
    case 'boolean':
      return [IsBoolean()];
    case 'enum':
      return [IsIn(field.values as string[])];
    case 'text':
      return [
        IsString(),
        ...(field.minLength !== undefined ? [MinLength(field.minLength)] : []),
        MaxLength(field.maxLength),
      ];
    case 'other':
      return field.checks;
  }
}

function designType(field: FieldSpec): unknown {
  switch (field.kind) {
    case 'int':
    case 'number':
      return Number;
    case 'boolean':
      return Boolean;
    case 'enum':
    case 'text':
      return String;
    case 'other':
      return field.type;
  }
}

/**
 * The OpenAPI options: what names the type (`type`, `items`, `enum`) first, then the default, then
 * the bounds shown, then the rest of `doc`. The order is the order of the keys in the document.
 */
function apiOptions(field: FieldSpec): ApiPropertyOptions {
  const doc: Record<string, unknown> = {
    ...(field.kind === 'enum' ? { enum: field.values } : {}),
    ...field.doc,
  };
  const lead = Object.keys(doc).filter((key) => ['type', 'items', 'enum'].includes(key));
  const options: Record<string, unknown> = {};
  for (const key of lead) options[key] = doc[key];
  if ('default' in field && field.default !== null && field.showDefault !== false) {
    options.default = field.default;
  }
  if ((field.kind === 'int' || field.kind === 'number') && field.showBounds) {
    options.minimum = field.min;
    if (field.showBounds === 'both') options.maximum = field.max;
  }
  for (const [key, value] of Object.entries(doc)) {
    if (!lead.includes(key)) options[key] = value;
  }
  return options;
}
