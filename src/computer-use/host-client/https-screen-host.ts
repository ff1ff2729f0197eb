/**
 * A screen host reached over HTTPS (docs/screen-host.md): each call of the protocol is one bounded request
 * on a verified connection, and its answer is checked before it is returned. A screenshot is
 * retried with backoff (docs/operations.md); an action never is: its Idempotency-Key is looked up instead.
 */
import type { Agent } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Action, OutlineElement } from '../actions/action.types';
import {
  EXPECT_FRAME_HEADER,
  FRAME_IGNORE_HEADER,
  FrameIgnoreError,
  formatFrameIgnore,
  isFrameSha256,
} from '@warden/protocol';
import {
  actFailureOf,
  actResultOf,
  expectOk,
  healthOf,
  hostMessage,
  lookupOf,
  outlineOf,
  screenshotOf,
} from './host-answers';
import {
  MAX_ELEMENTS_BYTES,
  MAX_JSON_BYTES,
  MAX_SCREENSHOT_BYTES,
  send,
  type Answer,
  type Call,
} from './host-transport';
import { ScreenHostError } from './screen-host-error';
import type { HostTarget } from './screen-host-target';
import type {
  ActionLookup,
  ActResult,
  ConnectionProbe,
  FrameExpectation,
  ScreenHost,
  ScreenHostClientOptions,
  ScreenHostHealth,
  Screenshot,
} from './screen-host.types';
import { connectVerified, type ConnectError } from './tls-connector';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
const HOST_ACTIONS = new Set(['click', 'double_click', 'type', 'key', 'scroll']);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class HttpsScreenHost implements ScreenHost {
  readonly url: string;

  constructor(
    private readonly target: HostTarget,
    private readonly agent: Agent,
    private readonly options: ScreenHostClientOptions,
  ) {
    this.url = target.url;
  }

  async screenshot(options: { attempts?: number } = {}): Promise<Screenshot> {
    const attempts = Math.max(1, Math.floor(options.attempts ?? this.options.screenshotAttempts));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.screenshotOnce();
      } catch (error) {
        const retriable =
          error instanceof ScreenHostError &&
          (error.kind === 'unreachable' ||
            error.kind === 'timeout' ||
            (error.kind === 'refused' && (error.status ?? 0) >= 500));
        if (!retriable || attempt >= attempts) throw error;
        const backoff = this.options.retryBackoffMs * 2 ** (attempt - 1);
        await sleep(backoff + Math.random() * backoff * 0.25);
      }
    }
  }

  private async screenshotOnce(): Promise<Screenshot> {
    const what = 'GET /screenshot';
    const answer = await this.send({
      method: 'GET',
      path: '/screenshot',
      what,
      timeoutMs: this.options.screenshotTimeoutMs,
      maxBytes: MAX_SCREENSHOT_BYTES,
      headers: { accept: 'image/png' },
    });
    expectOk(this.target, answer, what);
    return screenshotOf(this.target, answer, what);
  }

  async elements(): Promise<OutlineElement[] | null> {
    const what = 'GET /elements';
    const answer = await this.send({
      method: 'GET',
      path: '/elements',
      what,
      timeoutMs: this.options.elementsTimeoutMs,
      maxBytes: MAX_ELEMENTS_BYTES,
      headers: { accept: 'application/json' },
    });
    // 404: the host has no outline; 503: it has none now (its accessibility bus did not answer in
    // time). Either way this step has no outline, and the labels come from the pixels.
    if (answer.status === 404 || answer.status === 503) return null;
    expectOk(this.target, answer, what);
    return outlineOf(this.target, answer, what);
  }

  async act(action: Action, idempotencyKey: string, frame?: FrameExpectation): Promise<ActResult> {
    if (!HOST_ACTIONS.has(action?.action)) {
      throw new TypeError(`a ${String(action?.action)} action is not sent to a screen host`);
    }
    if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new TypeError('the Idempotency-Key must be 1 to 200 printable ASCII characters');
    }
    const framed = frame === undefined ? {} : frameHeaders(frame);
    const what = 'POST /action';
    const answer = await this.send({
      method: 'POST',
      path: '/action',
      what,
      timeoutMs: this.options.actionTimeoutMs,
      maxBytes: MAX_JSON_BYTES,
      body: Buffer.from(JSON.stringify(hostAction(action))),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': idempotencyKey,
        ...framed,
      },
    });
    if (answer.status < 200 || answer.status >= 300) {
      throw actFailureOf(this.target, answer, what, frame !== undefined);
    }
    return actResultOf(this.target, answer, what);
  }

  async lookupAction(idempotencyKey: string): Promise<ActionLookup> {
    if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new TypeError('the Idempotency-Key must be 1 to 200 printable ASCII characters');
    }
    const what = 'GET /actions/{key}';
    const answer = await this.send({
      method: 'GET',
      path: `/actions/${encodeURIComponent(idempotencyKey)}`,
      what,
      timeoutMs: this.options.lookupTimeoutMs,
      maxBytes: MAX_JSON_BYTES,
      headers: { accept: 'application/json' },
    });
    if (answer.status === 404) {
      // A host without the route answers 404 too; that must not read as "not performed".
      if (/^no route /i.test(hostMessage(this.target, answer))) {
        throw new ScreenHostError(
          'refused',
          `the screen host at ${this.url} cannot look up actions (it has no GET /actions/{key}), so whether the action was performed is unknown`,
          { requestSent: true, status: 404 },
        );
      }
      return { performed: false };
    }
    return lookupOf(this.target, answer, what);
  }

  async health(): Promise<ScreenHostHealth | null> {
    const what = 'GET /health';
    const answer = await this.send({
      method: 'GET',
      path: '/health',
      what,
      timeoutMs: this.options.healthTimeoutMs,
      maxBytes: MAX_JSON_BYTES,
      headers: { accept: 'application/json' },
    });
    if (answer.status === 404) return null;
    expectOk(this.target, answer, what);
    return healthOf(this.target, answer, what);
  }

  async probe(): Promise<ConnectionProbe> {
    const verifiedBy = this.target.verifiedBy;
    try {
      const socket = await connectVerified(this.target, this.options.connectTimeoutMs);
      const fingerprintSha256 = (socket as TLSSocket & { fingerprintSha256?: string })
        .fingerprintSha256;
      socket.destroy();
      return { reachable: true, tlsOk: true, verifiedBy, fingerprintSha256 };
    } catch (error) {
      const e = error as ConnectError;
      return {
        reachable: e.tcpConnected,
        tlsOk: false,
        verifiedBy,
        fingerprintSha256: e.fingerprintSha256,
        error: e,
      };
    }
  }

  private send(call: Call): Promise<Answer> {
    return send(this.target, this.agent, call);
  }
}

