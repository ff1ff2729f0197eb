/**
 * The screen host as Warden sees it (docs/screen-host.md, docs/api.md): the settings that name one, the calls it
 * answers and what each answer is once checked, and the client's bounds on those calls.
 */
import type { SapGuiHealth } from './sap-gui-health';
import type { Action, OutlineElement, Rect } from '../actions/action.types';
import type { ScreenHostError } from './screen-host-error';

/** What Warden needs to know about an agent's screen host (docs/api.md). */
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
  /**
   * `X-Frame-SHA256`: the host's frame hash of the pixels it captured (lower-case hex; the pixel
   * SHA-256 of docs/security.md, docs/screen-host.md). Send it back as `frame.expect` of `act`. null when the host sends
   * none (a host without the frame precondition).
   */
  frameSha256: string | null;
  /**
   * The pixel SHA-256 of `png` (docs/security.md) when it is known without a decode: the host's frame
   * hash, which the protocol defines over the very pixels of its PNG (the doctor checks that it
   * is), or the hash of a redacted screenshot's pixels, computed as it was redacted.
   */
  pixelSha256?: string;
  /**
   * SHA-256 of the real pixels under the agent's `redact_regions`, which this screenshot shows
   * blacked out (redaction.ts); absent when the agent redacts nothing.
   */
  hiddenSha256?: string;
}

/**
 * The frame an action was judged on (docs/rules.md, docs/screen-host.md): `act` sends it as `X-Expect-Frame` and
 * `X-Frame-Ignore`, and the host performs the action only while the screen is that frame.
 */
export interface FrameExpectation {
  /** The `frameSha256` of the screenshot the action was judged on. */
  expect: string;
  /**
   * Pixels to leave out of the comparison (the volatile mask, `ignore_regions`), in the frame's
   * PIXELS (`pngWidth` × `pngHeight`), not in the coordinate space of actions. At most 256.
   */
  ignore?: Rect[];
}

export interface ActResult {
  ok: true;
  /** How long the host took to perform the action, by its own clock. */
  ms: number;
  /** The host had performed this Idempotency-Key before and answered its stored result. */
  replayed: boolean;
}

/**
 * What the host says became of an Idempotency-Key (`GET /actions/{key}`):
 * - `performed: true`: it performed the action, and `result` is what it answered (`{ok, ms}`);
 * - `performed: false`: nothing is stored under the key: never performed (or only refused by its
 *   frame precondition), so it may be sent;
 * - `performed: 'unknown'`: the host tried and the action failed, perhaps half-way, or the host
 *   stopped while performing it: whether it reached the system is unknown (`message` is the host's).
 */
export type ActionLookup =
  | { performed: true; result: unknown }
  | { performed: false }
  | { performed: 'unknown'; message: string };

export interface ScreenHostHealth {
  backend?: string;
  version?: string;
  width?: number;
  height?: number;
  /**
   * As the host lists them: `idempotency`, `action-lookup`, `elements`, `frame_precondition` (it
   * checks `X-Expect-Frame` atomically with acting; without it Warden compares a fresh screenshot
   * itself right before the action), …
   */
  capabilities: string[];
  /** A windows host's SAP GUI Scripting, the source of its outline (sap-gui-health.ts). */
  sapGui?: SapGuiHealth;
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
  /**
   * `POST /action` with `Idempotency-Key`; never retried (see `lookupAction`). With `frame`, the
   * host acts only on that frame (`X-Expect-Frame`, `X-Frame-Ignore`), or refuses with a
   * `screen_changed` or `frame_unknown` ScreenHostError, having done nothing. A 5xx is `failed`:
   * whether the action reached the system is unknown.
   */
  act(action: Action, idempotencyKey: string, frame?: FrameExpectation): Promise<ActResult>;
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
  /** The deployment's CA_DIR: `screen_tls.ca_file` is read only under it (none: no CA files). */
  caDir?: string;
}
