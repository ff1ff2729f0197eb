import 'reflect-metadata';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { type FieldTable, valueFields } from './field-table';

/**
 * How a config body's objects are read, whatever they are (an agent, a model planner, a
 * rectangle): unknown fields named, the DTO checked, each problem said by its path. Pure.
 */

/** Constraints that say a value has the wrong type: when one fails, its bounds say nothing more. */
const TYPE_CONSTRAINTS = ['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isIn'];

/**
 * What an agent is read with: its field table and the DTO class decorated from it. The fields the
 * table reads as values (`valueFields`) come out of the DTO as checked, or their default; the
 * others each have a reader in parse-config.ts (`OwnFields`).
 */
export interface AgentSchema {
  fields: FieldTable;
  dto: ClassConstructor<object>;
}

export /**
 * The object a table describes, its fields in the table's order: each value field as the DTO
 * checked it or its default, each other field from `own`.
 */
function read(
  fields: FieldTable,
  dto: Record<string, unknown>,
  own: object,
): Record<string, unknown> {
  const values = new Set(valueFields(fields));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    out[name] = values.has(name)
      ? (dto[name] ?? field.default)
      : (own as Record<string, unknown>)[name];
  }
  return out;
}

export /** The fields of `raw` that `fields` knows; a problem for each other one. */
function unknownFields(
  raw: Record<string, unknown>,
  fields: readonly string[],
  path: string,
  what: string,
  problems: string[],
): Record<string, unknown> {
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (fields.includes(key)) {
      known[key] = value;
    } else {
      const here = path ? `${path}.${key}` : key;
      problems.push(
        `${here.slice(0, 200)} is not a field of ${what} (one of ${fields.join(', ')})`,
      );
    }
  }
  return known;
}

/** Validates `known` (only known fields, so nothing odd reaches class-transformer) as a `cls`. */
export function check<T extends object>(
  cls: ClassConstructor<T>,
  known: Record<string, unknown>,
  path: string,
  problems: string[],
): T {
  const instance = plainToInstance(cls, known);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  describe(errors, path, problems);
  return instance;
}

function describe(errors: ValidationError[], prefix: string, problems: string[]): void {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0 && (error.value === undefined || error.value === null)) {
      problems.push(`${path} is required`);
      continue;
    }
    const typeFailure = constraints.find(([name]) => TYPE_CONSTRAINTS.includes(name));
    for (const [, message] of typeFailure ? [typeFailure] : constraints) {
      // class-validator starts its messages with the property's own name; say the whole path.
      problems.push(
        message.startsWith(`${error.property} `)
          ? path + message.slice(error.property.length)
          : `${path}: ${message}`,
      );
    }
    if (error.children?.length) describe(error.children, path, problems);
  }
}
