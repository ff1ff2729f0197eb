import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type ResponseObject,
  type SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { APPROVAL_SCHEMAS } from '../computer-use/approvals/approval.schemas';
import { AUDIT_SCHEMAS } from '../audit-api/audit.schemas';
import { AUDIT_SINK_SCHEMAS } from '../audit-sinks/audit-sinks.schemas';
import { AUTH_SCHEMAS } from '../auth/auth.schemas';
import { CHAT_SCHEMAS } from '../chat/chat.schemas';
import { type ApiSchemas, record, schemaRef, text } from '../common/api-schema';
import { AGENT_DEFAULTS, MODEL_PLANNER_DEFAULTS } from '../computer-use/settings/agent-config';
import { INVENTORY_SCHEMAS } from '../computer-use/inventory/inventory.schemas';
import { RETENTION_SCHEMAS } from '../computer-use/retention/retention.schemas';
import { RUN_SCHEMAS } from '../computer-use/runs/run.schemas';
import { SETTINGS_SCHEMAS } from '../computer-use/settings/settings.schemas';
import { TRANSCRIPT_SCHEMAS } from '../computer-use/models/transcript.schemas';
import { DELIVERY_SCHEMAS } from '../notifications/delivery.schemas';
import { PLANNER_WORK_SCHEMAS } from '../computer-use/remote/planner-work.schemas';
import { OVERSIGHT_SCHEMAS } from '../computer-use/oversight/oversight.schemas';
import { PLANNER_SCHEMAS } from './planner.schemas';

/** The version integrators build against: its major changes with every breaking change. */
export const API_VERSION = '0.1.0';

const TAGS: Array<[string, string]> = [
  ['runs', 'Start, follow, resume and cancel runs; the screens their steps saw.'],
  ['approvals', 'Held writes waiting for a person, and their decisions.'],
  ['chat', 'Deciding in Slack and Teams: their buttons’ endpoints, and linking a chat account.'],
  ['computer-use admin', 'The tenant’s agents, their switches, notifications and evidence.'],
  ['planners', 'Scripted planners an agent can name instead of a model.'],
  ['audit', 'The tenant’s hash-chained audit events.'],
  ['access', 'Which identity-provider groups get which permissions.'],
  ['auth', 'Who the caller is.'],
  ['operations', 'Health probes and metrics for the deployment’s operators.'],
];

/** Every error leaves in this shape (src/http/all-exceptions.filter.ts). */
const ERROR_SCHEMAS: ApiSchemas = {
  Error: {
    ...record(
      {
        statusCode: { type: 'integer', example: 404 },
        error: text('the HTTP reason phrase'),
        message: text('what was wrong, in words a person can act on'),
        correlation_id: text('a 500 only: the request id in the logs'),
      },
      ['correlation_id'],
    ),
    example: { statusCode: 404, error: 'Not Found', message: 'no run 0b6f…' },
  },
};

const SCHEMAS: ApiSchemas = {
  ...ERROR_SCHEMAS,
  ...AUTH_SCHEMAS,
  ...AUDIT_SCHEMAS,
  ...AUDIT_SINK_SCHEMAS,
  ...APPROVAL_SCHEMAS,
  ...CHAT_SCHEMAS,
  ...OVERSIGHT_SCHEMAS,
  ...RUN_SCHEMAS,
  ...SETTINGS_SCHEMAS,
  ...INVENTORY_SCHEMAS,
  ...RETENTION_SCHEMAS,
  ...PLANNER_SCHEMAS,
  ...PLANNER_WORK_SCHEMAS,
  ...TRANSCRIPT_SCHEMAS,
  ...DELIVERY_SCHEMAS,
};

/** The document GET /api/docs-json serves and docs/openapi.json holds. */
export function buildApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Warden API')
    .setDescription('Governed computer use for screen-only systems. See docs/api.md.')
    .setVersion(API_VERSION)
    // Relative: the document is served by the deployment it describes.
    .addServer('/', 'the Warden deployment serving this document')
    .addBearerAuth();
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const config = builder.build();
  config.info.license = { name: 'Proprietary: licensed with the product, not for redistribution' };
  return completeDocument(SwaggerModule.createDocument(app, config));
}

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

const REASONS: Record<number, string> = {
  400: 'the request is malformed or refused: the message says which field and why',
  401: 'missing, unknown or revoked token',
  403: 'the token lacks the permission',
  404: 'not found in the caller’s tenant',
  414: 'a path parameter is over 100 characters',
  413: 'the body is over 1 MiB',
  415: 'the Content-Type is no media type, or not JSON from a console session',
};

