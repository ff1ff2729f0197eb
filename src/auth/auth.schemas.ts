import { type ApiSchemas, record, text } from '../common/api-schema';
import { PERMISSIONS } from './permission';

const permission = { type: 'string' as const, enum: [...PERMISSIONS] };

/** Who is calling, and the tenant's mapping of identity-provider groups to permissions. */
export const AUTH_SCHEMAS: ApiSchemas = {
  Me: record(
    {
      tenant: text(),
      subject: text('the token’s subject, or the signed-in person'),
      token_id: text(),
      permissions: { type: 'array', items: permission },
      tags: {
        type: 'array',
        items: text(),
        description: 'the caller’s planner tags, set by the deployment operator (docs/planners.md)',
      },
      session: record(
        {
          csrf_token: text('send as X-Warden-CSRF with every change'),
          groups: { type: 'array', items: text() },
        },
        [],
        'a console session only',
      ),
    },
    ['session'],
  ),
  Access: record({
    groups: {
      type: 'object',
      description: 'group name → the permissions its members get',
      additionalProperties: { type: 'array', items: permission },
    },
  }),
};
