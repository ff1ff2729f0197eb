import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every JSON answer an e2e test receives from the API is checked against the operation's response
 * schema in the committed docs/openapi.json (which a test keeps equal to what the API serves): a
 * handler answering another shape, a field the document does not name, or a status the operation
 * does not document fails the request, and so the test that made it.
 *
 * The document is OpenAPI 3.0; ajv reads JSON Schema 2020-12, so `nullable` becomes a `null`
 * alternative, `allOf` compositions are merged into one object, and every object that lists its
 * properties is closed (`additionalProperties: false`) unless the document opens it.
 */
type Schema = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  /** status → the JSON schema of its answer, or null for an answer that is not JSON. */
  responses: Map<number, Schema | null>;
}

const DOCUMENT_FILE = path.join(__dirname, '..', '..', 'docs', 'openapi.json');
const REF = '#/components/schemas/';
/** Where ajv files the document's component schemas. */
const SCHEMA_ID = 'https://warden.test/openapi/schemas/';

let compiled: { operations: Operation[]; validators: Map<string, ValidateFunction> } | undefined;

export class ContractViolation extends Error {}

/**
 * Throws a ContractViolation when `body` (a parsed JSON answer to `method path`) does not match
 * the document. Answers to routes the document does not list (console pages, test-only routes)
 * are not checked.
 */
export function checkAnswer(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const { pathname } = new URL(url, 'http://localhost');
  const operation = findOperation(method, pathname);
  if (!operation) return;
  const where = `${method.toUpperCase()} ${pathname} → ${status} (${operation.template})`;
  const json = contentType?.includes('application/json') ?? false;
  if (!operation.responses.has(status)) {
    if (status >= 500 && json) return checkSchema(where, 'Error', { $ref: REF + 'Error' }, body);
    throw new ContractViolation(
      `${where}: the document gives this operation no ${status} answer ` +
        `(documented: ${[...operation.responses.keys()].join(', ')})`,
    );
  }
  const schema = operation.responses.get(status);
  if (!schema || !json) return;
  checkSchema(where, `${operation.method} ${operation.template} ${status}`, schema, body);
}

function checkSchema(where: string, key: string, schema: Schema, body: unknown): void {
  const { validators } = load();
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv().compile(toJsonSchema(schema));
    validators.set(key, validate);
  }
  if (validate(body)) return;
  const problems = (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => {
      const extra =
        e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : '';
      return `  ${e.instancePath || '(body)'} ${e.message}${extra}`;
    })
    .join('\n');
  throw new ContractViolation(
    `${where}: the answer does not match the document\n${problems}\n  body: ${JSON.stringify(body).slice(0, 600)}`,
  );
}

function findOperation(method: string, pathname: string): Operation | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const m = method.toLowerCase();
  return load().operations.find((op) => op.method === m && op.pattern.test(path));
}

let ajvInstance: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (ajvInstance) return ajvInstance;
  // OpenAPI annotations (`example`, `x-…`) are not JSON Schema keywords: ajv must let them be.
  ajvInstance = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajvInstance);
  for (const [name, schema] of Object.entries(components())) {
    ajvInstance.addSchema(toJsonSchema(schema), SCHEMA_ID + name);
  }
  return ajvInstance;
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

let documentCache: Document | undefined;
function readDocument(): Document {
  documentCache ??= JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Document;
  return documentCache;
}

const components = (): Record<string, Schema> => readDocument().components?.schemas ?? {};

function load(): NonNullable<typeof compiled> {
  if (compiled) return compiled;
  const document = readDocument();
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    const params = (template.match(/\{[^}]+\}/g) ?? []).length;
    const source = template
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    for (const [method, operation] of Object.entries(methods)) {
      const responses = new Map<number, Schema | null>();
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        responses.set(Number(status), response.content?.['application/json']?.schema ?? null);
      }
      operations.push({ method, template, pattern: new RegExp(`^${source}$`), params, responses });
    }
  }
  // A literal segment wins over a parameter (`/api/planners/scripted` before `/api/planners/{id}`).
  operations.sort((a, b) => a.params - b.params);
  compiled = { operations, validators: new Map() };
  return compiled;
}

/** OpenAPI 3.0 schema → JSON Schema 2020-12, closed where the document does not open it. */
export function toJsonSchema(schema: Schema): Schema {
  if (typeof schema.$ref === 'string') {
    return { $ref: SCHEMA_ID + schema.$ref.slice(REF.length) };
  }
  const { nullable, allOf, ...rest } = schema;
  let out: Schema = { ...rest };
  if (Array.isArray(allOf)) out = mergeAllOf(allOf as Schema[], out);
  if (out.properties && typeof out.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, Schema>).map(([k, v]) => [
        k,
        toJsonSchema(v),
      ]),
    );
    if (out.additionalProperties === undefined) out.additionalProperties = false;
  }
  if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = toJsonSchema(out.additionalProperties as Schema);
  }
  if (out.items && typeof out.items === 'object') out.items = toJsonSchema(out.items as Schema);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as Schema[]).map(toJsonSchema);
  }
  return nullable === true ? { anyOf: [{ type: 'null' }, out] } : out;
}

/** The members of an `allOf` (references resolved) as one object, so that it can be closed. */
function mergeAllOf(members: Schema[], base: Schema): Schema {
  const properties: Record<string, Schema> = {
    ...((base.properties as Record<string, Schema>) ?? {}),
  };
  const required = new Set<string>((base.required as string[]) ?? []);
  for (const member of members) {
    const resolved = resolve(member);
    const flat = Array.isArray(resolved.allOf)
      ? mergeAllOf(resolved.allOf as Schema[], resolved)
      : resolved;
    Object.assign(properties, flat.properties ?? {});
    for (const name of (flat.required as string[]) ?? []) required.add(name);
  }
  const { properties: _p, required: _r, ...rest } = base;
  return { type: 'object', ...rest, properties, required: [...required] };
}

function resolve(schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.slice(REF.length);
  const found = components()[name];
  if (!found) throw new Error(`docs/openapi.json: no schema ${name}`);
  return resolve(found);
}
