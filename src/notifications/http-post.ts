import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';

/**
 * One POST of a notification: a status code or an error with a short code, within `timeoutMs`
 * for the whole exchange. The answer's body is read and dropped: it is the receiver's, not
 * something to keep. No redirects are followed, so a body (and a signature) goes only to the URL.
 */
export class PostError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'PostError';
  }
}

export interface PostOptions {
  timeoutMs: number;
  /** Extra CA certificates (PEM) trusted besides the system's. */
  ca?: Buffer | null;
}

export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (error: PostError | null, status?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(status!);
    };
    const req = request(
      target,
      {
        method: 'POST',
        agent: false,
        ca: options.ca ? [...rootCertificates, options.ca.toString()] : undefined,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Warden-Notifications',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => finish(null, res.statusCode ?? 0));
        res.on('error', () => finish(null, res.statusCode ?? 0));
      },
    );
    const timer = setTimeout(() => {
      finish(new PostError('timeout'));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish(new PostError(error.code ?? error.name ?? 'error'));
    });
    req.end(body);
  });
}
