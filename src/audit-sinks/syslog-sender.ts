import { isIP } from 'node:net';
import { connect } from 'node:tls';
import { SinkError } from './sink-error';

export interface SyslogTarget {
  host: string;
  port: number;
  /** PEM CA certificates to trust instead of the system's. */
  ca?: Buffer;
  timeoutMs: number;
}

/**
 * Sends framed syslog messages over one TLS connection and closes it. Acknowledged when the
 * write's callback has run (the bytes left Warden), our end was sent, and the receiver closed its
 * end: a receiver closes only after reading everything before our end, so a batch counted as sent
 * was read by the receiver. Anything else within `timeoutMs` is a SinkError.
 */
export function sendSyslog(target: SyslogTarget, frames: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let written = false;
    const finish = (error: SinkError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const host = target.host.replace(/^\[|\]$/g, '');
    const socket = connect({
      host,
      port: target.port,
      ca: target.ca,
      servername: isIP(host) ? undefined : host,
      minVersion: 'TLSv1.2',
    });
    const timer = setTimeout(() => finish(new SinkError('timeout')), target.timeoutMs);
    socket.on('secureConnect', () => {
      socket.write(frames, 'utf8', (error) => {
        if (error) return finish(new SinkError(code(error)));
        written = true;
        socket.end();
      });
    });
    // What the receiver says is not ours to keep: read and dropped.
    socket.on('data', () => undefined);
    socket.on('error', (error: Error) => finish(new SinkError(code(error))));
    socket.on('close', () => finish(written ? null : new SinkError('closed')));
  });
}

function code(error: Error): string {
  return (error as NodeJS.ErrnoException).code ?? error.name ?? 'error';
}
