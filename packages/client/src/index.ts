import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

/** The answers' schemas by name: `Schemas['Run']`, `Schemas['Approval']` … */
export type Schemas = components['schemas'];
export type Run = Schemas['Run'];
export type Step = Schemas['Step'];
export type Approval = Schemas['Approval'];
export type ApiError = Schemas['Error'];

export type WardenClient = Client<paths, 'application/json'>;

export interface WardenClientOptions {
  /** The deployment's origin, e.g. `https://warden.example.com` (paths start with /api). */
  baseUrl: string;
  /** An API token (`npm run cli -- tokens create …`), sent as `Authorization: Bearer`. */
  token?: string;
  /** Another fetch (tests, proxies). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * A client of the Warden API typed by its OpenAPI document: paths, parameters, bodies and
 * answers are checked at compile time. Every call resolves to `{data}` on a 2xx or `{error}`
 * (the API's `{statusCode, error, message}`), with the raw `response` beside it.
 */
export function createWardenClient(options: WardenClientOptions): WardenClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
