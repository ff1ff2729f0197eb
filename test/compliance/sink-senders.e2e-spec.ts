import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';
import { sendRelp } from '../../src/audit-sinks/relp-sender';
import { SinkError } from '../../src/audit-sinks/sink-error';
import { sendSyslog } from '../../src/audit-sinks/syslog-sender';
import { octetFrame } from '../../src/audit-sinks/syslog-frame';
import { freePort } from '../../scripts/lib/processes';
import {
  makePki,
  type Rsyslog,
  startRelpReceiver,
  startRsyslog,
  type TestPki,
} from '../support/siem-receivers';
import { until } from '../support/until';

/**
 * More bytes than the kernel holds between Warden and a receiver that reads nothing: Warden's send
 * buffer at its largest (`tcp_wmem`'s maximum; Linux grows it to that while the receiver's window
 * lets it) and the receiver's receive buffer as it starts (`tcp_rmem`'s default; it grows only as
 * the receiver reads), twice over, and at least 8 MB (a kernel without these files).
 */
function unabsorbedBytes(): number {
  const field = (file: string, i: number) => {
    try {
      return Number(readFileSync(`/proc/sys/net/ipv4/${file}`, 'utf8').trim().split(/\s+/)[i]) || 0;
    } catch {
      return 0;
    }
  };
  return Math.max(8 * 1024 * 1024, 2 * (field('tcp_wmem', 2) + field('tcp_rmem', 1)));
}

/**
 * The senders on their own. RFC 5425 against TLS receivers that end the connection in every way: a
 * batch counts as delivered only when the receiver ended the TLS session in order after Warden
 * closed its side; a receiver that reads nothing and drops the connection does not count. RELP
 * against rsyslogd's imrelp and receivers that stop answering half-way: what counts is what was
 * acknowledged.
 */
/**
 * The RFC 5425 sender on its own against TLS receivers that end the connection in every way: a
 * batch counts as delivered only when the receiver ended the TLS session in order after Warden
 * closed its side; a receiver that reads nothing and drops the connection does not count.
 */
