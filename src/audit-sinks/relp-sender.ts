import { connect } from 'node:tls';
import {
  openOffers,
  parseResponse,
  type RelpFrame,
  RelpProtocolError,
  RelpReader,
  relpFrame,
} from './relp-frame';
import { errorCode, SinkError } from './sink-error';
import { type TlsTarget, tlsOptions } from './sink-tls';

export interface RelpTarget extends TlsTarget {
  timeoutMs: number;
}

/** Messages sent and not yet acknowledged at most (librelp's default window). */
export const RELP_WINDOW = 128;

/**
 * Sends syslog messages over one RELP session on TLS (rsyslog's imrelp with `tls="on"`): `open`,
 * then one `syslog` command per message, at most RELP_WINDOW unanswered, then `close`. The
 * receiver answers each command in order; a message counts once its `rsp` says 200. Resolves when
 * every message was acknowledged; otherwise throws a SinkError whose `acknowledged` is how many
 * at the head were, so the cursor moves past those and only the rest is sent again.
 */
export function sendRelp(target: RelpTarget, messages: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const reader = new RelpReader();
    /** The txnr of each message is its index + 2 (open is 1, close comes after the last). */
    const closeTxnr = messages.length + 2;
    let opened = false;
    let sent = 0;
    let acknowledged = 0;
    let settled = false;
    const finish = (error: SinkError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (acknowledged === messages.length) resolve();
      else reject(error ?? new SinkError('closed', acknowledged));
    };
    const fail = (code: string) => finish(new SinkError(code, acknowledged));
    const socket = connect(tlsOptions(target));
    const timer = setTimeout(() => fail('timeout'), target.timeoutMs);
    const sendMore = () => {
      while (sent < messages.length && sent - acknowledged < RELP_WINDOW) {
        socket.write(relpFrame(sent + 2, 'syslog', messages[sent]));
        sent++;
      }
      if (acknowledged === messages.length) socket.write(relpFrame(closeTxnr, 'close'));
    };
    const answer = (frame: RelpFrame) => {
      if (frame.txnr === 0) {
        // A hint; serverclose: the receiver is closing, what it has not answered is not taken.
        if (frame.command === 'serverclose') fail('serverclose');
        return;
      }
      const expected = !opened ? 1 : acknowledged < messages.length ? acknowledged + 2 : closeTxnr;
      if (frame.command !== 'rsp' || frame.txnr !== expected) {
        return fail('RELP out of order');
      }
      if (frame.txnr === closeTxnr) return finish(null);
      const response = parseResponse(frame.data);
      if (response.status !== 200) return fail(`RELP ${response.status}`);
      if (!opened) {
        // A receiver that offers no relp_version, or not the syslog command, has no session.
        const commands = response.offers.get('commands') ?? [];
        if (!response.offers.has('relp_version') || !commands.includes('syslog')) {
          return fail('RELP open refused');
        }
        opened = true;
      } else acknowledged++;
      sendMore();
    };
    socket.on('secureConnect', () => {
      socket.write(relpFrame(1, 'open', openOffers('warden')));
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const frame of reader.push(chunk)) {
          answer(frame);
          if (settled) return;
        }
      } catch (error) {
        if (!(error instanceof RelpProtocolError)) throw error;
        fail('RELP framing');
      }
    });
    socket.on('error', (error: Error) => fail(errorCode(error)));
    socket.on('close', () => fail('closed'));
  });
}
