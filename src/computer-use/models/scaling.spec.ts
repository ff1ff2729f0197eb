import fc from 'fast-check';
import { PNG } from 'pngjs';
import { checkAction, loadRules } from '../actions';
import { decodePng } from '../pixels/png-decoder';
import { encodeScreenPng } from '@warden/protocol';
import { downscale, downscalePng, spans } from './downscale';
import { axisToScreen, insideModel, scaleFor, toModel, toScreen } from './scaling';

const SCREENS = [
  { width: 1280, height: 800, model: { width: 1280, height: 800 } },
  { width: 1920, height: 1080, model: { width: 1366, height: 768 } },
  { width: 2560, height: 1440, model: { width: 1366, height: 768 } },
  { width: 3840, height: 2160, model: { width: 1366, height: 768 } },
];

function corners(w: number, h: number) {
  return [
    { x: 0, y: 0 },
    { x: w - 1, y: 0 },
    { x: 0, y: h - 1 },
    { x: w - 1, y: h - 1 },
  ];
}

function grid(w: number, h: number, n = 7) {
  const points = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      points.push({
        x: Math.round((i * (w - 1)) / (n - 1)),
        y: Math.round((j * (h - 1)) / (n - 1)),
      });
    }
  }
  return points;
}

describe('scaleFor', () => {
  it.each(SCREENS)(
    '$width x $height is shown to the model as $model.width x $model.height',
    (s) => {
      expect(scaleFor(s).model).toEqual(s.model);
    },
  );

  it('picks the target by aspect ratio and never upscales', () => {
    expect(scaleFor({ width: 2048, height: 1536 }).model).toEqual({ width: 1024, height: 768 });
    expect(scaleFor({ width: 2560, height: 1600 }).model).toEqual({ width: 1280, height: 800 });
    expect(scaleFor({ width: 1024, height: 768 }).model).toEqual({ width: 1024, height: 768 });
    expect(scaleFor({ width: 800, height: 600 }).model).toEqual({ width: 800, height: 600 });
    // An ultra-wide screen keeps its own ratio inside the nearest target.
    expect(scaleFor({ width: 3440, height: 1440 }).model).toEqual({ width: 1366, height: 572 });
    // A portrait screen too.
    expect(scaleFor({ width: 1080, height: 1920 }).model).toEqual({ width: 432, height: 768 });
  });
});