/**
 * What every operation shares, added once rather than on 40 handlers: the answers an operation
 * can give before its handler decides anything (401, 403 and a 400 for two credentials from the
 * guard; 400 from the validation of its parameters and body; 413 and 415 from reading a body; 404 for a path naming
 * nothing of the tenant's, 414 for a path parameter the router refuses), all in the error schema,
 * and an explicit empty security on the public routes.
 */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  const schemas = { ...document.components?.schemas, ...SCHEMAS };
  const [agent, planner] = [schemas.AgentDto, schemas.ModelPlannerDto] as SchemaObject[];
  if (agent && planner) {
    schemas.AgentConfig = answered(agent, AGENT_DEFAULTS, 'an agent of the config in force');
    schemas.ModelPlannerConfig = answered(planner, MODEL_PLANNER_DEFAULTS, 'its model planner');
    // What GET answers null a PUT takes back as null (the default): a body read is a body sent.
    schemas.AgentDto = acceptingNull(agent, AGENT_DEFAULTS);
    schemas.ModelPlannerDto = acceptingNull(planner, MODEL_PLANNER_DEFAULTS);
  }
  document.components = { ...document.components, schemas };
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods) as OperationObject[]) {
      if (typeof operation !== 'object' || !operation.responses) continue;
      // OpenAPI ignores header parameters named Accept, Content-Type or Authorization (content
      // and security say those); a handler reading `accept` must not make it a required one.
      operation.parameters = (operation.parameters ?? []).filter(
        (p) => !('in' in p && p.in === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())),
      );
      const parameters = operation.parameters as ParameterObject[];
      const secured = (operation.security ?? []).length > 0;
      if (!secured) operation.security = [];
      const statuses = new Set(Object.keys(operation.responses).map(Number));
      if (secured) statuses.add(401);
      // A signed-in request carrying both a bearer token and a session cookie is a 400 too.
      if (secured || operation.requestBody || parameters.length > 0) statuses.add(400);
      if (operation.requestBody) [413, 415].forEach((s) => statuses.add(s));
      if (parameters.some((p) => p.in === 'path')) [404, 414].forEach((s) => statuses.add(s));
      for (const status of [...statuses].sort()) {
        if (status < 400) continue;
        const given = (operation.responses[status] ?? {}) as ResponseObject;
        operation.responses[status] = {
          ...given,
          description: given.description ?? REASONS[status] ?? 'refused',
          content: given.content ?? { 'application/json': { schema: schemaRef('Error') } },
        };
      }
      operation.responses = sortedByStatus(operation.responses);
    }
  }
  return document;
}

/**
 * An agent (or its model planner) as the config's GET answers it: the body a PUT sends, with every
 * default filled in (so those fields are always there) and null for a field whose default is none.
 */
function answered(dto: SchemaObject, given: object, description: string): SchemaObject {
  const defaults = given as Record<string, unknown>;
  const properties: Record<string, SchemaObject | ReferenceObject> = {};
  for (const [name, property] of Object.entries(dto.properties ?? {})) {
    const answer = withAnsweredPlanner(property);
    properties[name] = defaults[name] === null ? nullable(answer) : answer;
  }
  return {
    type: 'object',
    description: `${description}, defaults filled in`,
    required: [...new Set([...(dto.required ?? []), ...Object.keys(defaults)])],
    properties,
  };
}

/** A body's schema whose fields defaulting to none also take null, meaning that default. */
function acceptingNull(dto: SchemaObject, given: object): SchemaObject {
  const defaults = given as Record<string, unknown>;
  const properties = Object.fromEntries(
    Object.entries(dto.properties ?? {}).map(([name, property]) => [
      name,
      defaults[name] === null ? nullable(property) : property,
    ]),
  );
  return { ...dto, properties };
}

const PLANNER_DTO = schemaRef('ModelPlannerDto').$ref;

function withAnsweredPlanner(
  schema: SchemaObject | ReferenceObject,
): SchemaObject | ReferenceObject {
  if ('$ref' in schema || !schema.oneOf) return schema;
  const oneOf = schema.oneOf.map((s) =>
    '$ref' in s && s.$ref === PLANNER_DTO ? schemaRef('ModelPlannerConfig') : s,
  );
  return { ...schema, oneOf };
}

/** OpenAPI 3.0's `nullable` needs a `type` beside it: a reference or a choice gets one. */
function nullable(schema: SchemaObject | ReferenceObject): SchemaObject {
  if ('$ref' in schema) return { type: 'object', allOf: [schema], nullable: true };
  if (schema.type) return { ...schema, nullable: true };
  if (schema.oneOf) {
    const [first, ...rest] = schema.oneOf;
    return { ...schema, oneOf: [nullable(first), ...rest] };
  }
  return { type: 'object', ...schema, nullable: true };
}

function sortedByStatus<T>(responses: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