/** `X-Expect-Frame` and, when pixels are left out, `X-Frame-Ignore`; a caller's mistake is a TypeError. */
function frameHeaders(frame: FrameExpectation): Record<string, string> {
  if (typeof frame !== 'object' || frame === null || !isFrameSha256(frame.expect)) {
    throw new TypeError('frame.expect must be a frame SHA-256 (64 lower-case hex digits)');
  }
  const headers: Record<string, string> = { [EXPECT_FRAME_HEADER.toLowerCase()]: frame.expect };
  if (frame.ignore === undefined) return headers;
  let ignore: string;
  try {
    ignore = formatFrameIgnore(frame.ignore);
  } catch (error) {
    if (error instanceof FrameIgnoreError) {
      throw new TypeError(`frame.ignore: ${error.message}`, { cause: error });
    }
    throw error;
  }
  if (ignore !== '') headers[FRAME_IGNORE_HEADER.toLowerCase()] = ignore;
  return headers;
}

/** The action's own fields only (docs/rules.md), in the form the host checks. */
function hostAction(action: Action): Record<string, unknown> {
  switch (action.action) {
    case 'click':
    case 'double_click':
      return action.target === undefined
        ? { action: action.action, x: action.x, y: action.y }
        : { action: action.action, x: action.x, y: action.y, target: action.target };
    case 'type':
      return { action: 'type', text: action.text };
    case 'key':
      return { action: 'key', key: action.key };
    case 'scroll':
      return {
        action: 'scroll',
        x: action.x,
        y: action.y,
        direction: action.direction,
        amount: action.amount,
      };
    default:
      throw new TypeError(`a ${action.action} action is not sent to a screen host`);
  }
}