describe('the scaling round trip', () => {
  describe.each(SCREENS)('$width x $height', (s) => {
    const scale = scaleFor(s);
    const { model } = scale;
    const stepX = (s.width - 1) / (model.width - 1);
    const stepY = (s.height - 1) / (model.height - 1);

    it('maps the model’s corners onto the screen’s corners', () => {
      const m = corners(model.width, model.height);
      expect(m.map((p) => toScreen(scale, p.x, p.y))).toEqual(corners(s.width, s.height));
      for (const p of corners(s.width, s.height)) {
        expect(toScreen(scale, ...xy(toModel(scale, p.x, p.y)))).toEqual(p);
      }
    });

    it('brings every grid point back to within half a model pixel of itself', () => {
      for (const p of grid(s.width, s.height, 9)) {
        const m = toModel(scale, p.x, p.y);
        expect(insideModel(scale, m.x, m.y)).toBe(true);
        const back = toScreen(scale, m.x, m.y);
        expect(Math.abs(back.x - p.x)).toBeLessThanOrEqual(stepX / 2 + 0.5);
        expect(Math.abs(back.y - p.y)).toBeLessThanOrEqual(stepY / 2 + 0.5);
      }
    });

    it('sends every model pixel to a screen pixel that model pixel was drawn from', () => {
      for (const [side, screenSide] of [
        [model.width, s.width],
        [model.height, s.height],
      ]) {
        const drawnFrom = spans(side, screenSide);
        for (let m = 0; m < side; m++) {
          const p = axisToScreen(m, side, screenSide);
          expect(p).toBeGreaterThanOrEqual(drawnFrom[m][0]);
          expect(p).toBeLessThanOrEqual(drawnFrom[m][1]);
        }
      }
    });

    it('lands a click on a marker the model found in the downscaled screenshot', () => {
      // Red squares on black at the corners and a grid; each as wide as a model pixel's footprint.
      const k = Math.ceil(Math.max(stepX, stepY)) + 1;
      const targets = [...corners(s.width, s.height), ...grid(s.width, s.height, 3)];
      const image = {
        width: s.width,
        height: s.height,
        rgba: Buffer.alloc(s.width * s.height * 4),
      };
      // Opaque black (little-endian RGBA words), filled natively.
      new Uint32Array(image.rgba.buffer, image.rgba.byteOffset, s.width * s.height).fill(
        0xff000000,
      );
      const rects = targets.map((p) => {
        const x0 = Math.min(Math.max(0, p.x - Math.floor(k / 2)), s.width - k);
        const y0 = Math.min(Math.max(0, p.y - Math.floor(k / 2)), s.height - k);
        for (let y = y0; y < y0 + k; y++) {
          for (let x = x0; x < x0 + k; x++) image.rgba[(y * s.width + x) * 4] = 255;
        }
        return { x0, y0, x1: x0 + k - 1, y1: y0 + k - 1 };
      });
      const seen = downscale(image, model);
      expect({ width: seen.width, height: seen.height }).toEqual(model);
      targets.forEach((p, i) => {
        // The model looks near where the marker should be and clicks its reddest pixel.
        const guess = toModel(scale, p.x, p.y);
        let best = { x: -1, y: -1, red: -1 };
        for (let y = Math.max(0, guess.y - 3); y <= Math.min(model.height - 1, guess.y + 3); y++) {
          for (let x = Math.max(0, guess.x - 3); x <= Math.min(model.width - 1, guess.x + 3); x++) {
            const red = seen.rgba[(y * model.width + x) * 4];
            if (red > best.red) best = { x, y, red };
          }
        }
        const click = toScreen(scale, best.x, best.y);
        const r = rects[i];
        expect(click.x).toBeGreaterThanOrEqual(r.x0);
        expect(click.x).toBeLessThanOrEqual(r.x1);
        expect(click.y).toBeGreaterThanOrEqual(r.y0);
        expect(click.y).toBeLessThanOrEqual(r.y1);
      });
    });

    it('refuses a model answer outside the scaled screenshot, never clamping it', () => {
      const rules = loadRules();
      const outside = [
        { x: -1, y: 0 },
        { x: 0, y: -1 },
        { x: model.width, y: 0 },
        { x: 0, y: model.height },
        { x: model.width, y: model.height },
        { x: model.width + 500, y: 10 },
      ];
      for (const m of outside) {
        expect(insideModel(scale, m.x, m.y)).toBe(false);
        const p = toScreen(scale, m.x, m.y);
        const verdict = checkAction({ action: 'click', x: p.x, y: p.y }, screenOf(s), rules);
        expect(verdict.classification).toBe('invalid');
        expect(verdict.why).toMatch(/outside the screenshot/);
      }
    });

    it('keeps every point inside the model image inside the screen (property)', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: -5000, max: 5000 }),
          fc.integer({ min: -5000, max: 5000 }),
          (x, y) => {
            const p = toScreen(scale, x, y);
            const onScreen = p.x >= 0 && p.y >= 0 && p.x < s.width && p.y < s.height;
            return onScreen === insideModel(scale, x, y);
          },
        ),
      );
    });
  });
});

describe('downscalePng', () => {
  it('answers a PNG of the model size whose pixels are the resampled screen', async () => {
    const width = 300;
    const height = 200;
    const rgba = Buffer.alloc(width * height * 4);
    for (let i = 0; i < rgba.length; i += 4) {
      rgba[i] = (i / 4) % 251;
      rgba[i + 1] = (i / 16) % 241;
      rgba[i + 2] = 90;
      rgba[i + 3] = 255;
    }
    const source = new PNG({ width, height });
    rgba.copy(source.data);
    const png = await downscalePng(PNG.sync.write(source), { width: 120, height: 80 });
    const read = PNG.sync.read(png);
    const expected = downscale({ width, height, rgba }, { width: 120, height: 80 });
    expect([read.width, read.height]).toEqual([120, 80]);
    expect(Buffer.from(read.data).equals(expected.rgba)).toBe(true);
    expect(decodePng(png).rgba.equals(expected.rgba)).toBe(true);
  });

  it('returns a PNG already of the model size as it is', async () => {
    const source = new PNG({ width: 16, height: 8 });
    const png = PNG.sync.write(source);
    await expect(downscalePng(png, { width: 16, height: 8 })).resolves.toBe(png);
    const decoded = decodePng(png);
    expect(encodeScreenPng(decoded.rgba, decoded.width, decoded.height).subarray(0, 8)).toEqual(
      png.subarray(0, 8),
    );
  });
});

function xy(p: { x: number; y: number }): [number, number] {
  return [p.x, p.y];
}

function screenOf(s: { width: number; height: number }) {
  return { width: s.width, height: s.height, outline: null, focus: null };
}
