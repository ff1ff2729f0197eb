/**
 * Connections to a screen host, verified before HTTP may use them (docs/screen-host.md). Pinning works below
 * HTTP: a connection is opened, the TLS handshake finished and the certificate checked before the
 * connection is handed to the HTTP client, so a request (and its token) is never written to a host
 * whose certificate does not match.
 */
import { createHash } from 'node:crypto';
import { Agent, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { ScreenHostError } from './screen-host-error';
import type { ResolvedTarget } from './screen-host-target';
import type { ScreenHostClientOptions } from './screen-host.types';

/** A connection failure before any request byte left: `tcpConnected` says how far it got. */
export class ConnectError extends ScreenHostError {
  constructor(
    kind: 'unreachable' | 'timeout' | 'tls',
    message: string,
    readonly tcpConnected: boolean,
    fingerprintSha256?: string,
  ) {
    super(kind, message, { requestSent: false, fingerprintSha256 });
  }
}

export const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused, nothing listens there',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  EHOSTUNREACH: 'there is no route to it',
  ENETUNREACH: 'its network is unreachable',
  ECONNRESET: 'it closed the connection',
  EPIPE: 'it closed the connection',
  ETIMEDOUT: 'the connection timed out',
};

const UNTRUSTED: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in an untrusted self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it is not signed by a trusted CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is not signed by a trusted CA',
  UNABLE_TO_GET_ISSUER_CERT: 'it is not signed by a trusted CA',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it is not issued for this host name',
};

export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * Opens a TLS connection and verifies the host before anything is written: the pin (SHA-256 of the
 * certificate's DER), else the CA file or the system's CAs with the host name. No session
 * resumption, so every connection shows its certificate.
 */
export function connectVerified(t: ResolvedTarget, timeoutMs: number): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    let tcpConnected = false;
    let done = false;
    const socket = tlsConnect({
      host: t.host,
      port: t.port,
      servername: isIP(t.host) === 0 ? t.host : undefined,
      ca: t.ca ?? undefined,
      // Checked below, after the handshake and before the socket is given to HTTP.
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const fail = (error: ConnectError) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new ConnectError(
            'timeout',
            tcpConnected
              ? `the screen host at ${t.url} did not finish the TLS handshake within ${timeoutMs} ms`
              : `the screen host at ${t.url} did not accept a connection within ${timeoutMs} ms`,
            tcpConnected,
          ),
        ),
      timeoutMs,
    );
    socket.once('connect', () => (tcpConnected = true));
    socket.on('error', (error: Error) => {
      const code = errorCode(error);
      if (!tcpConnected) {
        fail(
          new ConnectError(
            'unreachable',
            `the screen host at ${t.url} is unreachable: ${UNREACHABLE[code] ?? error.message}${code ? ` (${code})` : ''}`,
            false,
          ),
        );
      } else {
        const reason = /wrong version number|packet length too long|http request/i.test(
          error.message,
        )
          ? 'it does not speak TLS there (plain HTTP?)'
          : `${UNREACHABLE[code] ?? error.message}`;
        fail(
          new ConnectError(
            'tls',
            `the TLS handshake with the screen host at ${t.url} failed: ${reason}`,
            true,
          ),
        );
      }
    });
    socket.once('secureConnect', () => {
      if (done) return;
      const cert = socket.getPeerCertificate();
      const raw = cert && (cert as { raw?: Buffer }).raw;
      if (!raw || raw.length === 0) {
        fail(new ConnectError('tls', `the screen host at ${t.url} presented no certificate`, true));
        return;
      }
      const fingerprint = createHash('sha256').update(raw).digest('hex');
      if (t.pin && fingerprint !== t.pin) {
        fail(
          new ConnectError(
            'tls',
            `the screen host at ${t.url} presented a certificate with SHA-256 fingerprint ${fingerprint}, but the configuration pins ${t.pin}; nothing was sent`,
            true,
            fingerprint,
          ),
        );
        return;
      }
      if ((!t.pin || t.ca) && !socket.authorized) {
        const code = String(socket.authorizationError ?? '');
        const by = t.caFile ? `the CA in ${t.caFile}` : "the system's CAs";
        fail(
          new ConnectError(
            'tls',
            `the screen host at ${t.url} presented a certificate that ${by} do not accept: ${UNTRUSTED[code] ?? code}; its SHA-256 fingerprint is ${fingerprint}; nothing was sent`,
            true,
            fingerprint,
          ),
        );
        return;
      }
      done = true;
      clearTimeout(timer);
      socket.setNoDelay(true);
      (socket as TLSSocket & { fingerprintSha256?: string }).fingerprintSha256 = fingerprint;
      resolve(socket);
    });
  });
}

/** A keep-alive agent whose every connection went through `connectVerified`. */
export class VerifyingAgent extends Agent {
  constructor(
    private readonly target: ResolvedTarget,
    private readonly connectTimeoutMs: number,
    options: ScreenHostClientOptions,
  ) {
    super({
      keepAlive: true,
      keepAliveMsecs: 1000,
      maxSockets: options.maxSockets,
      maxFreeSockets: options.maxSockets,
      scheduling: 'lifo',
      timeout: options.idleTimeoutMs,
      maxCachedSessions: 0,
    });
  }

  override createConnection(
    _options: RequestOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    connectVerified(this.target, this.connectTimeoutMs).then(
      (socket) => callback?.(null, socket),
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}
