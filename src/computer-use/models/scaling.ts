/**
 * The screen as the model sees it (docs/models.md): screenshots larger than a model should see are
 * downscaled to the best of 1024x768, 1280x800 and 1366x768 by aspect ratio, and the model's
 * coordinates are mapped back to the screen host's coordinate space (`X-Screen-Width/Height`).
 *
 * The map is linear and corner-aligned on pixel indices: model pixel 0 is screen pixel 0 and the
 * model's last pixel is the screen's last, on each axis. The downscaler (downscale.ts) samples the
 * same map, so the model pixel at `m` shows the screen around `toScreen(m)`. Pure integer maths,
 * exact: no clamping anywhere. A point outside the model's image maps outside the screen, where the
 * engine refuses it as an invalid action.
 */

export interface Size {
  width: number;
  height: number;
}

/** What peers downscale to (Anthropic's reference loop: XGA, WXGA, FWXGA). */
export const MODEL_SIZES: readonly Size[] = Object.freeze([
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
]);

/** A screen whose aspect ratio is this close (relative) to a target's is scaled to exactly that size. */
const RATIO_TOLERANCE = 0.02;

export interface ScreenScale {
  /** The screen host's coordinate space: where actions land. */
  screen: Size;
  /** The image the model sees and the coordinate space it answers in. */
  model: Size;
}

/**
 * The model's size for a screen: the target whose aspect ratio is nearest; exactly that target when
 * the ratio is within 2%, otherwise the largest size of the screen's own ratio that fits inside it.
 * A screen no larger than the target is not scaled at all (never upscaled).
 */
export function scaleFor(screen: Size): ScreenScale {
  const { width, height } = screen;
  if (!isSide(width) || !isSide(height)) {
    throw new RangeError(`a screen must be at least 1x1 whole pixels, not ${width}x${height}`);
  }
  const ratio = width / height;
  let best = MODEL_SIZES[0];
  for (const size of MODEL_SIZES) {
    if (Math.abs(ratio - size.width / size.height) < Math.abs(ratio - best.width / best.height)) {
      best = size;
    }
  }
  if (width <= best.width && height <= best.height) return { screen, model: { width, height } };
  const target = best.width / best.height;
  if (
    width >= best.width &&
    height >= best.height &&
    Math.abs(ratio - target) / target <= RATIO_TOLERANCE
  ) {
    return { screen, model: { width: best.width, height: best.height } };
  }
  // Never upscaled on either side: every model pixel stands for at least one screen pixel.
  const factor = Math.min(best.width / width, best.height / height, 1);
  return {
    screen,
    model: {
      width: Math.max(1, Math.round(width * factor)),
      height: Math.max(1, Math.round(height * factor)),
    },
  };
}

export function isScaled(scale: ScreenScale): boolean {
  return scale.model.width !== scale.screen.width || scale.model.height !== scale.screen.height;
}

/** round(a / b) for integers, halves away from minus infinity (b > 0), exact. */
function roundDiv(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/** One axis: a model pixel index to the screen pixel index it denotes. */
export function axisToScreen(m: number, modelSide: number, screenSide: number): number {
  if (modelSide === screenSide) return m;
  if (modelSide === 1) return m === 0 ? Math.floor((screenSide - 1) / 2) : m * screenSide;
  return roundDiv(m * (screenSide - 1), modelSide - 1);
}

/** One axis: a screen pixel index to the model pixel nearest to it. */
export function axisToModel(p: number, modelSide: number, screenSide: number): number {
  if (modelSide === screenSide) return p;
  if (screenSide === 1) return 0;
  return roundDiv(p * (modelSide - 1), screenSide - 1);
}

/** A model point (integers) to the screen host's coordinate space. */
export function toScreen(scale: ScreenScale, x: number, y: number): { x: number; y: number } {
  return {
    x: axisToScreen(x, scale.model.width, scale.screen.width),
    y: axisToScreen(y, scale.model.height, scale.screen.height),
  };
}

/** A screen point to the model's space (for telling the model about earlier actions). */
export function toModel(scale: ScreenScale, x: number, y: number): { x: number; y: number } {
  return {
    x: axisToModel(x, scale.model.width, scale.screen.width),
    y: axisToModel(y, scale.model.height, scale.screen.height),
  };
}

/** Whether a model point is inside the image the model saw. */
export function insideModel(scale: ScreenScale, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < scale.model.width && y < scale.model.height;
}

function isSide(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1;
}
