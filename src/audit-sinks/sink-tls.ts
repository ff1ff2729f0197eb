import { connect as tcpConnect, isIP } from 'node:net';
import { Duplex } from 'node:stream';
import { connect, type ConnectionOptions, type TLSSocket } from 'node:tls';

/** Where a syslog or RELP sink's receiver listens, and whom to trust for its certificate. */
export interface TlsTarget {
  host: string;
  port: number;
  /** PEM CA certificates to trust instead of the system's. */
  ca?: Buffer;
}

/** The TLS options of every sink connection: TLS 1.2 or later, the name checked against `host`. */
export function tlsOptions(target: TlsTarget): ConnectionOptions {
  const host = target.host.replace(/^\[|\]$/g, '');
  return {
    host,
    port: target.port,
    ca: target.ca,
    servername: isIP(host) ? undefined : host,
    minVersion: 'TLSv1.2',
  };
}

/** A TLS connection that can tell how the receiver ended it. */
export interface WatchedTls {
  socket: TLSSocket;
  /**
   * Whether the receiver's TLS stack ended the session (its close_notify arrived before the TCP
   * connection ended): true only once the socket's 'end' has been seen. A crash, a kill, a reset
   * or a proxy timing out ends the TCP connection without it.
   */
  receiverClosedTls: () => boolean;
}

/**
 * A TLS connection over a TCP socket watched from outside the TLS layer. Node emits the same
 * 'end' for a close_notify and for a bare TCP FIN; here the TCP end reaches the TLS layer only on
 * the next turn of the event loop, so an 'end' seen before then came from a close_notify, which
 * the TLS layer had already read from the bytes before the FIN.
 */
export function watchedTls(target: TlsTarget): WatchedTls {
  const options = tlsOptions(target);
  const tcp = tcpConnect({ host: options.host!, port: target.port });
  let tcpEnded = false;
  let tlsEnded = false;
  let closedTls = false;
  const wire = new Duplex({
    read: () => void tcp.resume(),
    write: (chunk: Buffer, _encoding, done) => void tcp.write(chunk, done),
    final: (done) => void tcp.end(() => done()),
    destroy: (error, done) => {
      tcp.destroy();
      done(error);
    },
  });
  tcp.on('data', (chunk: Buffer) => {
    if (!wire.push(chunk)) tcp.pause();
  });
  tcp.on('end', () =>
    setImmediate(() => {
      tcpEnded = true;
      wire.push(null);
    }),
  );
  tcp.on('error', (error) => wire.destroy(error));
  const socket = connect({ ...options, socket: wire });
  socket.on('end', () => {
    if (tlsEnded) return;
    tlsEnded = true;
    closedTls = !tcpEnded;
  });
  return { socket, receiverClosedTls: () => tlsEnded && closedTls };
}
