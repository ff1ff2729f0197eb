import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';

/**
 * Response schemas of the API document: each feature names its answers in a `*.schemas.ts` file
 * (plain JSON Schema, as integrators' generators read it), src/openapi adds them to the document
 * and the handlers point at them with `schemaRef`.
 */
export type ApiSchemas = Record<string, SchemaObject>;

export const schemaRef = (name: string): ReferenceObject => ({
  $ref: `#/components/schemas/${name}`,
});

/** A list's answer (docs/api.md): `{items, next_cursor}`, null on the last page. */
export const pageOf = (name: string): SchemaObject => ({
  type: 'object',
  required: ['items', 'next_cursor'],
  properties: {
    items: { type: 'array', items: schemaRef(name) },
    next_cursor: {
      type: 'string',
      nullable: true,
      description: 'pass as `?cursor=` for the next page; null on the last one',
    },
  },
});

export const text = (description?: string): SchemaObject => ({
  type: 'string',
  ...(description ? { description } : {}),
});
export const textOrNull = (description?: string): SchemaObject => ({
  ...text(description),
  nullable: true,
});
export const time = (description?: string): SchemaObject => ({
  type: 'string',
  format: 'date-time',
  ...(description ? { description } : {}),
});
export const timeOrNull = (description?: string): SchemaObject => ({
  ...time(description),
  nullable: true,
});
export const integer = (description?: string): SchemaObject => ({
  type: 'integer',
  ...(description ? { description } : {}),
});
export const uuid: SchemaObject = { type: 'string', format: 'uuid' };
/** An object whose shape the document does not pin down (model requests, script steps …). */
export const anyObject = (description?: string): SchemaObject => ({
  type: 'object',
  additionalProperties: true,
  ...(description ? { description } : {}),
});

/** An object with every listed property required (answers always carry their keys, null or not). */
export function record(
  properties: Record<string, SchemaObject | ReferenceObject>,
  optional: string[] = [],
  description?: string,
): SchemaObject {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    required: Object.keys(properties).filter((p) => !optional.includes(p)),
    properties,
  };
}
