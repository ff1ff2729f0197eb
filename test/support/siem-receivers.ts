import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/processes';
import { RelpReader, relpFrame } from '../../src/audit-sinks/relp-frame';
import { until } from './until';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';

/** A CA of the test's own and a certificate for 127.0.0.1 and localhost it signed, made by openssl. */
export interface TestPki {
  caPath: string;
  certPath: string;
  keyPath: string;
}

export function makePki(dir: string): TestPki {
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Warden test SIEM CA',
  );
  openssl(
    'req',
    ...ec,
    '-keyout',
    file('key.pem'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=localhost',
  );
  writeFileSync(
    file('ext.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('cert.pem'),
    '-days',
    '2',
    '-extfile',
    file('ext.cnf'),
  );
  return { caPath: file('ca.pem'), certPath: file('cert.pem'), keyPath: file('key.pem') };
}

export interface Rsyslog {
  port: number;
  /** What rsyslog wrote: one received message a line, as it arrived (`%rawmsg%`). */
  lines(): string[];
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/**
 * Debian's rsyslogd with a config of the test's own, every message written raw to a file. `imtcp`
 * (the default): syslog over TLS (the ossl driver, anonymous clients), started on a free port the
 * first time (imtcp's listenPortFileName). `imrelp`: RELP over TLS (librelp's OpenSSL, no client
 * certificate asked), on a free port taken beforehand. Started again on that same port after a stop.
 */
export async function startRsyslog(
  dir: string,
  pki: TestPki,
  input: 'imtcp' | 'imrelp' = 'imtcp',
): Promise<Rsyslog> {
  const out = join(dir, 'received.log');
  const portFile = join(dir, 'port');
  const pidFile = join(dir, 'rsyslogd.pid');
  let port = input === 'imrelp' ? await freePort() : 0;
  let child: ChildProcess | undefined;
  const inputs = {
    imtcp: () => [
      `module(load="imtcp" StreamDriver.Name="ossl" StreamDriver.Mode="1" StreamDriver.AuthMode="anon")`,
      `input(type="imtcp" port="${port}" listenPortFileName="${portFile}" ruleset="siem")`,
    ],
    imrelp: () => [
      `module(load="imrelp" tls.tlslib="openssl")`,
      `input(type="imrelp" port="${port}" ruleset="siem" tls="on" tls.cacert="${pki.caPath}" tls.mycert="${pki.certPath}" tls.myprivkey="${pki.keyPath}")`,
    ],
  };
  const start = async () => {
    writeFileSync(
      join(dir, 'rsyslog.conf'),
      [
        `global(workDirectory="${dir}" DefaultNetstreamDriver="ossl" DefaultNetstreamDriverCAFile="${pki.caPath}" DefaultNetstreamDriverCertFile="${pki.certPath}" DefaultNetstreamDriverKeyFile="${pki.keyPath}")`,
        `template(name="raw" type="string" string="%rawmsg%\\n")`,
        `ruleset(name="siem") { action(type="omfile" file="${out}" template="raw") }`,
        ...inputs[input](),
        '',
      ].join('\n'),
    );
    writeFileSync(portFile, '');
    // What rsyslogd says of itself (errors of a session) goes to rsyslogd.log beside its config.
    const log = openSync(join(dir, 'rsyslogd.log'), 'a');
    child = spawn('rsyslogd', ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', pidFile], {
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    // The port file is written for port 0 only; a known port is waited for until it listens.
    port = await until(
      'rsyslogd listening',
      () => {
        if (port !== 0) return listening(port) && port;
        const written = Number(readFileSync(portFile, 'utf8').trim());
        return written > 0 && written;
      },
      10_000,
    );
  };
  await start();
  return {
    get port() {
      return port;
    },
    lines: () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : []),
    start,
    stop: async () => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    },
  };
}

/**
 * Whether a socket listens on the loopback port, read from the kernel's table rather than by
 * connecting: a probe that connects and hangs up is a session that aborts its TLS handshake, and
 * imrelp then sometimes resets the next connection too (seen as ECONNRESET on Warden's first batch).
 */
function listening(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].some((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .some((line) => {
        const [, local, , state] = line.trim().split(/\s+/);
        return state === '0A' && local?.endsWith(`:${hex}`);
      }),
  );
}

export interface HecReceiver {
  url: string;
  /** The events of every accepted POST, in arrival order. */
  events: Array<Record<string, any>>;
  /** Requests refused, with why. */
  refused: string[];
  /** While down, every POST is answered 503. */
  down: boolean;
  /** The next POSTs (this many) are taken but answered only after `slowMs`. */
  slow: number;
  slowMs: number;
  close(): Promise<void>;
}

/**
 * An HTTPS receiver shaped like Splunk's HTTP Event Collector: POST /services/collector/event
 * with `Authorization: Splunk <token>`, a body of HEC event objects one after another; answers
 * `{"text":"Success","code":0}` or refuses (401 for a wrong token, 400 for a wrong shape).
 */
export async function startHec(pki: TestPki, token: string): Promise<HecReceiver> {
  const receiver: HecReceiver = {
    url: '',
    events: [],
    refused: [],
    down: false,
    slow: 0,
    slowMs: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const answer = (res: any, status: number, body: object) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer(
    { cert: readFileSync(pki.certPath), key: readFileSync(pki.keyPath) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (receiver.down) return answer(res, 503, { text: 'Server is busy', code: 9 });
        if (req.method !== 'POST' || req.url !== '/services/collector/event') {
          receiver.refused.push(`${req.method} ${req.url}`);
          return answer(res, 404, { text: 'not found', code: 404 });
        }
        if (req.headers.authorization !== `Splunk ${token}`) {
          receiver.refused.push('authorization');
          return answer(res, 401, { text: 'Invalid token', code: 4 });
        }
        const body = Buffer.concat(chunks).toString('utf8');
        const batch: Array<Record<string, any>> = [];
        for (const line of body.split('\n')) {
          const item = JSON.parse(line) as Record<string, any>;
          const shaped =
            typeof item.time === 'number' &&
            typeof item.host === 'string' &&
            typeof item.source === 'string' &&
            item.sourcetype === '_json' &&
            typeof item.event === 'object';
          if (!shaped) {
            receiver.refused.push('shape');
            return answer(res, 400, { text: 'Invalid data format', code: 6 });
          }
          batch.push(item);
        }
        receiver.events.push(...batch);
        if (receiver.slow > 0) {
          receiver.slow--;
          setTimeout(() => answer(res, 200, { text: 'Success', code: 0 }), receiver.slowMs);
        } else answer(res, 200, { text: 'Success', code: 0 });
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

export interface HangingReceiver {
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Bytes read on the connections still open. */
  readonly bytesOnOpen: number;
  /** Ends like a killed receiver: every connection dropped with no TLS close, the port let go. */
  kill(): Promise<void>;
}

/**
 * A TLS syslog receiver that hangs: it accepts connections on `port` and reads what comes (into
 * memory, as a receiver whose output is stuck does) but never writes, closes or stores anything.
 */
export async function startHangingReceiver(pki: TestPki, port: number): Promise<HangingReceiver> {
  const open = new Map<TLSSocket, number>();
  let accepted = 0;
  const server = createTlsServer(
    { cert: readFileSync(pki.certPath), key: readFileSync(pki.keyPath), allowHalfOpen: true },
    (socket) => {
      accepted++;
      open.set(socket, 0);
      socket.on('data', (chunk: Buffer) =>
        open.set(socket, (open.get(socket) ?? 0) + chunk.length),
      );
      socket.on('error', () => undefined);
      socket.on('close', () => open.delete(socket));
    },
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    get accepted() {
      return accepted;
    },
    get bytesOnOpen() {
      return [...open.values()].reduce((a, b) => a + b, 0);
    },
    kill: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open.keys()) socket.destroy();
      await closed;
    },
  };
}

export interface RelpReceiver {
  port: number;
  /** The messages it acknowledged, in order. */
  acknowledged: string[];
  close(): Promise<void>;
}

/**
 * A RELP receiver of the test's own over TLS: answers open, then each syslog command of a session
 * with what `answer(n)` says for its n-th message (1-based): a status such as `200 OK`, or
 * `serverclose` to send that hint and answer nothing more (Warden then ends the session).
 */
export async function startRelpReceiver(
  pki: TestPki,
  answer: (n: number) => string,
  offers = 'relp_version=0\ncommands=syslog',
): Promise<RelpReceiver> {
  const acknowledged: string[] = [];
  const server = createTlsServer(
    { cert: readFileSync(pki.certPath), key: readFileSync(pki.keyPath) },
    (socket) => {
      const reader = new RelpReader();
      let n = 0;
      let closing = false;
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        for (const frame of reader.push(chunk)) {
          // After serverclose it reads on and answers nothing: closing with unread bytes would
          // reset the connection, and a reset drops the answers Warden has not read yet.
          if (closing) continue;
          if (frame.command === 'open') {
            socket.write(relpFrame(frame.txnr, 'rsp', `200 OK\n${offers}`));
          } else if (frame.command === 'close') {
            socket.end(relpFrame(frame.txnr, 'rsp'));
          } else {
            const said = answer(++n);
            if (said === 'serverclose') {
              closing = true;
              socket.write(relpFrame(0, 'serverclose'));
              continue;
            }
            if (said.startsWith('200')) acknowledged.push(frame.data.toString('utf8'));
            socket.write(relpFrame(frame.txnr, 'rsp', said));
          }
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    acknowledged,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
