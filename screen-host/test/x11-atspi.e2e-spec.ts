/**
 * The x11 host's outline from AT-SPI against a real application (GnuCash, GTK 3) on a throwaway
 * Xvfb display: the accessibility bus the host starts and announces on the root window, the
 * outline of GnuCash's main window, and of its popups (an open menu, a tooltip, a combo box's
 * list): what a popup covers of the window is not served; an application that stops answering
 * (503 within the deadline, and the outline back once it answers), and what the host takes away
 * when it closes.
 */
import { execFileSync } from 'node:child_process';
import { startGnuCash, type GnuCash } from '../../test/support/gnucash';
import { until } from '../../test/support/until';
import { call, CliHost, startCliHost, tempCertificate, tempDir, TOKEN } from './helpers';
import { startXvfb, type Xvfb } from '../../test/support/xvfb';

jest.setTimeout(120_000);

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Element {
  role: string;
  name: string;
  rect: Rect;
}

const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: Rect, outer: Rect) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;
const centre = (r: Rect) => [Math.floor(r.x + r.width / 2), Math.floor(r.y + r.height / 2)];

/**
 * The elements served over a popup: each that overlaps a `popup` element lies in one (the popup's
 * own), so a click on the popup is never judged on the window under it.
 */
function overPopups(outline: Element[]): Element[] {
  const popups = outline.filter((e) => e.role === 'popup');
  const rest = outline.filter((e) => e.role !== 'popup' && e.rect.height > 0);
  return rest.filter((e) => popups.some((p) => overlap(e.rect, p.rect)));
}

