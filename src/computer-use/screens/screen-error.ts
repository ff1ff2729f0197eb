import { DomainError } from '../../common/domain-error';

/** A screenshot Warden cannot use: not a PNG, damaged, cut off, or too large to decode. */
export class ScreenError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
    this.name = 'ScreenError';
  }
}

/**
 * What went wrong talking to a screen host:
 * - `config`: the agent's configuration cannot work (not https, a bad pin, the token variable unset)
 * - `unreachable`: no connection (refused, no route, reset)
 * - `timeout`: no complete answer within the bound
 * - `tls`: the host's certificate is not the pinned one, or not trusted
 * - `unauthorized`: the host refused the token
 * - `refused`: the host answered with an error (it refused or could not do what was asked)
 * - `bad_answer`: the host answered something Warden does not accept (garbage, too large, cut off)
 */
export type ScreenHostErrorKind =
  'unreachable' | 'timeout' | 'tls' | 'unauthorized' | 'refused' | 'bad_answer' | 'config';

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
