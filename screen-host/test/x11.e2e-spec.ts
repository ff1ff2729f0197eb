/**
 * The x11 backend on a throwaway Xvfb display against a real Tk program that logs every input it
 * receives, so each action is checked where it landed, not only that the host said ok.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { formatFrameIgnore, frameSha256 } from '@warden/protocol';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createWorker, Worker } from 'tesseract.js';
import { until } from '../../test/support/until';
import {
  call,
  CliHost,
  decodePng,
  python,
  readJsonLines,
  startCliHost,
  tempCertificate,
  tempDir,
  TOKEN,
} from './helpers';
import { stopChild } from '../../test/support/children';
import { startXvfb, type Xvfb } from '../../test/support/xvfb';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const centre = (b: Box) => ({
  x: b.x + Math.floor(b.width / 2),
  y: b.y + Math.floor(b.height / 2),
});

describe('x11 backend under Xvfb with a Tk program', () => {
  let xvfb: Xvfb;
  let app: ChildProcess;
  let host: CliHost;
  let ca: Buffer;
  let logPath: string;
  let actionLog: string;
  let widgets: Record<'entry' | 'save' | 'twice' | 'list' | 'later', Box>;
  let ocr: Worker;

  const log = () => readJsonLines(logPath);
  const act = async (body: unknown) => {
    const reply = await call(host.url, '/action', { ca, body });
    expect(reply.json()).toEqual({ ok: true, ms: expect.any(Number) });
    expect(reply.status).toBe(200);
  };
  /** Acts, then waits for the program to log what it got, and returns only the new lines. */
  const actAndSee = async (body: unknown, seen: (lines: any[]) => boolean) => {
    const before = log().length;
    await act(body);
    return until(
      `the Tk program to log ${JSON.stringify(body)}`,
      () => {
        const fresh = log().slice(before);
        return seen(fresh) ? fresh : null;
      },
      5000,
      25,
    );
  };

  beforeAll(async () => {
    xvfb = await startXvfb(1280, 800);
    logPath = join(tempDir(), 'tk.log');
    // The "Ask later" dialog opens 2.5 s after its button: time to take a settled screenshot first.
    app = spawn(python(), [join(__dirname, 'fixtures', 'tk_form.py'), logPath, '2500'], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: 'ignore',
    });
    const ready = await until(
      'the Tk program to start',
      () => log().find((l) => l.type === 'ready'),
      15000,
      25,
    );
    widgets = ready.widgets;
    const cert = await tempCertificate();
    ca = cert.cert;
    // A process of its own, as deployed: the native screenshot library reads the real
    // environment's DISPLAY, which Jest's sandboxed process.env does not reach.
    host = await startCliHost(
      [
        '--backend',
        'x11',
        '--display',
        xvfb.display,
        '--port',
        '0',
        '--cert',
        cert.certPath,
        '--key',
        cert.keyPath,
        '--quiet',
        '--action-log',
        (actionLog = join(tempDir(), 'actions.log')),
      ],
      { SCREEN_HOST_TOKEN: TOKEN },
    );
    const langPath = join(
      dirname(require.resolve('@tesseract.js-data/eng/package.json')),
      '4.0.0_best_int',
    );
    ocr = await createWorker('eng', 1, { langPath, gzip: true, cacheMethod: 'none' });
  });

  afterAll(async () => {
    await ocr?.terminate();
    await host?.close();
    if (app) await stopChild(app);
    await xvfb?.close();
  });

  it('reports the display as its screen, and has no outline', async () => {
    const health = (await call(host.url, '/health', { ca })).json();
    expect(health).toMatchObject({
      backend: 'x11',
      width: 1280,
      height: 800,
      capabilities: ['idempotency', 'action-lookup', 'frame_precondition'],
    });
    expect((await call(host.url, '/elements', { ca })).status).toBe(404);
    const shot = await call(host.url, '/screenshot', { ca });
    expect(shot.headers['x-screen-width']).toBe('1280');
    expect(shot.headers['x-screen-height']).toBe('800');
    const png = decodePng(shot.body);
    expect([png.width, png.height]).toEqual([1280, 800]);
  });

  it('click lands on the button at the point sent', async () => {
    const at = centre(widgets.save);
    const fresh = await actAndSee({ action: 'click', ...at, target: 'Save' }, (l) =>
      l.some((x) => x.type === 'button'),
    );
    expect(fresh).toContainEqual({ type: 'press', button: 1, state: 0, ...at });
    expect(fresh.filter((x) => x.type === 'button')).toEqual([{ type: 'button', name: 'Save' }]);
  });

  it('double_click arrives as a double click', async () => {
    const at = centre(widgets.twice);
    const fresh = await actAndSee({ action: 'double_click', ...at }, (l) =>
      l.some((x) => x.type === 'double_click'),
    );
    expect(fresh.filter((x) => x.type === 'press')).toHaveLength(2);
    expect(fresh).toContainEqual({ type: 'double_click', ...at });
  });

  it('type: ASCII and "Müller €5 ß" arrive exactly, and the screenshot shows the text', async () => {
    const entry = widgets.entry;
    await actAndSee({ action: 'click', ...centre(entry) }, (l) =>
      l.some((x) => x.type === 'press'),
    );
    const before = (await call(host.url, '/screenshot', { ca })).body;

    const ascii = 'Hello Warden 4711';
    await actAndSee({ action: 'type', text: ascii }, (l) =>
      l.some((x) => x.type === 'entry' && x.value === ascii),
    );
    const after = (await call(host.url, '/screenshot', { ca })).body;
    expect(after.equals(before)).toBe(false);
    const { data } = await ocr.recognize(after, {
      rectangle: {
        left: entry.x + 2,
        top: entry.y + 2,
        width: entry.width - 4,
        height: entry.height - 4,
      },
    });
    expect(data.text).toContain(ascii);

    const special = 'Müller €5 ß';
    const fresh = await actAndSee({ action: 'type', text: special }, (l) =>
      l.some((x) => x.type === 'entry' && x.value === ascii + special),
    );
    const keysyms = fresh.filter((x) => x.type === 'key').map((x) => x.keysym);
    expect(keysyms).toEqual(expect.arrayContaining(['udiaeresis', 'ssharp']));
    // xdotool maps € to a spare keycode; Tk names it by its Unicode keysym.
    expect(keysyms.some((k) => k === 'EuroSign' || k === 'U20AC')).toBe(true);
    expect(
      log()
        .filter((x) => x.type === 'entry')
        .at(-1)!.value,
    ).toBe(ascii + special);
  });

  it('types characters the keyboard map lacks exactly, again and again', async () => {
    // xdotool alone remaps one spare keycode per character and restores it at once, which a busy
    // application reads too late (lost characters); the host maps them first and leaves them.
    const entry = widgets.entry;
    const texts = [
      'Grüße aus Köln',
      'Ωmega ą€ñ ß',
      'Müller €5 ß',
      'Ærøskøbing — naïve café',
      'Grüße aus Köln',
    ];
    for (const text of texts) {
      await act({ action: 'click', ...centre(entry) });
      await act({ action: 'key', key: 'Home' });
      await act({ action: 'key', key: 'Shift+End' });
      await actAndSee({ action: 'key', key: 'Delete' }, (l) =>
        l.some((x) => x.type === 'entry' && x.value === ''),
      );
      await actAndSee({ action: 'type', text }, (l) =>
        l.some((x) => x.type === 'entry' && x.value === text),
      );
    }
  });

  it.each([
    ['Enter', 'Return', 0],
    ['Tab', 'Tab', 0],
    ['F8', 'F8', 0],
    ['Ctrl+S', 's', 4],
    ['Shift+Tab', 'ISO_Left_Tab', 1],
  ])('key %s arrives as %s', async (key, keysym, mask) => {
    const fresh = await actAndSee({ action: 'key', key }, (l) =>
      l.some((x) => x.type === 'key' && x.keysym === keysym),
    );
    const got = fresh.find((x) => x.type === 'key' && x.keysym === keysym);
    expect(got.state & 0xd).toBe(mask);
  });

  it('scroll sends wheel clicks at the point, and the list moves', async () => {
    const at = centre(widgets.list);
    const down = await actAndSee(
      { action: 'scroll', ...at, direction: 'down', amount: 3 },
      (l) => l.filter((x) => x.type === 'list').length === 3,
    );
    expect(down.filter((x) => x.type === 'press')).toEqual(
      Array(3).fill({ type: 'press', button: 5, state: 0, ...at }),
    );
    expect(down.filter((x) => x.type === 'list').at(-1).top).toBe(3);

    const up = await actAndSee({ action: 'scroll', ...at, direction: 'up', amount: 1 }, (l) =>
      l.some((x) => x.type === 'list'),
    );
    expect(up.filter((x) => x.type === 'press')).toEqual([
      { type: 'press', button: 4, state: 0, ...at },
    ]);
    expect(up.find((x) => x.type === 'list').top).toBe(2);

    // Horizontal wheel (X buttons 6 and 7): Tk 8.6 reports them as buttons 4 and 5 with Shift.
    const right = await actAndSee(
      { action: 'scroll', ...at, direction: 'right', amount: 2 },
      (l) => l.filter((x) => x.type === 'press').length === 2,
    );
    expect(right.filter((x) => x.type === 'press').map((x) => [x.button, x.state & 1])).toEqual([
      [5, 1],
      [5, 1],
    ]);
    const left = await actAndSee({ action: 'scroll', ...at, direction: 'left', amount: 1 }, (l) =>
      l.some((x) => x.type === 'press'),
    );
    expect(left.filter((x) => x.type === 'press').map((x) => [x.button, x.state & 1])).toEqual([
      [4, 1],
    ]);
  });

  it('logs every action, but never the text typed (the host cannot tell a password field here)', async () => {
    const lines = await until(
      'ten lines in the action log',
      () => {
        const all = readJsonLines(actionLog);
        return all.length >= 10 ? all : null;
      },
      5000,
      25,
    );
    expect(
      lines.every((l) => l.backend === 'x11' && ['started', 'performed'].includes(l.outcome)),
    ).toBe(true);
    const typed = lines.filter((l) => l.action.action === 'type');
    expect(typed.length).toBeGreaterThan(0);
    for (const line of typed) {
      expect(line.action).toEqual({
        action: 'type',
        text: '[redacted]',
        characters: expect.any(Number),
        into: 'unknown',
      });
    }
    const raw = readFileSync(actionLog, 'utf8');
    expect(raw).not.toContain('Müller');
    expect(raw).not.toContain('Hello Warden');
    expect(
      lines.find((l) => l.action.action === 'click' && l.action.target === 'Save'),
    ).toBeDefined();
  });

  describe('frame precondition on the real desktop', () => {
    /** The entry's caret blinks by itself: left out of every comparison, as Warden would. */
    const caret = () => formatFrameIgnore([widgets.entry]);
    const frame = async () => {
      const shot = await call(host.url, '/screenshot', { ca });
      const decoded = decodePng(shot.body);
      expect(shot.headers['x-frame-sha256']).toBe(
        frameSha256(decoded.width, decoded.height, decoded.data),
      );
      return shot.headers['x-frame-sha256'] as string;
    };
    const actOn = (body: unknown, expect: string, ignore = caret(), key?: string) =>
      call(host.url, '/action', {
        ca,
        body,
        headers: {
          'x-expect-frame': expect,
          ...(ignore ? { 'x-frame-ignore': ignore } : {}),
          ...(key ? { 'idempotency-key': key } : {}),
        },
      });
    /** The pixels of a screenshot with the entry (its blinking caret) blanked out. */
    const outsideEntry = (png: Buffer) => {
      const decoded = decodePng(png);
      const { x, y, width, height } = widgets.entry;
      for (let row = y; row < y + height; row++) {
        decoded.data.fill(0, (row * decoded.width + x) * 4, (row * decoded.width + x + width) * 4);
      }
      return decoded.data;
    };
    /** The frame of a settled screen: two screenshots 200 ms apart agree outside the entry. */
    const settled = async () => {
      for (let i = 0; i < 50; i++) {
        const first = await call(host.url, '/screenshot', { ca });
        await new Promise((r) => setTimeout(r, 200));
        const second = await call(host.url, '/screenshot', { ca });
        if (outsideEntry(first.body).equals(outsideEntry(second.body))) {
          return second.headers['x-frame-sha256'] as string;
        }
      }
      throw new Error('the screen did not settle');
    };

    it('a dialog that opens after the screenshot gets no click; on its own frame it does', async () => {
      await actAndSee({ action: 'click', ...centre(widgets.later) }, (l) =>
        l.some((x) => x.type === 'button' && x.name === 'Ask later'),
      );
      const judged = await settled();
      const opened = await until(
        'the dialog to open',
        () => log().find((l) => l.type === 'dialog'),
        10000,
        25,
      );
      await new Promise((r) => setTimeout(r, 300)); // drawn
      const yes = centre(opened.widgets.yes);
      const before = log().length;
      const refused = await actOn({ action: 'click', ...yes }, judged, caret(), 'x11-frame-1');
      expect(refused.status).toBe(409);
      expect(refused.json().error).toBe('screen_changed');
      await new Promise((r) => setTimeout(r, 300));
      expect(log().slice(before)).toEqual([]); // no press, no "Yes"
      expect(readJsonLines(actionLog).filter((l) => l.idempotency_key === 'x11-frame-1')).toEqual([
        expect.objectContaining({ outcome: 'refused', error: 'screen_changed' }),
      ]);

      // Judged on the dialog, the same key acts, and the click lands on Yes.
      const now = await frame();
      const performed = await actOn({ action: 'click', ...yes }, now, caret(), 'x11-frame-1');
      expect(performed.json()).toEqual({ ok: true, ms: expect.any(Number) });
      expect(performed.status).toBe(200);
      await until(
        'Yes to be clicked',
        () => log().some((l) => l.type === 'button' && l.name === 'Yes'),
        5000,
        25,
      );
    });

    it('a change inside an ignored rectangle still acts; without it the action is refused', async () => {
      await actAndSee({ action: 'click', ...centre(widgets.entry) }, (l) =>
        l.some((x) => x.type === 'press'),
      );
      const judged = await settled();
      await actAndSee({ action: 'type', text: 'changed' }, (l) =>
        l.some((x) => x.type === 'entry' && String(x.value).endsWith('changed')),
      );
      const click = { action: 'click', ...centre(widgets.save) };
      const before = log().filter((x) => x.type === 'button' && x.name === 'Save').length;
      const refused = await actOn(click, judged, '');
      expect(refused.status).toBe(409);
      expect(refused.json().error).toBe('screen_changed');
      const ignored = await actOn(click, judged);
      expect(ignored.status).toBe(200);
      await until(
        'Save to be clicked once',
        () => log().filter((x) => x.type === 'button' && x.name === 'Save').length === before + 1,
        5000,
        25,
      );
    });

    it('an unknown frame is 409 frame_unknown and nothing lands', async () => {
      const before = log().length;
      const reply = await actOn({ action: 'click', ...centre(widgets.save) }, 'ef'.repeat(32));
      expect(reply.status).toBe(409);
      expect(reply.json().error).toBe('frame_unknown');
      await new Promise((r) => setTimeout(r, 300));
      expect(log().slice(before)).toEqual([]);
    });
  });

  it('performs an Idempotency-Key once on the real desktop', async () => {
    const at = centre(widgets.save);
    const before = log().filter((x) => x.type === 'button').length;
    const replies = await Promise.all(
      [1, 2, 3].map(() =>
        call(host.url, '/action', {
          ca,
          body: { action: 'click', ...at },
          headers: { 'idempotency-key': 'x11-step-1' },
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    await new Promise((r) => setTimeout(r, 300));
    expect(log().filter((x) => x.type === 'button').length).toBe(before + 1);
  });
});