describe('x11 outline from AT-SPI, GnuCash under Xvfb', () => {
  let xvfb: Xvfb;
  let host: CliHost;
  let ca: Buffer;
  let gnucash: GnuCash;

  const rootProperty = () =>
    execFileSync('xprop', ['-root', 'AT_SPI_BUS'], {
      env: { ...process.env, DISPLAY: xvfb.display },
    }).toString();
  const elements = () => call(host.url, '/elements', { ca });
  const xdotool = (...args: string[]) =>
    execFileSync('xdotool', args, { env: { ...process.env, DISPLAY: xvfb.display } });

  beforeAll(async () => {
    xvfb = await startXvfb(1280, 800);
    const cert = await tempCertificate();
    ca = cert.cert;
    host = await startCliHost(
      [
        ...['--backend', 'x11', '--display', xvfb.display, '--port', '0', '--quiet'],
        ...['--cert', cert.certPath, '--key', cert.keyPath, '--no-action-log'],
      ],
      { SCREEN_HOST_TOKEN: TOKEN },
    );
    // Started after the host: GnuCash finds the bus in the root window's AT_SPI_BUS.
    gnucash = await startGnuCash(xvfb.display, tempDir());
  });

  afterAll(async () => {
    if (gnucash) {
      gnucash.process.kill('SIGCONT');
      await gnucash.close();
    }
    await host?.close();
    await xvfb?.close();
  });

  it('announces the bus it started, and says so in GET /health', async () => {
    expect(rootProperty()).toMatch(/^AT_SPI_BUS\(STRING\) = "unix:path=[^"]+"/);
    const health = await until(
      'application on the bus',
      async () => {
        const h = (await call(host.url, '/health', { ca })).json();
        return h.capabilities.includes('elements') ? h : null;
      },
      60_000,
      200,
    );
    expect(health).toMatchObject({
      backend: 'x11',
      accessibility: { bus: 'started', applications: 1 },
    });
  });

  it("serves GnuCash's main window: its title, the toolbar's buttons with their descriptions, the tabs", async () => {
    const outline = await until(
      'outline with the accounts tab',
      async () => {
        const reply = await elements();
        const list = reply.status === 200 ? (reply.json() as any[]) : null;
        return list?.some((e) => e.role === 'tab' && e.name === 'Accounts') ? list : null;
      },
      60_000,
      200,
    );
    expect(outline[0]).toMatchObject({
      role: 'title',
      name: 'book.gnucash - Accounts - GnuCash',
      rect: { x: 0, y: 0, width: 800, height: 0 },
    });
    const byName = (name: string) => outline.find((e) => e.name === name);
    expect(byName('Save')).toMatchObject({
      role: 'button',
      description: 'Save the current file',
      area: 'toolbar',
    });
    expect(byName('Delete')).toMatchObject({
      role: 'button',
      description: 'Delete selected account',
      area: 'toolbar',
    });
    expect(byName('File')).toMatchObject({ role: 'menu', area: 'menu' });
    expect(byName('Checking')).toMatchObject({ role: 'cell' });
    // Every element on the screen, in screen coordinates; a menu's closed items are not there.
    for (const e of outline.slice(1)) {
      expect(e.rect.x).toBeGreaterThanOrEqual(0);
      expect(e.rect.y).toBeGreaterThanOrEqual(0);
      expect(e.rect.x + e.rect.width).toBeLessThanOrEqual(1280);
      expect(e.rect.width).toBeGreaterThan(0);
    }
    expect(outline.some((e) => e.role === 'menuitem')).toBe(false);
    // GTK wraps amounts in bidirectional isolates: served without them.
    expect(JSON.stringify(outline)).not.toMatch(/[\u2066-\u2069]/);
  });

  it("an open menu: its items are served, over the window's elements they cover, which are not", async () => {
    const before = (await elements()).json() as Element[];
    const file = before.find((e) => e.role === 'menu' && e.name === 'File')!;
    const toolbarSave = before.find((e) => e.role === 'button' && e.name === 'Save')!;
    xdotool('mousemove', ...centre(file.rect).map(String), 'click', '1');
    const open = await until(
      'the File menu open',
      async () => {
        const list = (await elements()).json() as Element[];
        return list.some((e) => e.role === 'menuitem' && e.name === 'Save As...') ? list : null;
      },
      60_000,
      200,
    );
    try {
      // GTK draws the menu in an override-redirect window of its own; AT-SPI keeps its items in
      // the main window's tree. The window is served as a popup, under its items.
      const popups = open.filter((e) => e.role === 'popup');
      expect(popups).toHaveLength(1);
      const menu = popups[0].rect;
      expect(menu).toMatchObject({ x: file.rect.x, y: file.rect.y + file.rect.height });
      const items = open.filter((e) => e.role === 'menuitem');
      expect(items.map((e) => e.name)).toEqual(
        expect.arrayContaining(['New File', 'Open...', 'Save', 'Save As...', 'Quit']),
      );
      for (const item of items) expect(inside(item.rect, menu)).toBe(true);
      // The toolbar's Save lies under the menu: not served. Nothing of the window is served
      // where the menu is; only the menu's own items (and its submenus Import and Export).
      expect(overlap(toolbarSave.rect, menu)).toBe(true);
      expect(open.some((e) => e.role === 'button' && e.name === 'Save')).toBe(false);
      expect(
        overPopups(open).filter(
          (e) => !(['menuitem', 'menu'].includes(e.role) && inside(e.rect, menu)),
        ),
      ).toEqual([]);
      // What shows of the toolbar beside the menu is still served, where it shows.
      const toolbar = open.find((e) => e.role === 'toolbar')!;
      expect(toolbar.rect.x).toBe(menu.x + menu.width);
      expect(open.find((e) => e.name === 'Delete')).toMatchObject({ role: 'button' });
    } finally {
      xdotool('key', 'Escape');
    }
    await until(
      'the File menu closed',
      async () => {
        const list = (await elements()).json() as Element[];
        return list.some((e) => e.role === 'button' && e.name === 'Save') &&
          !list.some((e) => e.role === 'popup' || e.role === 'menuitem')
          ? true
          : null;
      },
      60_000,
      200,
    );
  });

  it('a tooltip, a window AT-SPI does not describe: served as a popup, and what it covers is not', async () => {
    const outline = (await elements()).json() as Element[];
    const open = outline.find((e) => e.role === 'button' && e.name === 'Open')!;
    const [x, y] = centre(open.rect);
    // A pointer that moves over the button, and rests there.
    xdotool('mousemove', String(x - 5), String(y - 5));
    xdotool('mousemove', String(x), String(y));
    const shown = await until(
      'a tooltip over the window',
      async () => {
        const list = (await elements()).json() as Element[];
        return list.some((e) => e.role === 'popup') ? list : null;
      },
      60_000,
      200,
    );
    const tooltip = shown.filter((e) => e.role === 'popup');
    expect(tooltip).toHaveLength(1);
    expect(overlap(tooltip[0].rect, { x: 0, y: 0, width: 800, height: 600 })).toBe(true);
    expect(overPopups(shown)).toEqual([]);
    // Away, to an empty part of the window: without a window manager the keyboard focus follows
    // the pointer, and outside the window GnuCash's window would not be active.
    xdotool('mousemove', '600', '450');
    await until(
      'the tooltip gone',
      async () =>
        ((await elements()).json() as Element[]).some((e) => e.role === 'popup') ? null : true,
      60_000,
      200,
    );
  });

  it("a combo box's list, a window of its own that is active while it shows, is the screen", async () => {
    const outline = (await elements()).json() as Element[];
    const combo = outline.find((e) => e.role === 'combobox')!;
    xdotool('mousemove', ...centre(combo.rect).map(String), 'click', '1');
    const open = await until(
      'the list open',
      async () => {
        const list = (await elements()).json() as Element[];
        return list.some((e) => e.role === 'menuitem') ? list : null;
      },
      60_000,
      200,
    );
    try {
      // Its title (the window has none), its options; the menu that holds them is no element.
      expect(open[0]).toMatchObject({ role: 'title', name: '' });
      expect(open.slice(1).map((e) => e.role)).toEqual(open.slice(1).map(() => 'menuitem'));
      expect(open.map((e) => e.name)).toEqual(expect.arrayContaining(['$, Grand Total:', '€:']));
    } finally {
      xdotool('key', 'Escape');
    }
    await until(
      'the list closed',
      async () =>
        ((await elements()).json() as Element[]).some((e) => e.role === 'tab') ? true : null,
      60_000,
      200,
    );
  });

  it('an application that stops answering: 503 within the deadline, GET /health still quick, then the outline again', async () => {
    gnucash.process.kill('SIGSTOP');
    try {
      const started = Date.now();
      const reply = await elements();
      const took = Date.now() - started;
      expect(reply.status).toBe(503);
      expect(reply.json().message).toMatch(/^the accessibility bus did not give an outline: /);
      expect(took).toBeLessThan(3000);
      const healthStarted = Date.now();
      expect((await call(host.url, '/health', { ca })).status).toBe(200);
      expect(Date.now() - healthStarted).toBeLessThan(1500);
    } finally {
      gnucash.process.kill('SIGCONT');
    }
    await until(
      'outline after GnuCash answers again',
      async () => ((await elements()).status === 200 ? true : null),
      60_000,
      200,
    );
  });

  it('takes its bus away when it closes', async () => {
    await host.close();
    expect(rootProperty()).toMatch(/AT_SPI_BUS: {2}not found/);
  });
});

