import fc from 'fast-check';
import type { IncomingHttpHeaders } from 'node:http';
import { PNG } from 'pngjs';
import { actFailureOf, lookupOf, outlineOf, screenshotOf } from './host-answers';
import { MAX_OUTLINE_VALUE } from './outline-element';
import type { Answer } from './host-transport';
import { ScreenHostError } from './screen-host-error';
import { resolveTarget } from './screen-host-target';

const target = resolveTarget({
  screen_url: 'https://screen-host.test:8443',
  screen_token_env: 'WARDEN_HOST_ANSWERS_SPEC_UNSET',
});

function answer(status: number, body: unknown, headers: IncomingHttpHeaders = {}): Answer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return {
    status,
    headers: Buffer.isBuffer(body) ? headers : { 'content-type': 'application/json', ...headers },
    body: bytes,
  };
}

function caught(fn: () => unknown): ScreenHostError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ScreenHostError) return error;
    throw error;
  }
  throw new Error('expected a ScreenHostError');
}

const png = PNG.sync.write(new PNG({ width: 4, height: 2 }));
const shot = (frame?: string | string[]) =>
  answer(200, png, {
    'content-type': 'image/png',
    'x-screen-width': '4',
    'x-screen-height': '2',
    ...(frame === undefined ? {} : { 'x-frame-sha256': frame }),
  });

describe('screenshotOf: X-Frame-SHA256', () => {
  it('is the frame hash in lower-case hex, or null when the host sends none', () => {
    const sha = 'a1'.repeat(32);
    expect(screenshotOf(target, shot(sha), 'GET /screenshot').frameSha256).toBe(sha);
    expect(screenshotOf(target, shot(), 'GET /screenshot').frameSha256).toBeNull();
  });

  it("is the PNG's pixel hash as well (the protocol's definition), so the store need not decode", () => {
    const sha = 'a1'.repeat(32);
    expect(screenshotOf(target, shot(sha), 'GET /screenshot').pixelSha256).toBe(sha);
    expect(screenshotOf(target, shot(), 'GET /screenshot')).not.toHaveProperty('pixelSha256');
  });

  it.each([
    ['upper case', 'A1'.repeat(32)],
    ['too short', 'a1'.repeat(31)],
    ['too long', 'a1'.repeat(33)],
    ['spaces', ` ${'a1'.repeat(32)}`],
    ['not hex', 'zz'.repeat(32)],
    ['empty', ''],
    ['sent twice', ['a1'.repeat(32), 'a1'.repeat(32)]],
  ])('%s is a bad answer', (_name, value) => {
    const error = caught(() => screenshotOf(target, shot(value), 'GET /screenshot'));
    expect(error.kind).toBe('bad_answer');
    expect(error.message).toMatch(/X-Frame-SHA256 .*not a frame SHA-256/);
  });

  it('anything but 64 lower-case hex digits is refused (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (value) => {
        const good = /^[0-9a-f]{64}$/.test(value);
        let result: { frame: string | null } | 'bad' = 'bad';
        try {
          result = { frame: screenshotOf(target, shot(value), 'GET /screenshot').frameSha256 };
        } catch (error) {
          if (!(error instanceof ScreenHostError) || error.kind !== 'bad_answer') throw error;
        }
        expect(result).toEqual(good ? { frame: value } : 'bad');
      }),
      { numRuns: 300 },
    );
  });
});

describe('actFailureOf: what a POST /action error means', () => {
  const error = (status: number, body: unknown, framed = true) =>
    actFailureOf(target, answer(status, body), 'POST /action', framed);

  it('409 screen_changed and frame_unknown, when a frame was expected: nothing was done', () => {
    const changed = error(409, {
      statusCode: 409,
      error: 'screen_changed',
      message: 'the screen changed: it differs from the frame the action was judged on',
    });
    expect(changed).toMatchObject({ kind: 'screen_changed', status: 409, requestSent: true });
    expect(changed.message).toContain('the screen changed since the screenshot');
    const unknown = error(409, { statusCode: 409, error: 'frame_unknown', message: 'gone' });
    expect(unknown).toMatchObject({ kind: 'frame_unknown', status: 409 });
  });

  it('a frame refusal Warden did not ask for is a bad answer', () => {
    expect(error(409, { error: 'screen_changed' }, false).kind).toBe('bad_answer');
  });

  it('another 409 (a key reused) and other 4xx are refused: the host did not act', () => {
    expect(error(409, { statusCode: 409, error: 'Conflict', message: 'reused' })).toMatchObject({
      kind: 'refused',
      status: 409,
    });
    expect(error(409, 'not json at all').kind).toBe('refused');
    expect(error(400, { message: 'bad action' }).kind).toBe('refused');
    expect(error(401, {}).kind).toBe('unauthorized');
    expect(error(403, {}).kind).toBe('unauthorized');
  });

  it('5xx is failed: the host tried, and whether it acted is unknown', () => {
    for (const status of [500, 502, 503]) {
      const failed = error(status, { message: 'xdotool exited with 1' });
      expect(failed).toMatchObject({ kind: 'failed', status, requestSent: true });
      expect(failed.message).toContain('xdotool exited with 1');
      expect(failed.message).toContain('whether the action reached the screen is unknown');
    }
  });

  it('a status that is neither success nor error is a bad answer', () => {
    expect(error(302, {}).kind).toBe('bad_answer');
  });
});

