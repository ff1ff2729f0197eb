// @ts-check
/**
 * The API as the console calls it: with the tab's token in the Authorization header (never in a
 * URL), or, for a person signed in through the company's identity provider, with the session
 * cookie and, on every change, the session's CSRF token in X-Warden-CSRF (never both: the API
 * refuses a request with a token and the cookie). Every error is an ApiError with the API's own
 * message.
 */

/**
 * @typedef {{
 *   tenant: string, subject: string, token_id: string, permissions: string[],
 *   session?: {csrf_token: string, groups: string[]}
 * }} Me
 *   `session`: signed in through the identity provider (a cookie session), not with a token.
 * @typedef {Record<string, unknown> & {action?: unknown}} Action
 * @typedef {{
 *   id: string, kind: string, status: 'pending'|'approved'|'rejected'|'expired'|'spent',
 *   tenant: string, agent: string, run_id: string, step: number, action: Action, why: string,
 *   screen_sha256: string, screen_pixel_sha256: string, volatile_pixels: number,
 *   volatile_regions: {frame: {width: number, height: number},
 *     rects: Array<{x: number, y: number, width: number, height: number}>} | null,
 *   requested_by: string, created_at: string, expires_at: string, decided_by: string | null,
 *   decided_at: string | null, comment: string | null, spent_by: string | null,
 *   spent_at: string | null,
 *   safety_checks?: Array<{id: string, code: string | null, message: string | null}> | null,
 *   changes?: Change[] | null,
 *   rail?: {verdict: 'clean'|'suspect'|'injected', rule: string | null,
 *     text_sha256: string | null, source: 'outline'|'ocr'|null, rect: Rect | null} | null,
 *   may_decide_now?: string[] | null, escalates_at?: string | null,
 *   for_you?: {approve: string | null, reject: string | null},
 *   escalated_at?: string | null, reminded_at?: string | null
 * }} Approval
 * @typedef {{x: number, y: number, width: number, height: number}} Rect
 * @typedef {{
 *   field: string, before: string | null, after: string | null, read_back: string | null,
 *   read_back_check: 'same'|'differs'|'unread'|'earlier'|'unexplained', step: number, rect: Rect | null,
 *   kind?: 'navigation'
 * }} Change
 *   One line of a held commit's change list (commit-point approval): a field, its value before
 *   (null: nothing read it), what the run typed last (null: only Backspace), the value read back on
 *   the held screen (null: not read), the last step that edited it, and where it is (the action's
 *   coordinates; where it was, when it is not on the held screen). `kind` `navigation`: not a
 *   change the commit stores (a field typed on an earlier screen that a screen rule's read left).
 * @typedef {{
 *   field: {label: string, id: string | null, rect: Rect | null, at: {x: number, y: number} | null},
 *   before: string | null, text: string | null, key?: 'Backspace', click?: true, selected?: true
 * }} StagedEdit
 *   A staged edit (outcome `staged`): the field, its value before, the text typed (null for a
 *   Backspace).
 * @typedef {{
 *   provider?: string, model?: string, input_tokens?: number | null,
 *   output_tokens?: number | null, latency_ms?: number, calls?: number, notes?: string
 * }} ModelUsage
 * @typedef {{
 *   id: string, status: string, decided_by: string | null, decided_at: string | null,
 *   comment: string | null, resumed_by: string | null, resumed_at: string | null
 * }} StepApproval
 *   A held write's approval as its step shows it: who decided, when, the comment, who resumed.
 * @typedef {{source: 'status'|'dialog', type: string | null, text: string}} AppMessage
 *   A message the application showed: its status bar (with SAP's type S, I, W, E or A) or a dialog.
 * @typedef {{before: AppMessage | null, message?: AppMessage, fresh?: boolean, none?: string}} Receipt
 *   What the application said after a write was sent (`fresh`: not the message shown before), or
 *   why nothing was read (`none`).
 * @typedef {{
 *   n: number, screen_sha256: string | null, screen_pixel_sha256: string | null,
 *   width: number | null, height: number | null, action: Action | null,
 *   classification: 'read'|'write'|'invalid'|null, why: string | null, outcome: string | null,
 *   error?: string, staged?: StagedEdit, edit?: StagedEdit, receipt?: Receipt,
 *   approval?: StepApproval, model?: ModelUsage,
 *   label_evidence?: {source: string, element?: {id: string, role: string, name: string, rect?: Rect}},
 *   timings?: Array<Record<string, unknown>>,
 *   started_at: string, ended_at: string | null
 * }} Step
 * @typedef {{
 *   id: string, agent: string, system?: string | null, goal: string, status: string, end_reason: string | null,
 *   summary: string | null, created_by: string, created_at: string, started_at: string | null,
 *   ended_at: string | null, active_seconds: number, max_steps: number, max_seconds: number,
 *   step_count: number, invalid_actions: number, pending_approval: Approval | null,
 *   steps?: Step[]
 * }} Run
 * @typedef {{
 *   id: string, tenant: string, seq: number, type: string, actor: string,
 *   run_id: string | null, step: number | null, at: string, details: Record<string, unknown>,
 *   prev_sha256: string, sha256: string
 * }} AuditEvent
 * @typedef {{ok: boolean, checked: number, first_bad_id?: string, head_sha256: string}} Verify
 * @typedef {{
 *   seq: number, provider: string, model: string, request: Record<string, unknown>,
 *   answer: Record<string, unknown> | null, error: Record<string, unknown> | null,
 *   attempts: Array<Record<string, unknown>>, input_tokens: number | null,
 *   output_tokens: number | null, cost_usd: number | null, latency_ms: number, created_at: string
 * }} ModelCall
 * @typedef {{run_id: string, n: number, calls: ModelCall[]}} Transcript
 */

