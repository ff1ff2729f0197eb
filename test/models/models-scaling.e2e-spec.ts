import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import { startScreenHost } from '../../screen-host/src';
import type { OutlineElement, RunningScreenHost, ScreenBackend } from '../../screen-host/src';
import { encodeScreenPng } from '@warden/protocol';
import {
  anthropicComputer,
  anthropicTool,
  type FakeProvider,
  imagesOf,
  reddest,
  startFakeProvider,
  textOf,
} from '../support/fake-provider';
import { isEnded, startStack, Stack } from '../support/stack';

/**
 * Screen scaling end to end (docs/models.md): a screen host of each size shows a red marker; the fake
 * model finds it in the downscaled screenshot it was sent and clicks it in its own coordinates;
 * the click must land on the marker on the real screen. Then a click outside the scaled image is
 * refused as invalid, never clamped.
 */

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A black screen with one red square, which moves to the next target after every click. */
class MarkerScreen implements ScreenBackend {
  readonly name = 'marker';
  readonly clicks: Array<{ x: number; y: number }> = [];
  readonly rects: Rect[];
  private shown = 0;
  private png: Buffer | null = null;

  constructor(
    readonly width: number,
    readonly height: number,
    targets: Array<{ x: number; y: number }>,
    side: number,
  ) {
    this.rects = targets.map((p) => {
      const x0 = Math.min(Math.max(0, p.x - Math.floor(side / 2)), width - side);
      const y0 = Math.min(Math.max(0, p.y - Math.floor(side / 2)), height - side);
      return { x0, y0, x1: x0 + side - 1, y1: y0 + side - 1 };
    });
  }

  size() {
    return { width: this.width, height: this.height };
  }

  async screenshot() {
    if (!this.png) {
      const rgba = new Uint8Array(this.width * this.height * 4);
      new Uint32Array(rgba.buffer).fill(0xff000000);
      const r = this.rects[Math.min(this.shown, this.rects.length - 1)];
      for (let y = r.y0; y <= r.y1; y++) {
        for (let x = r.x0; x <= r.x1; x++) rgba[(y * this.width + x) * 4] = 255;
      }
      this.png = encodeScreenPng(rgba, this.width, this.height);
    }
    return { png: this.png, width: this.width, height: this.height };
  }

  async perform(action: { action: string; x?: number; y?: number }) {
    if (action.action === 'click') this.clicks.push({ x: action.x!, y: action.y! });
    this.shown++;
    this.png = null;
  }

  elements(): OutlineElement[] {
    return [
      {
        id: 'canvas',
        role: 'pane',
        name: 'Canvas',
        rect: { x: 0, y: 0, width: this.width, height: this.height },
      },
    ];
  }

  typingTarget() {
    return 'unknown' as const;
  }

  async close() {}
}

const SIZES = [
  { width: 1280, height: 800, model: { width: 1280, height: 800 } },
  { width: 1920, height: 1080, model: { width: 1366, height: 768 } },
  { width: 2560, height: 1440, model: { width: 1366, height: 768 } },
  { width: 3840, height: 2160, model: { width: 1366, height: 768 } },
];

