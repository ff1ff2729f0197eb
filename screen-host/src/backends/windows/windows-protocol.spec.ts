import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { checkAction, CheckedAction } from '../../actions';
import { encodeRequest, opForAction, parseResponse, WindowsBridge } from './windows-protocol';

function checked(body: unknown): CheckedAction {
  const result = checkAction(body, { width: 1920, height: 1080 });
  if (!result.ok) throw new Error(result.reason);
  return result.action;
}

describe('opForAction', () => {
  it('clicks once or twice at the point', () => {
    expect(opForAction(checked({ action: 'click', x: 5, y: 6, target: 'Save' }))).toEqual({
      op: 'click',
      x: 5,
      y: 6,
      count: 1,
    });
    expect(opForAction(checked({ action: 'double_click', x: 5, y: 6 }))).toEqual({
      op: 'click',
      x: 5,
      y: 6,
      count: 2,
    });
  });

  it('scrolls in wheel notches of 120, up and right positive', () => {
    expect(opForAction(checked({ action: 'scroll', x: 1, y: 2, direction: 'up' }))).toEqual({
      op: 'scroll',
      x: 1,
      y: 2,
      dx: 0,
      dy: 360,
    });
    expect(
      opForAction(checked({ action: 'scroll', x: 1, y: 2, direction: 'down', amount: 1 })),
    ).toMatchObject({ dy: -120 });
    expect(
      opForAction(checked({ action: 'scroll', x: 1, y: 2, direction: 'left', amount: 2 })),
    ).toMatchObject({ dx: -240, dy: 0 });
    expect(
      opForAction(checked({ action: 'scroll', x: 1, y: 2, direction: 'right', amount: 2 })),
    ).toMatchObject({ dx: 240 });
  });

  it('sends keys as virtual keys, modifiers first, with the extended flag', () => {
    expect(opForAction(checked({ action: 'key', key: 'Ctrl+S' }))).toEqual({
      op: 'key',
      vks: [0x11, 0x53],
      extended: [false, false],
    });
    expect(opForAction(checked({ action: 'key', key: 'Shift+Delete' }))).toEqual({
      op: 'key',
      vks: [0x10, 0x2e],
      extended: [false, true],
    });
  });

  it('types text as it is', () => {
    expect(opForAction(checked({ action: 'type', text: 'Müller €5 ß' }))).toEqual({
      op: 'type',
      text: 'Müller €5 ß',
    });
  });
});

describe('encodeRequest', () => {
  it('writes one line per request, whatever the text holds (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (text) => {
        const line = encodeRequest({ id: 7, op: 'type', text });
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(JSON.parse(line)).toEqual({ id: 7, op: 'type', text });
      }),
    );
  });
});

describe('parseResponse', () => {
  it('reads answers', () => {
    expect(parseResponse('{"id":1,"ok":true}')).toEqual({ id: 1, ok: true });
    expect(
      parseResponse('{"id":2,"ok":true,"width":1920,"height":1080,"png":"iVBORw0KGgo="}'),
    ).toEqual({
      id: 2,
      ok: true,
      width: 1920,
      height: 1080,
      png: 'iVBORw0KGgo=',
    });
    expect(
      parseResponse('{"id":3,"ok":false,"error":"SendInput delivered 0 of 2 events"}'),
    ).toEqual({
      id: 3,
      ok: false,
      error: 'SendInput delivered 0 of 2 events',
    });
  });

  it('passes a SAP GUI answer on as an object, for the SAP GUI reader to check', () => {
    expect(parseResponse('{"id":4,"ok":true,"sapgui":{"refused":"busy","detail":"x"}}')).toEqual({
      id: 4,
      ok: true,
      sapgui: { refused: 'busy', detail: 'x' },
    });
  });

  it.each([
    '{"id":1,"ok":true,"sapgui":"text"}',
    '{"id":1,"ok":true,"sapgui":[1]}',
    '{"id":1,"ok":true,"sapgui":null}',
    'not json',
    '[1]',
    '{"ok":true}',
    '{"id":"1","ok":true}',
    '{"id":1,"ok":"yes"}',
    '{"id":1,"ok":true,"width":-1,"height":5}',
    '{"id":1,"ok":true,"width":1920}',
    '{"id":1,"ok":true,"png":"not base64!"}',
  ])('refuses %s', (line) => {
    expect(() => parseResponse(line)).toThrow();
  });

  it('never throws anything but an Error (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (line) => {
        try {
          parseResponse(line);
        } catch (err) {
          expect(err).toBeInstanceOf(Error);
        }
      }),
    );
  });
});

describe('WindowsBridge', () => {
  function helper() {
    const toHelper = new PassThrough();
    const fromHelper = new PassThrough();
    const bridge = new WindowsBridge(toHelper, fromHelper, 500);
    const requests: Record<string, unknown>[] = [];
    toHelper.setEncoding('utf8');
    toHelper.on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) requests.push(JSON.parse(line));
    });
    return { bridge, fromHelper, requests };
  }

  it('matches answers to requests by id, in any order, across chunks', async () => {
    const { bridge, fromHelper, requests } = helper();
    const size = bridge.request({ op: 'size' });
    const click = bridge.request({ op: 'click', x: 1, y: 2, count: 1 });
    await new Promise((r) => setImmediate(r));
    expect(requests).toEqual([
      { op: 'size', id: 1 },
      { op: 'click', x: 1, y: 2, count: 1, id: 2 },
    ]);
    fromHelper.write('{"id":2,"ok":true}\n{"id":1,"ok":true,"wid');
    fromHelper.write('th":1280,"height":800}\n');
    await expect(click).resolves.toEqual({ id: 2, ok: true });
    await expect(size).resolves.toEqual({ id: 1, ok: true, width: 1280, height: 800 });
  });

  it('rejects a request the helper failed', async () => {
    const { bridge, fromHelper } = helper();
    const typing = bridge.request({ op: 'type', text: 'x' });
    fromHelper.write('{"id":1,"ok":false,"error":"desktop locked"}\n');
    await expect(typing).rejects.toThrow('desktop locked');
  });

  it('times out when the helper does not answer', async () => {
    const { bridge } = helper();
    await expect(bridge.request({ op: 'screenshot' })).rejects.toThrow(/did not answer screenshot/);
  });

  it('gives one request a time of its own (a helper that is still starting)', async () => {
    const { bridge, fromHelper } = helper();
    const ping = bridge.request({ op: 'ping' }, 5_000);
    const sap = bridge.request({ op: 'sapgui', read: 'probe' }, 20);
    await expect(sap).rejects.toThrow(/did not answer sapgui within 20 ms/);
    await new Promise((r) => setTimeout(r, 600));
    fromHelper.write('{"id":1,"ok":true}\n');
    await expect(ping).resolves.toEqual({ id: 1, ok: true });
  });

  it('fails everything in flight, and later requests, when the helper talks garbage or exits', async () => {
    const { bridge, fromHelper } = helper();
    const pending = bridge.request({ op: 'size' });
    fromHelper.write('garbage\n');
    await expect(pending).rejects.toThrow(/not JSON/);
    await expect(bridge.request({ op: 'size' })).rejects.toThrow(/not JSON/);
  });
});
