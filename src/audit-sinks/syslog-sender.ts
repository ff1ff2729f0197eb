import { errorCode, SinkError } from './sink-error';
import { type TlsTarget, watchedTls } from './sink-tls';

export interface SyslogTarget extends TlsTarget {
  timeoutMs: number;
}

/**
 * Sends framed syslog messages over one TLS connection (RFC 5425) and closes it. Syslog over TLS
 * has no acknowledgement, so how the connection ends is the strongest signal there is, and a
 * batch counts as delivered only when, within `timeoutMs`:
 *   1. the write completed (the bytes are in the kernel's send buffer: left Warden, read by no one yet),
 *   2. Warden then closed its side (its TLS close_notify, then its TCP FIN), and
 *   3. the receiver then ended the TLS session in order (its close_notify), with no error.
 * A receiver that closes first, drops the connection without a close_notify (a crash, a kill, a
 * reset, a proxy timing out), or does not close in time fails the batch, which is sent again: a
 * receiver may then hold an event twice (the same seq and sha256), never lose one.
 *
 * What this cannot tell is a receiver that ends the session on its own, without having read the
 * batch, whose close reaches Warden only after Warden's own: on the wire that is the close an
 * answering receiver sends. It happens when the batch fits in the socket buffers between the two
 * (Warden's send buffer and the receiver's receive buffer take it whole, so the write completes
 * before the receiver reads a byte) and the receiver closes after that. Nothing the socket
 * tells Warden (the write's completion, the receiver's close_notify and FIN, their order) tells
 * the two apart, and no waiting would; only RELP (relp-sender.ts) acknowledges what was taken.
 */
export function sendSyslog(target: SyslogTarget, frames: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let closing = false;
    const finish = (error: SinkError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const { socket, receiverClosedTls } = watchedTls(target);
    const timer = setTimeout(() => finish(new SinkError('timeout')), target.timeoutMs);
    socket.on('secureConnect', () => {
      socket.write(frames, 'utf8', (error) => {
        if (error) return finish(new SinkError(errorCode(error)));
        closing = true;
        socket.end();
      });
    });
    // What the receiver says is not ours to keep: read and dropped.
    socket.on('data', () => undefined);
    socket.on('end', () => {
      if (!closing) finish(new SinkError('closed'));
      else if (!receiverClosedTls()) finish(new SinkError('closed without close_notify'));
    });
    socket.on('error', (error: Error) => finish(new SinkError(errorCode(error))));
    socket.on('close', () =>
      finish(closing && receiverClosedTls() ? null : new SinkError('closed')),
    );
  });
}