describe('syslog over TLS: what counts as delivered', () => {
  let pki: TestPki;
  let rsyslog: Rsyslog;
  let ca: Buffer;
  const servers: Server[] = [];

  beforeAll(async () => {
    pki = makePki(mkdtempSync(join(tmpdir(), 'warden-sender-ca-')));
    ca = readFileSync(pki.caPath);
    rsyslog = await startRsyslog(mkdtempSync(join(tmpdir(), 'warden-sender-rsyslog-')), pki);
  });

  afterAll(async () => {
    await rsyslog?.stop();
    for (const server of servers) server.close();
  });

  /** A TLS server on loopback with the test's certificate; `onSocket` decides what it does. */
  const tlsServer = async (
    onSocket: (socket: TLSSocket) => void,
    allowHalfOpen = false,
  ): Promise<number> => {
    const server = createServer(
      { cert: readFileSync(pki.certPath), key: readFileSync(pki.keyPath), allowHalfOpen },
      onSocket,
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  const send = (port: number, frames = octetFrame('<110>1 - - warden - test - hello')) =>
    sendSyslog({ host: '127.0.0.1', port, ca, timeoutMs: 3000 }, frames);

  it('counts a batch rsyslogd read: it answers Warden’s close with its own', async () => {
    await send(rsyslog.port, octetFrame('<110>1 - - warden - test - counted'));
    await until('rsyslog wrote it', async () =>
      rsyslog.lines().includes('<110>1 - - warden - test - counted'),
    );
  });

  it('does not count a batch to a receiver that reads nothing and drops the connection after 800 ms', async () => {
    let bytesRead = 0;
    const port = await tlsServer((socket) => {
      socket.pause();
      socket.on('data', (chunk: Buffer) => (bytesRead += chunk.length));
      setTimeout(() => socket.destroy(), 800);
    });
    await expect(send(port)).rejects.toEqual(new SinkError('closed without close_notify'));
    expect(bytesRead).toBe(0);
  });

  it('does not count a batch to a receiver that closes before the batch is written', async () => {
    // The receiver runs in this process: it ends the session only when this process gets to its
    // handshake, which may be after Warden wrote a batch the kernel's buffers hold whole, and
    // then its close reaches Warden after Warden's, as an answering close would. A batch larger
    // than those buffers can only be written once the receiver reads: this one never is.
    const port = await tlsServer((socket) => socket.end());
    await expect(send(port, 'x'.repeat(unabsorbedBytes()))).rejects.toBeInstanceOf(SinkError);
  });

  it('does not count a batch to a receiver that reads it but never closes', async () => {
    const port = await tlsServer((socket) => socket.on('data', () => undefined), true);
    await expect(
      sendSyslog({ host: '127.0.0.1', port, ca, timeoutMs: 500 }, octetFrame('x')),
    ).rejects.toEqual(new SinkError('timeout'));
  });

  it('does not count a batch when the connection is reset or refused', async () => {
    const reset = createTcpServer((socket) => socket.resetAndDestroy());
    servers.push(reset);
    await new Promise<void>((resolve) => reset.listen(0, '127.0.0.1', resolve));
    await expect(send((reset.address() as AddressInfo).port)).rejects.toEqual(
      new SinkError('ECONNRESET'),
    );
    await expect(send(await freePort())).rejects.toEqual(new SinkError('ECONNREFUSED'));
  });

  it('checks the receiver’s certificate', async () => {
    const port = await tlsServer((socket) => socket.end());
    await expect(
      sendSyslog({ host: '127.0.0.1', port, timeoutMs: 3000 }, octetFrame('x')),
    ).rejects.toEqual(new SinkError('UNABLE_TO_VERIFY_LEAF_SIGNATURE'));
  });
});

describe('RELP: what counts as acknowledged', () => {
  let pki: TestPki;
  let rsyslog: Rsyslog;
  let ca: Buffer;
  const servers: Server[] = [];
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    pki = makePki(mkdtempSync(join(tmpdir(), 'warden-relp-sender-ca-')));
    ca = readFileSync(pki.caPath);
    rsyslog = await startRsyslog(mkdtempSync(join(tmpdir(), 'warden-relp-sender-')), pki, 'imrelp');
  });

  afterAll(async () => {
    await rsyslog?.stop();
    for (const server of servers) server.close();
    for (const close of closers) await close();
  });

  const relpServer = async (answer: (n: number) => string, offers?: string) => {
    const receiver = await startRelpReceiver(pki, answer, offers);
    closers.push(receiver.close);
    return receiver.port;
  };
  const messages = (n: number, tag = 'relp') =>
    Array.from({ length: n }, (_, i) => `<110>1 - - warden - ${tag} - message ${i + 1}`);
  const send = (port: number, list: string[]) =>
    sendRelp({ host: '127.0.0.1', port, ca, timeoutMs: 3000 }, list);

  it('counts what rsyslogd acknowledged: 300 messages, more than a window', async () => {
    const list = messages(300, 'window');
    await send(rsyslog.port, list);
    await until(
      'rsyslog wrote them',
      async () => rsyslog.lines().filter((l) => l.includes(' window ')).length === 300,
    );
    expect(rsyslog.lines().filter((l) => l.includes(' window '))).toEqual(list);
  });

  it('counts the messages acknowledged before the receiver closed, and no more', async () => {
    const port = await relpServer((n) => (n <= 3 ? '200 OK' : 'serverclose'));
    await expect(send(port, messages(5))).rejects.toEqual(new SinkError('serverclose'));
    await expect(send(port, messages(5))).rejects.toMatchObject({ acknowledged: 3 });
  });

  it('stops at a message the receiver refuses', async () => {
    const port = await relpServer((n) => (n === 2 ? '500 no room' : '200 OK'));
    await expect(send(port, messages(4))).rejects.toMatchObject({
      code: 'RELP 500',
      acknowledged: 1,
    });
  });

  it('does not count messages to a receiver that speaks no RELP', async () => {
    const port = await relpServer(() => '200 OK');
    const plain = createServer(
      { cert: readFileSync(pki.certPath), key: readFileSync(pki.keyPath) },
      (socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'),
    );
    servers.push(plain);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    await expect(send((plain.address() as AddressInfo).port, messages(1))).rejects.toEqual(
      new SinkError('RELP framing'),
    );
    await expect(send(port, messages(2))).resolves.toBeUndefined();
    const noSyslog = await relpServer(() => '200 OK', 'relp_version=0\ncommands=eventlog');
    await expect(send(noSyslog, messages(1))).rejects.toEqual(new SinkError('RELP open refused'));
  });
});