describe('screen scaling, end to end', () => {
  let stack: Stack;
  let fake: FakeProvider;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;

  beforeAll(async () => {
    process.env[keyEnv] = `sk-ant-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
    await stack.grant(keyEnv, fake.url);
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  it.each(SIZES)(
    'a $width x $height screen: the model sees $model.width x $model.height and its clicks land on the marker',
    async ({ width, height, model }) => {
      const targets = [
        { x: 0, y: 0 },
        { x: width - 1, y: 0 },
        { x: 0, y: height - 1 },
        { x: width - 1, y: height - 1 },
        { x: Math.round(width * 0.37), y: Math.round(height * 0.61) },
      ];
      const step = Math.max((width - 1) / (model.width - 1), (height - 1) / (model.height - 1));
      const screen = new MarkerScreen(width, height, targets, Math.ceil(step) + 1);
      let host: RunningScreenHost | undefined;
      try {
        host = await startScreenHost({
          backend: screen,
          token: process.env[stack.sim.tokenEnv]!,
          port: 0,
          tls: { cert: stack.sim.cert, key: stack.sim.keyPem },
        });
        await stack.grant(stack.sim.tokenEnv, host.url);
        await stack.configure({
          screen_url: host.url,
          // A blank canvas has no label to read, so its clicks are writes (docs/rules.md, labels fail
          // closed); this test is about where they land, so they act without a person.
          require_write_approval: false,
          reason: 'the scaling test clicks markers on a blank canvas',
          planner: {
            provider: 'anthropic',
            model: 'claude-sonnet-4-5',
            api_key_env: keyEnv,
            base_url: fake.url,
            history_screens: 0,
          },
        });
        const seen: Array<{ width: number; height: number }> = [];
        const sawCorner: Array<{ dx: number; dy: number }> = [];
        // The model finds the marker where it saw it; at a corner it aims at its own image's corner.
        const clickMarker = (i: number) => (request: any) => {
          const found = reddest(imagesOf(request).at(-1)!);
          seen.push({ width: found.width, height: found.height });
          const t = targets[i];
          const corner = {
            x: t.x === 0 ? 0 : t.x === width - 1 ? found.width - 1 : null,
            y: t.y === 0 ? 0 : t.y === height - 1 ? found.height - 1 : null,
          };
          if (corner.x !== null && corner.y !== null) {
            sawCorner.push({ dx: Math.abs(found.x - corner.x), dy: Math.abs(found.y - corner.y) });
            return anthropicComputer({ action: 'left_click', coordinate: [corner.x, corner.y] });
          }
          return anthropicComputer({ action: 'left_click', coordinate: [found.x, found.y] });
        };
        fake.script([
          ...targets.map((_, i) => clickMarker(i)),
          anthropicComputer({ action: 'left_click', coordinate: [model.width + 10, 5] }),
          anthropicTool('done', { summary: 'clicked every marker' }),
        ]);
        // Generous: a 4K step takes 10 to 27 s on two busy cores (CI, 2026-12-03); what a step
        // costs is measured in the benchmarks, not here.
        const run = await stack.waitFor(
          (await stack.start('click the red squares')).id,
          isEnded,
          360_000,
        );
        expect({
          run: run.id,
          end: run.end_reason,
          steps: run.steps.map((s: any) => [s.action, s.why]),
        }).toMatchObject({
          end: 'done',
        });

        // The model saw the scaled screen, and the tool said so.
        expect(seen).toEqual(targets.map(() => model));
        for (const r of fake.requests) {
          expect(r.body.tools[0]).toMatchObject({
            display_width_px: model.width,
            display_height_px: model.height,
          });
          const image = PNG.sync.read(imagesOf(r).at(-1)!);
          expect([image.width, image.height]).toEqual([model.width, model.height]);
        }
        // One call per step: nothing was planned twice.
        expect(fake.requests).toHaveLength(targets.length + 2);
        // Each click landed on its marker on the real screen.
        expect(screen.clicks).toHaveLength(targets.length);
        screen.clicks.forEach((c, i) => {
          const r = screen.rects[i];
          expect({
            i,
            inside: c.x >= r.x0 && c.x <= r.x1 && c.y >= r.y0 && c.y <= r.y1,
            c,
            r,
          }).toMatchObject({
            inside: true,
          });
        });
        // The model sees each corner's marker in its own image's corner (within a pixel) …
        expect(sawCorner).toHaveLength(4);
        for (const d of sawCorner) expect(Math.max(d.dx, d.dy)).toBeLessThanOrEqual(1);
        // … and its corners are the screen's corners, exactly.
        expect(screen.clicks.slice(0, 4)).toEqual(targets.slice(0, 4));

        // Outside the scaled screenshot: refused as invalid, nothing clicked, the model told why.
        const outside = run.steps[targets.length];
        expect(outside).toMatchObject({ classification: 'invalid', outcome: 'refused' });
        expect(outside.why).toMatch(/outside the screenshot/);
        expect(outside.action.x).toBeGreaterThanOrEqual(width);
        expect(textOf(fake.requests.at(-1)!)).toContain(
          `the point (${model.width + 10}, 5) is outside the screenshot (${model.width}x${model.height})`,
        );
      } finally {
        await host?.close();
      }
    },
    420_000,
  );
});
