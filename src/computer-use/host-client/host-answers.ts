/**
 * A screen host's answers, checked before anyone uses them (docs/screen-host.md, docs/operations.md): the status, the
 * host's own message (short, printable, the token cut out), JSON, the screenshot's headers and
 * PNG, the element outline (each element checked by outline-element.ts), an action's result and
 * the health. What is off is a ScreenHostError naming the host and the call.
 */
import { createHash } from 'node:crypto';
import { FRAME_SHA256_HEADER, FRAME_SHA256_PATTERN, isFrameError } from '@warden/protocol';
import type { OutlineElement } from '../actions/action.types';
import { size, type Answer } from './host-transport';
import { hasPngSignature, readPngHeader } from '../pixels/png-structure';
import { outlineProblem, type RawElement, toOutlineElement } from './outline-element';
import { sapGuiHealthOf } from './sap-gui-health';
import type { ScreenError } from '../pixels/screen-error';
import { ScreenHostError } from './screen-host-error';
import type { HostTarget, ResolvedTarget } from './screen-host-target';
import type { ActionLookup, ActResult, ScreenHostHealth, Screenshot } from './screen-host.types';

/** The host an answer came from; its token, when known, is cut out of the host's messages. */
type Target = ResolvedTarget & Partial<Pick<HostTarget, 'token'>>;

const SCREEN_SIZE = /^[1-9][0-9]{0,4}$/;
const MAX_SCREEN_SIZE = 65535;
const IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** Throws for anything but 2xx: 401/403 unauthorized, other statuses refused with the host's message. */
export function expectOk(t: Target, answer: Answer, what: string): void {
  const { status } = answer;
  if (status >= 200 && status < 300) return;
  const message = hostMessage(t, answer);
  const said = message ? `: ${message}` : '';
  if (status === 401 || status === 403) {
    throw new ScreenHostError(
      'unauthorized',
      `the screen host at ${t.url} refused the token in ${t.tokenEnv} (${status})${said}`,
      { requestSent: true, status },
    );
  }
  throw new ScreenHostError(
    'refused',
    `the screen host at ${t.url} answered ${what} with ${status}${said}`,
    { requestSent: true, status },
  );
}

