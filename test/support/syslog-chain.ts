/** A received RFC 5424 message of Warden's: its structured data's tenant, seq and sha256, its MSG. */
export interface ReceivedEvent {
  line: string;
  tenant: string | undefined;
  seq: number;
  sha256: string | undefined;
  msg: Record<string, unknown>;
}

/** seq and sha256 from the structured data of each received message (one a line), and its MSG. */
export function syslogEvents(lines: string[]): ReceivedEvent[] {
  return lines.map((line) => {
    const sd = /\[warden@32473 ([^\]]*)\] (.*)$/.exec(line);
    if (!sd) throw new Error(`not an RFC 5424 message of Warden's: ${line}`);
    const param = (name: string) => new RegExp(` ?${name}="([^"]*)"`).exec(sd[1])?.[1];
    return {
      line,
      tenant: param('tenant'),
      seq: Number(param('seq')),
      sha256: param('sha256'),
      msg: JSON.parse(sd[2]) as Record<string, unknown>,
    };
  });
}

/**
 * What a SIEM does with what arrived: drops a duplicate by its seq (a copy has the same sha256
 * and content), then finds seqs 1..n, each event linked to the one before by prev_sha256.
 */
export function expectWholeChain(received: ReceivedEvent[], n: number): void {
  const bySeq = new Map<number, ReceivedEvent>();
  for (const event of received) {
    const first = bySeq.get(event.seq);
    if (first)
      expect({ sha256: event.sha256, msg: event.msg }).toEqual({
        sha256: first.sha256,
        msg: first.msg,
      });
    else bySeq.set(event.seq, event);
  }
  const upTo = Array.from({ length: n }, (_, i) => i + 1);
  expect([...bySeq.keys()].sort((a, b) => a - b)).toEqual(upTo);
  let prev = '0'.repeat(64);
  for (const seq of upTo) {
    const { msg, sha256 } = bySeq.get(seq)!;
    expect({ seq, prev_sha256: msg.prev_sha256, sha256: msg.sha256 }).toEqual({
      seq,
      prev_sha256: prev,
      sha256,
    });
    prev = sha256!;
  }
}