describe('lookupOf: a stored answer, faithfully', () => {
  const lookup = (status: number, body: unknown, replayed = true) =>
    lookupOf(
      target,
      answer(status, body, replayed ? { 'idempotency-replayed': 'true' } : {}),
      'GET /actions/{key}',
    );

  it('a stored success is performed, with what the host answered', () => {
    expect(lookup(200, { ok: true, ms: 3 })).toEqual({
      performed: true,
      result: { ok: true, ms: 3 },
    });
    expect(lookup(200, { ok: true, ms: 3 }, false)).toMatchObject({ performed: true });
  });

  it('a stored failure is unknown, with the host message', () => {
    expect(
      lookup(500, {
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'the action could not be performed: xdotool exited with 1',
      }),
    ).toEqual({
      performed: 'unknown',
      message: 'the action could not be performed: xdotool exited with 1',
    });
  });

  it('a 200 whose body is a stored failure (hosts before the faithful lookup) is unknown', () => {
    expect(
      lookup(200, { statusCode: 500, error: 'Internal Server Error', message: 'half-way' }, false),
    ).toEqual({
      performed: 'unknown',
      message: "the screen host's stored answer for this key is not a success: half-way",
    });
    expect(lookup(200, {}, false)).toMatchObject({ performed: 'unknown' });
  });

  it('a 5xx that is no stored answer is the lookup failing, not an answer', () => {
    const failure = caught(() => lookup(503, { message: 'busy' }, false));
    expect(failure.kind).toBe('refused');
    expect(caught(() => lookup(401, {}, false)).kind).toBe('unauthorized');
    expect(caught(() => lookup(200, [1, 2], false)).kind).toBe('bad_answer');
  });
});

describe('outlineOf: the fields of docs/screen-host.md, checked and copied', () => {
  const rect = { x: 1, y: 2, width: 30, height: 20 };
  const element = (fields: Record<string, unknown>) => ({
    id: 'f',
    role: 'textbox',
    name: 'Order',
    rect,
    ...fields,
  });
  const outline = (...elements: unknown[]) =>
    outlineOf(target, answer(200, elements), 'GET /elements');

  it('takes a text field’s value', () => {
    expect(outline(element({ value: '4711' }), element({ value: '' }))).toEqual([
      { id: 'f', role: 'textbox', name: 'Order', rect, value: '4711' },
      { id: 'f', role: 'textbox', name: 'Order', rect, value: '' },
    ]);
    expect(outline(element({ value: null }))).toEqual([
      { id: 'f', role: 'textbox', name: 'Order', rect },
    ]);
  });

  it('never takes a password field’s value, and no value longer than the bound', () => {
    expect(outline(element({ value: 'hunter2', password: true }))).toEqual([
      { id: 'f', role: 'textbox', name: 'Order', rect, password: true },
    ]);
    const long = 'x'.repeat(MAX_OUTLINE_VALUE + 1);
    expect(outline(element({ value: long }))).toEqual([
      { id: 'f', role: 'textbox', name: 'Order', rect },
    ]);
    expect(outline(element({ value: long.slice(1) }))[0].value).toHaveLength(MAX_OUTLINE_VALUE);
  });

  it('refuses a value that is not a string, and copies nothing the host added', () => {
    expect(caught(() => outline(element({ value: 4711 }))).message).toBe(
      'the screen host at https://screen-host.test:8443 answered GET /elements with element 0 has a value that is not a string',
    );
    expect(outline(element({ colour: 'red', value: 'x' }))).toEqual([
      { id: 'f', role: 'textbox', name: 'Order', rect, value: 'x' },
    ]);
  });

  it('takes the description, the known states, the area and the message type', () => {
    const [e] = outline(
      element({
        description: 'Record the current transaction',
        states: ['editable', 'changeable', 'focused', 'modified'],
        area: 'input',
        message_type: 'E',
      }),
    );
    expect(e).toEqual({
      id: 'f',
      role: 'textbox',
      name: 'Order',
      rect,
      description: 'Record the current transaction',
      states: ['editable', 'changeable', 'focused', 'modified'],
      area: 'input',
      message_type: 'E',
      focused: true,
    });
  });

  it('leaves out a state, area or message type it does not know, never guessing at it', () => {
    const [e] = outline(
      element({
        states: ['changeable', 'sticky', 'changeable'],
        area: 'input_ish',
        message_type: 'X',
      }),
    );
    expect(e).toEqual({ id: 'f', role: 'textbox', name: 'Order', rect, states: ['changeable'] });
    // An older host's focused: true still marks the focus.
    expect(outline(element({ focused: true }))[0]).toMatchObject({ focused: true });
  });

  it('refuses states, a description or an area of the wrong type, naming the element', () => {
    const problem = (fields: Record<string, unknown>) =>
      caught(() => outline(element({}), element(fields))).message.replace(/^.* with /, '');
    expect(problem({ states: 'focused' })).toBe(
      'element 1 has states that are not a list of at most 32 strings',
    );
    expect(problem({ states: [1] })).toBe(
      'element 1 has states that are not a list of at most 32 strings',
    );
    expect(problem({ description: 7 })).toBe('element 1 has a description that is not a string');
    expect(problem({ area: ['input'] })).toBe('element 1 has an area that is not a string');
  });
});
