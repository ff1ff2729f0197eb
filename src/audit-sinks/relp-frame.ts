/**
 * RELP, the Reliable Event Logging Protocol (rsyslog's imrelp, librelp's doc/relp.md): frames
 * `TXNR SP COMMAND SP DATALEN [SP DATA] LF`, and the data of an `rsp`, `STATUS SP TEXT [LF
 * OFFERS]`. Writing frames, reading the receiver's, and the offers of `open`. Pure.
 */

/** The largest frame data Warden reads from a receiver (librelp's default maximum). */
export const RELP_MAX_DATA = 128 * 1024;

export interface RelpFrame {
  txnr: number;
  command: string;
  data: Buffer;
}

/** A frame the receiver sent that RELP does not allow: the session is broken. */
export class RelpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RelpProtocolError';
  }
}

/** One frame, its DATALEN in octets of UTF-8. */
export function relpFrame(txnr: number, command: string, data = ''): Buffer {
  const bytes = Buffer.from(data, 'utf8');
  const header = `${txnr} ${command} ${bytes.length}`;
  return Buffer.concat([
    Buffer.from(bytes.length > 0 ? `${header} ` : header, 'ascii'),
    bytes,
    Buffer.from('\n', 'ascii'),
  ]);
}

/** What Warden offers in `open`: RELP version 0 (librelp's), the syslog command. */
export function openOffers(software: string): string {
  return `relp_version=0\nrelp_software=${software}\ncommands=syslog`;
}

/** An `rsp`'s data: its status (200 is OK), the words after it, and the offers after a LF. */
export interface RelpResponse {
  status: number;
  offers: Map<string, string[]>;
}

export function parseResponse(data: Buffer): RelpResponse {
  const text = data.toString('utf8');
  const match = /^(\d{3})(?: [^\n]*)?(?:\n([\s\S]*))?$/.exec(text);
  if (!match) throw new RelpProtocolError('an rsp without a status');
  const offers = new Map<string, string[]>();
  for (const line of (match[2] ?? '').split('\n')) {
    if (line === '') continue;
    const eq = line.indexOf('=');
    const name = eq < 0 ? line : line.slice(0, eq);
    offers.set(name, eq < 0 ? [] : line.slice(eq + 1).split(','));
  }
  return { status: Number(match[1]), offers };
}

/** TXNR, COMMAND and DATALEN, and what follows DATALEN: a space before the data, or the LF. */
const HEADER = /^([0-9]{1,9}) ([A-Za-z]{1,32}) ([0-9]{1,9})([ \n])/;
/** What the start of a header may look like while the rest has not arrived yet. */
const PARTIAL_HEADER =
  /^([0-9]{0,9}|[0-9]{1,9} [A-Za-z]{0,32}|[0-9]{1,9} [A-Za-z]{1,32} [0-9]{0,9})$/;
/** TXNR, COMMAND and DATALEN at their longest, with their spaces and the delimiter after. */
const MAX_HEADER = 9 + 1 + 32 + 1 + 9 + 1;

/** Reads the receiver's frames from a byte stream, however it is cut into chunks. */
export class RelpReader {
  private buffer: Buffer = Buffer.alloc(0);

  /** The frames complete after `chunk`; throws a RelpProtocolError on a malformed one. */
  push(chunk: Buffer): RelpFrame[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: RelpFrame[] = [];
    for (;;) {
      const frame = this.next();
      if (!frame) return frames;
      frames.push(frame);
    }
  }

  private next(): RelpFrame | null {
    const head = this.buffer.subarray(0, MAX_HEADER).toString('latin1');
    const match = HEADER.exec(head);
    if (!match) {
      if (head.length < MAX_HEADER && PARTIAL_HEADER.test(head)) return null;
      throw new RelpProtocolError('a frame whose header is not TXNR COMMAND DATALEN');
    }
    const length = Number(match[3]);
    if (length > RELP_MAX_DATA) throw new RelpProtocolError(`a frame of ${length} octets`);
    const start = match[0].length;
    if (match[4] === '\n') {
      if (length > 0) throw new RelpProtocolError('a frame whose data is missing');
      return this.take(match, start, 0);
    }
    // DATALEN octets after the space, then the LF (librelp writes "0 \n" for no data at times).
    if (this.buffer.length < start + length + 1) return null;
    if (this.buffer[start + length] !== 0x0a) {
      throw new RelpProtocolError('a frame that does not end with LF after DATALEN octets');
    }
    return this.take(match, start, length);
  }

  private take(header: RegExpExecArray, start: number, length: number): RelpFrame {
    const frame = {
      txnr: Number(header[1]),
      command: header[2],
      data: Buffer.from(this.buffer.subarray(start, start + length)),
    };
    const trailer = header[4] === '\n' ? 0 : 1;
    this.buffer = this.buffer.subarray(start + length + trailer);
    return frame;
  }
}