/** The host's `message`, printable, short, and with the token (should it appear) cut out. */
export function hostMessage(t: Target, answer: Answer): string {
  let text = answer.body.subarray(0, 4096).toString('utf8');
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed?.message === 'string') text = parsed.message;
  } catch {
    // Not JSON: the start of the text is the message.
  }
  const token = t.token?.value;
  if (token && token.length >= 4) text = text.split(token).join('[token]');
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function json(t: Target, answer: Answer, what: string): unknown {
  const type = String(answer.headers['content-type'] ?? '');
  if (!/^application\/([a-z.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw badAnswer(t, answer, what, `content type ${JSON.stringify(type.slice(0, 80))}, not JSON`);
  }
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    throw badAnswer(t, answer, what, `${size(answer.body.length)} that do not parse as JSON`);
  }
}

/** A `bad_answer`: which host, which call, and what is wrong with its answer. */
function badAnswer(t: Target, answer: Answer, what: string, problem: string): ScreenHostError {
  return new ScreenHostError(
    'bad_answer',
    `the screen host at ${t.url} answered ${what} with ${problem}`,
    {
      requestSent: true,
      status: answer.status,
    },
  );
}

/** A PNG screenshot and the screen's size from its headers; the PNG's header is checked, not decoded. */
export function screenshotOf(t: Target, answer: Answer, what: string): Screenshot {
  const bad = (message: string) => badAnswer(t, answer, what, message);
  const type = String(answer.headers['content-type'] ?? '');
  if (!/^image\/png\s*(;|$)/i.test(type)) {
    throw bad(`content type ${JSON.stringify(type.slice(0, 80))}, not image/png`);
  }
  const width = screenSize(answer.headers['x-screen-width'], 'X-Screen-Width', bad);
  const height = screenSize(answer.headers['x-screen-height'], 'X-Screen-Height', bad);
  const png = answer.body;
  if (!hasPngSignature(png)) throw bad(`${size(png.length)} that are not a PNG`);
  let header;
  try {
    header = readPngHeader(png);
  } catch (error) {
    throw bad(
      `a PNG Warden cannot use: ${(error as ScreenError).message.replace(/^the PNG /, 'it ')}`,
    );
  }
  if (png.length < 45 || !png.subarray(png.length - 12).equals(IEND)) {
    throw bad(`a PNG that is cut off (${size(png.length)}, no IEND end marker)`);
  }
  const frameSha256 = frameShaOf(answer.headers['x-frame-sha256'], bad);
  return {
    png,
    pngSha256: createHash('sha256').update(png).digest('hex'),
    width,
    height,
    pngWidth: header.width,
    pngHeight: header.height,
    frameSha256,
    ...(frameSha256 ? { pixelSha256: frameSha256 } : {}),
  };
}

/** `X-Frame-SHA256`: null when the host sends none; anything but 64 lower-case hex digits is bad. */
function frameShaOf(
  value: string | string[] | undefined,
  bad: (message: string) => ScreenHostError,
): string | null {
  if (value === undefined) return null;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (!FRAME_SHA256_PATTERN.test(text)) {
    throw bad(
      `${FRAME_SHA256_HEADER} ${JSON.stringify(text.slice(0, 80))}, not a frame SHA-256 (64 lower-case hex digits)`,
    );
  }
  return text;
}

/** The `error` string of a JSON error answer (`{statusCode, error, message}`), or null. */
function errorCodeOf(answer: Answer): string | null {
  try {
    const parsed = JSON.parse(answer.body.subarray(0, 4096).toString('utf8')) as {
      error?: unknown;
    };
    return typeof parsed?.error === 'string' ? parsed.error : null;
  } catch {
    return null;
  }
}

/**
 * What a `POST /action` answer other than 2xx means (docs/screen-host.md, docs/operations.md): 401/403 `unauthorized`;
 * 409 with `screen_changed` or `frame_unknown` (only when a frame was expected; from a host that
 * was sent none it is a `bad_answer`) that kind; another 4xx `refused` (it did not act); 5xx
 * `failed` (it tried: whether the action reached the system is unknown); anything else a
 * `bad_answer`.
 */
export function actFailureOf(
  t: Target,
  answer: Answer,
  what: string,
  frameExpected: boolean,
): ScreenHostError {
  const { status } = answer;
  const message = hostMessage(t, answer);
  const said = message ? `: ${message}` : '';
  const details = { requestSent: true, status };
  if (status === 401 || status === 403) {
    return new ScreenHostError(
      'unauthorized',
      `the screen host at ${t.url} refused the token in ${t.tokenEnv} (${status})${said}`,
      details,
    );
  }
  if (status === 409) {
    const code = errorCodeOf(answer);
    if (isFrameError(code)) {
      if (!frameExpected) {
        return badAnswer(t, answer, what, `409 ${code}, though Warden sent no X-Expect-Frame`);
      }
      const why =
        code === 'screen_changed'
          ? 'the screen changed since the screenshot the action was judged on'
          : 'it no longer holds the frame the action was judged on';
      return new ScreenHostError(
        code,
        `the screen host at ${t.url} did not perform ${what}: ${why}${said}`,
        details,
      );
    }
    return new ScreenHostError(
      'refused',
      `the screen host at ${t.url} refused ${what}: this Idempotency-Key was already used for a different action${said}`,
      details,
    );
  }
  if (status >= 400 && status < 500) {
    return new ScreenHostError(
      'refused',
      `the screen host at ${t.url} answered ${what} with ${status}${said}`,
      details,
    );
  }
  if (status >= 500 && status < 600) {
    return new ScreenHostError(
      'failed',
      `the screen host at ${t.url} failed ${what} (${status})${said}; whether the action reached the screen is unknown`,
      details,
    );
  }
  return badAnswer(t, answer, what, `status ${status}`);
}

/**
 * `GET /actions/{key}` found a stored answer: performed when it is `{ok: true, …}`; a stored
 * failure (a 5xx the host replays, or a 200 whose body is not a success, as hosts before the
 * faithful lookup served stored failures) is an unknown outcome.
 */
export function lookupOf(t: Target, answer: Answer, what: string): ActionLookup {
  const replayed = String(answer.headers['idempotency-replayed'] ?? '').toLowerCase() === 'true';
  if (answer.status >= 500 && answer.status < 600 && replayed) {
    return {
      performed: 'unknown',
      message:
        hostMessage(t, answer) ||
        `the screen host stored a ${answer.status} for this key: the action failed`,
    };
  }
  expectOk(t, answer, what);
  const result = jsonObject(t, answer, what);
  if (result.ok !== true) {
    const said = hostMessage(t, answer);
    return {
      performed: 'unknown',
      message: `the screen host's stored answer for this key is not a success${said ? `: ${said}` : ''}`,
    };
  }
  return { performed: true, result };
}

function screenSize(
  value: string | string[] | undefined,
  name: string,
  bad: (message: string) => ScreenHostError,
): number {
  if (value === undefined) throw bad(`no ${name} header`);
  const text = Array.isArray(value) ? value.join(',') : value.trim();
  if (!SCREEN_SIZE.test(text) || Number(text) > MAX_SCREEN_SIZE) {
    throw bad(
      `${name} ${JSON.stringify(text.slice(0, 40))}, not a positive whole number of pixels`,
    );
  }
  return Number(text);
}

/** The element outline: a list of elements, each checked and copied (docs/screen-host.md). */
export function outlineOf(t: Target, answer: Answer, what: string): OutlineElement[] {
  const value = json(t, answer, what);
  if (!Array.isArray(value)) throw badAnswer(t, answer, what, 'not a list of elements');
  return value.map((item, n) => {
    const problem = outlineProblem(item);
    if (problem) throw badAnswer(t, answer, what, `element ${n} ${problem}`);
    return toOutlineElement(item as RawElement);
  });
}

/** `{ok: true, ms}`, and whether the host answered a stored result for the Idempotency-Key. */
export function actResultOf(t: Target, answer: Answer, what: string): ActResult {
  const body = json(t, answer, what) as { ok?: unknown; ms?: unknown } | null;
  if (!body || body.ok !== true || typeof body.ms !== 'number' || !Number.isFinite(body.ms)) {
    throw badAnswer(t, answer, what, 'not {ok: true, ms}');
  }
  const replayed = String(answer.headers['idempotency-replayed'] ?? '').toLowerCase() === 'true';
  return { ok: true, ms: body.ms, replayed };
}

export function jsonObject(t: Target, answer: Answer, what: string): Record<string, unknown> {
  const value = json(t, answer, what);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badAnswer(t, answer, what, 'not a JSON object');
  }
  return value as Record<string, unknown>;
}

export function healthOf(t: Target, answer: Answer, what: string): ScreenHostHealth {
  const body = jsonObject(t, answer, what);
  const caps = body.capabilities;
  if (!Array.isArray(caps) || !caps.every((c) => typeof c === 'string')) {
    throw badAnswer(t, answer, what, 'no capabilities list');
  }
  const health: ScreenHostHealth = { capabilities: caps };
  if (typeof body.backend === 'string') health.backend = body.backend;
  if (typeof body.version === 'string') health.version = body.version;
  if (Number.isInteger(body.width)) health.width = body.width as number;
  if (Number.isInteger(body.height)) health.height = body.height as number;
  const sapGui = sapGuiHealthOf(body.sap_gui);
  if (sapGui) health.sapGui = sapGui;
  return health;
}