describe('x11 outline: a display whose AT_SPI_BUS names a bus that is gone', () => {
  it('gets a bus of the host its own, announced in place of the stale one', async () => {
    const xvfb = await startXvfb(640, 480);
    const env = { ...process.env, DISPLAY: xvfb.display };
    let host: CliHost | null = null;
    try {
      const stale = 'unix:path=/tmp/screen-host-atspi-gone/bus,guid=00';
      execFileSync('xprop', ['-root', '-f', 'AT_SPI_BUS', '8s', '-set', 'AT_SPI_BUS', stale], {
        env,
      });
      const cert = await tempCertificate();
      host = await startCliHost(
        [
          ...['--backend', 'x11', '--display', xvfb.display, '--port', '0', '--quiet'],
          ...['--cert', cert.certPath, '--key', cert.keyPath, '--no-action-log'],
        ],
        { SCREEN_HOST_TOKEN: TOKEN },
      );
      const health = (await call(host.url, '/health', { ca: cert.cert })).json();
      expect(health.accessibility).toEqual({ bus: 'started', applications: 0 });
      const announced = execFileSync('xprop', ['-root', 'AT_SPI_BUS'], { env }).toString();
      expect(announced).not.toContain(stale);
      expect(announced).toMatch(/unix:path=\/tmp\/screen-host-atspi-/);
      // No application on the bus: no outline, as for an application that publishes nothing.
      expect((await call(host.url, '/elements', { ca: cert.cert })).status).toBe(404);
    } finally {
      await host?.close();
      await xvfb.close();
    }
  });
});
