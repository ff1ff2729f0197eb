import { simpleParser, type ParsedMail } from 'mailparser';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createCertificate } from '../../screen-host/src';
import { verifyWebhook, type Verdict } from '../../src/notifications/webhook-signature';
import { countConnections, type CountsConnections } from './recording-listener';

/** A request as the notification receiver saw it, with its signature checked when it had one. */
export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  verdict: Verdict | null;
  at: number;
}

export interface Receiver {
  url: string;
  /** The receiver's certificate: Warden trusts it through NOTIFY_CA_FILE. */
  certPath: string;
  received: Received[];
  on(path: string): Received[];
  close(): Promise<void>;
}

/**
 * A local HTTPS receiver for every channel, by path: `/hook…` checks the webhook signature (and
 * refuses a replay, 401), `/flaky…` answers 503 three times and then 200, `/hang…` never answers,
 * anything else answers 200.
 */
export async function startReceiver(secret: () => string): Promise<Receiver> {
  const cert = await createCertificate(mkdtempSync(join(tmpdir(), 'warden-receiver-')));
  const received: Received[] = [];
  const flaky = new Map<string, number>();
  const server: Server = createServer(
    { cert: readFileSync(cert.certPath), key: readFileSync(cert.keyPath) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '';
        const body = Buffer.concat(chunks).toString('utf8');
        const signed = req.headers['x-warden-signature'] !== undefined;
        const verdict = signed
          ? verifyWebhook({
              secret: secret(),
              timestamp: req.headers['x-warden-timestamp'] as string | undefined,
              signature: req.headers['x-warden-signature'] as string | undefined,
              body,
              nowSeconds: Math.floor(Date.now() / 1000),
            })
          : null;
        received.push({ path, headers: req.headers, body, verdict, at: Date.now() });
        if (path.startsWith('/hang')) return; // never answers
        if (path.startsWith('/flaky')) {
          const seen = (flaky.get(path) ?? 0) + 1;
          flaky.set(path, seen);
          if (seen <= 3) {
            res.writeHead(503, { 'content-type': 'text/plain' });
            res.end('receiver-secret-error-page: busy');
            return;
          }
        }
        if (verdict && !verdict.ok) {
          res.writeHead(401);
          res.end(verdict.reason);
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    certPath: cert.certPath,
    received,
    on: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface MailReceiver extends CountsConnections {
  url: string;
  mails: Array<ParsedMail & { envelopeTo: string[] }>;
  close(): Promise<void>;
}

/** A local SMTP server (smtp-server) that parses every mail it receives (mailparser). */
export async function startMailReceiver(): Promise<MailReceiver> {
  const mails: MailReceiver['mails'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(
            Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }),
          );
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const connections = countConnections(server.server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