/**
 * @template T
 * @typedef {{items: T[], next_cursor: string | null}} Page
 */

const TOKEN_KEY = 'warden.console.token';

/** The token of this tab; sessionStorage ends with the tab and is never sent anywhere by itself. */
export function getToken() {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** @param {string} token */
export function setToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function clearToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** @type {string | null} the console session's CSRF token, from GET /api/me */
let csrfToken = null;

/**
 * Remembers who is signed in by cookie session: their changes carry its CSRF token.
 * @param {Me | null} me
 */
export function setSession(me) {
  csrfToken = me?.session?.csrf_token ?? null;
}

/** Ends the console session at Warden (the cookie is worth nothing afterwards). */
export async function signOutSession() {
  await call('/auth/logout', { method: 'POST' });
  csrfToken = null;
}

export class ApiError extends Error {
  /**
   * @param {number} status 0 when the API did not answer at all
   * @param {string} message the API's own message, meant for people
   */
  constructor(status, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Fired on `window` when the API no longer accepts the token (revoked, or a typo). */
export const UNAUTHENTICATED = 'warden:unauthenticated';

/**
 * @param {string} path
 * @param {{method?: string, json?: unknown, accept?: string, signal?: AbortSignal, token?: string}} options
 *   `token`: try this token instead of the tab's (signing in)
 * @returns {Promise<Response>}
 */
async function call(path, options) {
  /** @type {Record<string, string>} */
  const headers = { Accept: options.accept ?? 'application/json' };
  const token = options.token ?? getToken();
  const method = options.method ?? 'GET';
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (csrfToken && method !== 'GET') headers['X-Warden-CSRF'] = csrfToken;
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: options.signal,
      cache: 'no-store',
      // A token call never sends the cookie; a session call sends nothing else.
      credentials: token ? 'omit' : 'same-origin',
      // The page's no-referrer policy would make a POST's Origin `null`; the API checks Origin
      // against its own on every change made with the cookie.
      referrerPolicy: 'same-origin',
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'Warden did not answer. Check the connection and try again.');
  }
  if (response.ok) return response;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = /** @type {unknown} */ (await response.json());
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      message = body.message;
    }
  } catch {
    // Not the API's JSON error (a proxy in between): the status line says enough.
  }
  if (response.status === 401 && options.token === undefined)
    window.dispatchEvent(new CustomEvent(UNAUTHENTICATED));
  throw new ApiError(response.status, message);
}

/**
 * A JSON call.
 * @template T
 * @param {string} path
 * @param {{method?: string, json?: unknown, signal?: AbortSignal, token?: string}} [options]
 * @returns {Promise<T>}
 */
export async function api(path, options = {}) {
  const response = await call(path, options);
  const body = /** @type {unknown} */ (await response.json());
  return /** @type {T} */ (body);
}

/**
 * A call whose answer is not JSON (a PNG, an NDJSON export).
 * @param {string} path
 * @param {{accept?: string, signal?: AbortSignal}} [options]
 */
export async function apiBlob(path, options = {}) {
  return (await apiFile(path, options)).blob;
}

/**
 * A file of the API with its response headers.
 * @param {string} path
 * @param {{accept?: string, signal?: AbortSignal}} [options]
 * @returns {Promise<{blob: Blob, headers: Headers}>}
 */
export async function apiFile(path, options = {}) {
  const response = await call(path, { accept: options.accept ?? '*/*', signal: options.signal });
  return { blob: await response.blob(), headers: response.headers };
}

/**
 * A query string of the given values, leaving out empty ones.
 * @param {Record<string, string | number | null | undefined>} values
 */
export function query(values) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
