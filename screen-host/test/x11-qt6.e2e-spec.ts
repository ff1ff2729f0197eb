/**
 * A Qt 6 application (qt6ct 0.7, Debian's Qt 6.4) under the x11 host on a throwaway Xvfb display:
 * it publishes its tree when its session bus is the accessibility bus the host starts (the host
 * answers `org.a11y.Bus` there, as at-spi2-core's bus launcher does on a desktop), its window is
 * served although Qt marks none active, and it is alive and answering after every full outline
 * read. Qt 5's e2e suite (FeatherPad through the real stack) is test/real-apps/featherpad.e2e-spec.ts.
 */
import { until } from '../../test/support/until';
import { startQtApp, type QtApp } from '../../test/support/featherpad';
import { call, CliHost, startCliHost, tempCertificate, tempDir, TOKEN } from './helpers';
import { startXvfb, type Xvfb } from '../../test/support/xvfb';

jest.setTimeout(120_000);

interface Element {
  role: string;
  name: string;
  description?: string;
}

describe('x11 outline from AT-SPI, a Qt 6 application under Xvfb', () => {
  let xvfb: Xvfb;
  let host: CliHost;
  let ca: Buffer;
  let app: QtApp;

  const outline = async (): Promise<Element[] | null> => {
    const reply = await call(host.url, '/elements', { ca });
    return reply.status === 200 ? (reply.json() as Element[]) : null;
  };

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
    app = await startQtApp(xvfb.display, tempDir(), 'qt6ct', 'Qt6 Configuration Tool');
  });

  afterAll(async () => {
    await app?.close();
    await host?.close();
    await xvfb?.close();
  });

  it('serves its window, which no state marks active, and says so; alive after every read', async () => {
    const first = await until(
      'the outline of qt6ct',
      async () => {
        const got = await outline();
        return got?.some((e) => e.role === 'button' && e.name === 'Apply') ? got : null;
      },
      60_000,
      100,
    );
    expect(first[0]).toMatchObject({
      role: 'title',
      name: 'Qt6 Configuration Tool',
      description: 'no window is active: the window of the one application showing one',
    });
    const names = (role: string) => first.filter((e) => e.role === role).map((e) => e.name);
    expect(names('button')).toEqual(expect.arrayContaining(['OK', 'Cancel', 'Apply']));
    expect(names('tab')).toEqual(expect.arrayContaining(['Appearance', 'Fonts', 'Interface']));
    for (let i = 0; i < 10; i++) {
      const again = await outline();
      expect(app.alive()).toBe(true);
      expect(again?.length).toBe(first.length);
    }
  });
});
