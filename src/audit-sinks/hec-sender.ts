import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { hecAcknowledged } from './hec-payload';
import { errorCode, SinkError } from './sink-error';

export interface HecTarget {
  /** The full event endpoint (`…/services/collector/event`). */
  endpoint: string;
  token: string;
  ca?: Buffer;
  timeoutMs: number;
}

const MAX_ANSWER = 64 * 1024;

/**
 * One POST of a batch to HEC, acknowledged by a 200 with `{"code": 0}`. Anything else is a
 * SinkError with the status (never the answer's body); no redirect is followed, so the token goes
 * only to the endpoint's origin.
 */
export function sendHec(target: HecTarget, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(target.endpoint);
    let settled = false;
    const finish = (error: SinkError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        req.destroy();
        reject(error);
      } else resolve();
    };
    const req = (url.protocol === 'https:' ? httpsRequest : request)(
      url,
      {
        method: 'POST',
        agent: false,
        ca: target.ca,
        headers: {
          authorization: `Splunk ${target.token}`,
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Warden-Audit',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER) chunks.push(chunk);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const answer = Buffer.concat(chunks).toString('utf8');
          if (hecAcknowledged(status, answer)) finish(null);
          else finish(new SinkError(status === 200 ? 'HTTP 200 without code 0' : `HTTP ${status}`));
        });
        res.on('error', (error) => finish(new SinkError(errorCode(error))));
      },
    );
    const timer = setTimeout(() => finish(new SinkError('timeout')), target.timeoutMs);
    req.on('error', (error) => finish(new SinkError(errorCode(error))));
    req.end(body);
  });
}
