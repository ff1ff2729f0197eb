/**
 * The screen host as Warden sees it (DESIGN §7, §9): the settings that name one, the calls it
 * answers and what each answer is once checked, and the client's bounds on those calls.
 */
import type { Action, OutlineElement } from '../actions/action.types';
import type { ScreenHostError } from './screen-error';

/** What Warden needs to know about an agent's screen host (DESIGN §9). */
export interface ScreenHostTarget {
  screen_url: string;
  screen_token_env: string;
  screen_tls?: { fingerprint_sha256?: string; ca_file?: string } | null;
}

export interface Screenshot {
  png: Buffer;
  /** SHA-256 of the PNG bytes, hex. */
  pngSha256: string;
  /** `X-Screen-Width`: the coordinate space actions use. */
  width: number;
  /** `X-Screen-Height`. */
  height: number;
  /** The PNG's own pixels (larger than width × height on a HiDPI screen). */
  pngWidth: number;
  pngHeight: number;
}

export interface ActResult {
  ok: true;
  /** How long the host took to perform the action, by its own clock. */
  ms: number;
  /** The host had performed this Idempotency-Key before and answered its stored result. */
  replayed: boolean;
}

export type ActionLookup = { performed: true; result: unknown } | { performed: false };

export interface ScreenHostHealth {
  backend?: string;
  version?: string;
  width?: number;
  height?: number;
  capabilities: string[];
}

export type TlsVerification = 'pin' | 'ca_file' | 'pin and ca_file' | 'system';

/** The doctor's look at the connection: nothing but a TLS handshake, no request. */
export interface ConnectionProbe {
  reachable: boolean;
  tlsOk: boolean;
  verifiedBy: TlsVerification;
  /** The certificate the host presented, when the handshake got that far. */
  fingerprintSha256?: string;
  error?: ScreenHostError;
}

export interface ScreenHost {
  /** The screen URL, for messages. */
  readonly url: string;
  /** `GET /screenshot`, retried with backoff on connection failures, timeouts and 5xx. */
  screenshot(options?: { attempts?: number }): Promise<Screenshot>;
  /** `GET /elements`; null when the host has no outline (404). */
  elements(): Promise<OutlineElement[] | null>;
  /** `POST /action` with `Idempotency-Key`; never retried (see `lookupAction`). */
  act(action: Action, idempotencyKey: string): Promise<ActResult>;
  /** `GET /actions/{key}`: whether the host performed this key, and what it answered. */
  lookupAction(idempotencyKey: string): Promise<ActionLookup>;
  /** `GET /health`; null when the host has none (404). */
  health(): Promise<ScreenHostHealth | null>;
  /** Connects and checks the certificate without sending anything. */
  probe(): Promise<ConnectionProbe>;
}

export interface ScreenHostClientOptions {
  /** TCP connect plus TLS handshake. */
  connectTimeoutMs: number;
  /** Whole calls, from the first byte out to the last byte in. */
  screenshotTimeoutMs: number;
  elementsTimeoutMs: number;
  healthTimeoutMs: number;
  actionTimeoutMs: number;
  lookupTimeoutMs: number;
  /** Attempts for a screenshot (1 means no retry). */
  screenshotAttempts: number;
  /** The first retry waits this long, each further one twice as long (plus up to 25 % jitter). */
  retryBackoffMs: number;
  /** Connections kept per screen host. */
  maxSockets: number;
  /** An idle kept-alive connection is closed after this long (below the host's own keep-alive). */
  idleTimeoutMs: number;
}
