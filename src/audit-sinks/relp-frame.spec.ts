import fc from 'fast-check';
import {
  openOffers,
  parseResponse,
  RELP_MAX_DATA,
  RelpProtocolError,
  RelpReader,
  relpFrame,
} from './relp-frame';

describe('relpFrame', () => {
  it('counts DATALEN in octets and leaves the space out when there is no data', () => {
    expect(relpFrame(2, 'syslog', 'ü').toString('utf8')).toBe('2 syslog 2 ü\n');
    expect(relpFrame(3, 'close').toString('utf8')).toBe('3 close 0\n');
  });

  it('offers RELP version 0 and the syslog command', () => {
    expect(openOffers('warden')).toBe('relp_version=0\nrelp_software=warden\ncommands=syslog');
  });
});

describe('RelpReader', () => {
  it("reads rsyslog's answers to open, syslog and close, and its serverclose hint", () => {
    const wire =
      '1 rsp 93 200 OK\nrelp_version=0\nrelp_software=librelp,1.11.0,http://librelp.adiscon.com\ncommands=syslog\n' +
      '2 rsp 6 200 OK\n3 rsp 0\n0 serverclose 0\n';
    const frames = new RelpReader().push(Buffer.from(wire));
    expect(frames.map((f) => [f.txnr, f.command, f.data.toString()])).toEqual([
      [
        1,
        'rsp',
        '200 OK\nrelp_version=0\nrelp_software=librelp,1.11.0,http://librelp.adiscon.com\ncommands=syslog',
      ],
      [2, 'rsp', '200 OK'],
      [3, 'rsp', ''],
      [0, 'serverclose', ''],
    ]);
    expect(parseResponse(frames[0].data)).toEqual({
      status: 200,
      offers: new Map([
        ['relp_version', ['0']],
        ['relp_software', ['librelp', '1.11.0', 'http://librelp.adiscon.com']],
        ['commands', ['syslog']],
      ]),
    });
    expect(parseResponse(Buffer.from('500 command disabled')).status).toBe(500);
  });

  it('reads the same frames however the bytes are cut', () => {
    const frames = [relpFrame(1, 'rsp', '200 OK\nx=1'), relpFrame(2, 'rsp'), relpFrame(0, 'hint')];
    const wire = Buffer.concat(frames);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: wire.length - 1 })), (cuts) => {
        const reader = new RelpReader();
        const at = [0, ...new Set(cuts)].sort((a, b) => a - b).concat(wire.length);
        const read = at.slice(1).flatMap((end, i) => reader.push(wire.subarray(at[i], end)));
        expect(read.map((f) => relpFrame(f.txnr, f.command, f.data.toString()))).toEqual(frames);
      }),
    );
  });

  it('refuses what is not a RELP frame, never waits for ever on it, and never throws another error', () => {
    for (const bad of [
      'HTTP/1.1 400 Bad\r\n',
      '1 rsp 6 200 OKX\n',
      '1 rsp 3\n',
      '12345678901 rsp 0\n',
    ]) {
      expect(() => new RelpReader().push(Buffer.from(bad))).toThrow(RelpProtocolError);
    }
    expect(() => new RelpReader().push(Buffer.from(`1 rsp ${RELP_MAX_DATA + 1} `))).toThrow(
      RelpProtocolError,
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          new RelpReader().push(Buffer.from(bytes));
        } catch (error) {
          expect(error).toBeInstanceOf(RelpProtocolError);
        }
      }),
    );
  });
});
