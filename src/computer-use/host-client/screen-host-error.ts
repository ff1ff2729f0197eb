import { DomainError } from '../../common/domain-error';

/**
 * What went wrong talking to a screen host, and for `POST /action` whether it may have acted:
 * - `config`: the agent's configuration cannot work (not https, a bad pin, the token variable
 *   unset); nothing was sent
 * - `unreachable`: no connection (refused, no route, reset); `requestSent` says whether the
 *   request may have left
 * - `timeout`: no complete answer within the bound; it may have acted if `requestSent`
 * - `tls`: the host's certificate is not the pinned one, or not trusted; nothing was sent
 * - `unauthorized`: the host refused the token (401, 403); it did not act
 * - `refused`: the host answered with a 4xx error (an invalid action, a key reused for another
 *   action): it did not act. For the other calls, any error answer the host gave (a screenshot's
 *   5xx too)
 * - `failed`: `POST /action` answered 5xx: the host tried and failed, perhaps half-way, so whether
 *   the action reached the system is unknown; ask `lookupAction`, never read it as "did not act"
 * - `screen_changed`: `POST /action` with a frame: the screen was no longer the expected frame
 *   (409); the host did not act and stored nothing under the key
 * - `frame_unknown`: `POST /action` with a frame: the host no longer holds the expected frame
 *   (409); it did not act and stored nothing under the key; compare a fresh screenshot instead
 * - `bad_answer`: the host answered something Warden does not accept (garbage, too large, cut off,
 *   a malformed `X-Frame-SHA256`); for `POST /action` whether it acted is unknown
 */
export type ScreenHostErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'tls'
  | 'unauthorized'
  | 'refused'
  | 'failed'
  | 'screen_changed'
  | 'frame_unknown'
  | 'bad_answer'
  | 'config';

export interface ScreenHostErrorDetails {
  /** Whether request bytes may have reached the host (for `POST /action`: it may have acted). */
  requestSent?: boolean;
  /** The HTTP status the host answered, when it answered one. */
  status?: number;
  /** The SHA-256 fingerprint of the certificate the host presented (TLS errors). */
  fingerprintSha256?: string;
}

/** Never carries the token: messages are Warden's own, and what the host says is redacted. */
export class ScreenHostError extends DomainError {
  readonly requestSent: boolean;
  readonly status?: number;
  readonly fingerprintSha256?: string;

  constructor(
    readonly kind: ScreenHostErrorKind,
    message: string,
    details: ScreenHostErrorDetails = {},
  ) {
    super(kind === 'config' ? 'invalid' : 'unavailable', message);
    this.name = 'ScreenHostError';
    this.requestSent = details.requestSent ?? false;
    if (details.status !== undefined) this.status = details.status;
    if (details.fingerprintSha256 !== undefined) this.fingerprintSha256 = details.fingerprintSha256;
  }
}
