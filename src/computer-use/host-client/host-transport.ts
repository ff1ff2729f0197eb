/**
 * One HTTP call to a screen host over a verified connection, bounded in time and size
 * (docs/operations.md). The token goes only to the origin it was released for; a success answer is read up to the call's limit, an error
 * answer only as far as its message needs; every failure becomes a ScreenHostError that says
 * whether the request had left.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request, type Agent } from 'node:https';
import { ScreenHostError } from './screen-host-error';
import { bearerToken, type HostTarget } from './screen-host-target';
import { errorCode, UNREACHABLE } from './tls-connector';

export const MAX_SCREENSHOT_BYTES = 32 * 1024 * 1024;
export const MAX_ELEMENTS_BYTES = 2 * 1024 * 1024;
export const MAX_JSON_BYTES = 64 * 1024;

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  /** `GET /screenshot`, for messages. */
  what: string;
  timeoutMs: number;
  maxBytes: number;
  body?: Buffer;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

export function send(t: HostTarget, agent: Agent, call: Call): Promise<Answer> {
  const token = bearerToken(t);
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    let sent = false;
    const fail = (error: ScreenHostError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    let req: ReturnType<typeof request>;
    try {
      req = request({
        agent,
        host: t.host,
        port: t.port,
        method: call.method,
        path: t.basePath + call.path,
        headers: {
          ...call.headers,
          authorization: `Bearer ${token}`,
          ...(call.body ? { 'content-length': String(call.body.length) } : {}),
        },
      });
    } catch (error) {
      reject(requestError(t, error as Error, call, false));
      return;
    }
    const timer = setTimeout(
      () =>
        fail(
          new ScreenHostError(
            'timeout',
            `the screen host at ${t.url} did not answer ${call.what} within ${seconds(call.timeoutMs)}`,
            { requestSent: sent },
          ),
        ),
      call.timeoutMs,
    );
    req.on('socket', () => (sent = true));
    req.on('error', (error) => fail(requestError(t, error, call, sent)));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // Error answers are read only as far as a message needs; success answers up to the limit.
      const limit = status >= 200 && status < 300 ? call.maxBytes : MAX_JSON_BYTES;
      const tooLarge = (bytes: string) =>
        new ScreenHostError(
          'bad_answer',
          `the screen host at ${t.url} answered ${call.what} with ${bytes}; at most ${size(limit)} is accepted`,
          { requestSent: true, status },
        );
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        if (status >= 200 && status < 300) return fail(tooLarge(size(declared)));
      }
      const chunks: Buffer[] = [];
      let received = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (settled || truncated) return;
        if (received + chunk.length > limit) {
          if (status >= 200 && status < 300) return fail(tooLarge(`more than ${size(limit)}`));
          // Keep the start of an error answer for its message; drop the connection.
          chunks.push(chunk.subarray(0, limit - received));
          received = limit;
          truncated = true;
          finish();
          return;
        }
        chunks.push(chunk);
        received += chunk.length;
      });
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (truncated) req.destroy();
        resolve({ status, headers: res.headers, body: Buffer.concat(chunks, received) });
      };
      const cutOff = () =>
        fail(
          new ScreenHostError(
            'unreachable',
            `the connection to the screen host at ${t.url} closed in the middle of the answer to ${call.what} (after ${size(received)})`,
            { requestSent: true, status },
          ),
        );
      res.on('end', () => (res.complete ? finish() : cutOff()));
      res.on('error', cutOff);
      res.on('close', () => {
        if (!settled) (res.complete ? finish : cutOff)();
      });
    });
    req.end(call.body);
  });
}

function requestError(t: HostTarget, error: Error, call: Call, sent: boolean): ScreenHostError {
  if (error instanceof ScreenHostError) return error;
  const code = errorCode(error);
  if (code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN') {
    return new ScreenHostError(
      'config',
      `the request ${call.what} could not be built: a header value is invalid`,
    );
  }
  const reason =
    code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')
      ? 'it answered something that is not HTTP'
      : (UNREACHABLE[code] ?? `the connection failed (${code || error.message})`);
  const kind = code.startsWith('HPE_') ? 'bad_answer' : 'unreachable';
  return new ScreenHostError(kind, `the screen host at ${t.url} failed ${call.what}: ${reason}`, {
    requestSent: sent,
  });
}
