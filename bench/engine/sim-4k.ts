/**
 * The sim on a 3840×2160 screen, for the 4k scenario. The sim draws 1280×800 only; this host
 * scales each drawn state up by nearest neighbour (3× across, 2.7× down), as flat as a real form at
 * that size, and encodes it as the screen host encodes any screen. Its outline's rectangles are
 * scaled the same way and the actions it receives scaled back, so to Warden it is a 4K screen in
 * every respect: the PNGs it decodes and hashes, the coordinates it sends.
 */
import { rawFrame } from '../../screen-host/src/frames';
import type { OutlineElement, Screenshot } from '../../screen-host/src';
import type { SimRender } from '../../screen-host/src/backends/sim/sim-backend';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../../screen-host/src/backends/sim/sim-layout';
import { BenchSim } from '../../test/support/bench-sim';
import { ScreenPngEncoder } from '@warden/protocol';

export const WIDTH_4K = 3840;
export const HEIGHT_4K = 2160;
const SX = WIDTH_4K / SCREEN_WIDTH;
const SY = HEIGHT_4K / SCREEN_HEIGHT;

/**
 * Each state scaled up and encoded once (33 MB of pixels each): a run of the read script shows
 * about a dozen. Module-wide: the sim's constructor draws its first state before its fields exist.
 */
const big = new Map<string, SimRender>();
const BIG_STATES = 16;
const encoder = new ScreenPngEncoder();

function upscale(small: Uint8Array): Uint8Array {
  const aligned = small.byteOffset % 4 === 0 ? small : new Uint8Array(small);
  const from = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  const out = new Uint32Array(WIDTH_4K * HEIGHT_4K);
  let previous = -1;
  for (let y = 0; y < HEIGHT_4K; y++) {
    const sy = Math.floor(y / SY);
    const row = y * WIDTH_4K;
    if (sy === previous) {
      out.copyWithin(row, row - WIDTH_4K, row);
      continue;
    }
    previous = sy;
    const source = sy * SCREEN_WIDTH;
    for (let x = 0; x < WIDTH_4K; x++) out[row + x] = from[source + Math.floor(x / SX)];
  }
  return new Uint8Array(out.buffer);
}

export class Sim4k extends BenchSim {
  override size() {
    return { width: WIDTH_4K, height: HEIGHT_4K };
  }

  protected override draw(): SimRender {
    const key = this.renderKey();
    let render = big.get(key);
    if (!render) {
      const rgba = upscale(super.draw().frame.rgba);
      render = {
        png: encoder.encode(rgba, WIDTH_4K, HEIGHT_4K),
        frame: rawFrame(WIDTH_4K, HEIGHT_4K, rgba),
      };
      big.set(key, render);
      if (big.size > BIG_STATES) big.delete(big.keys().next().value!);
    }
    return render;
  }

  override async screenshot(): Promise<Screenshot> {
    return { ...(await super.screenshot()), width: WIDTH_4K, height: HEIGHT_4K };
  }

  override elements(): OutlineElement[] {
    return super.elements().map((e) => ({
      ...e,
      rect: {
        x: Math.round(e.rect.x * SX),
        y: Math.round(e.rect.y * SY),
        width: Math.round(e.rect.width * SX),
        height: Math.round(e.rect.height * SY),
      },
    }));
  }

  override async perform(action: Parameters<BenchSim['perform']>[0]): Promise<void> {
    if ('x' in action && 'y' in action) {
      return super.perform({
        ...action,
        x: Math.min(SCREEN_WIDTH - 1, Math.floor(action.x / SX)),
        y: Math.min(SCREEN_HEIGHT - 1, Math.floor(action.y / SY)),
      });
    }
    return super.perform(action);
  }

  /** The 4K PNGs this process has drawn (each state once), for measuring their pixel work. */
  static drawnPngs(): Buffer[] {
    return [...big.values()].map((r) => r.png);
  }
}
