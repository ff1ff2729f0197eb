import { Injectable } from '@nestjs/common';
import type { ObservedScreen, PlanningContext } from '../computer-use/planning/planner';
import { readPngHeader } from '../computer-use/screens/png-decoder';
import { ScreensService } from '../computer-use/screens/screens.service';
import { downscalePng } from './downscale';
import type { ModelImage } from './provider';
import type { Size } from './scaling';

/** Scaled screenshots kept, by SHA-256 and size. */
const IMAGE_CACHE = 32;

/**
 * The screenshots a model call shows: the current screen and up to `history_screens` earlier ones,
 * downscaled to the model's size and cached by SHA-256 (a step's screen is shown again at the next).
 */
@Injectable()
export class ModelImages {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly screens: ScreensService) {}

  /** The last `count` distinct earlier screens (not the current one), oldest first. */
  async history(
    ctx: PlanningContext,
    count: number,
    current: ObservedScreen,
    size: Size,
  ): Promise<ModelImage[]> {
    if (count <= 0) return [];
    const picked: Array<{ sha256: string; n: number }> = [];
    const seen = new Set([current.sha256]);
    for (let i = ctx.history.length - 1; i >= 0 && picked.length < count; i--) {
      const sha = ctx.history[i].screen_sha256;
      if (!sha || seen.has(sha)) continue;
      seen.add(sha);
      picked.unshift({ sha256: sha, n: ctx.history[i].n });
    }
    const images: ModelImage[] = [];
    for (const p of picked) {
      const key = `${p.sha256}:${size.width}x${size.height}`;
      let png = this.cache.get(key);
      if (!png) {
        const stored = await this.screens.get(ctx.tenant, p.sha256);
        if (!stored) continue;
        png = await this.scaled(p.sha256, stored, size);
      }
      images.push({ png, sha256: p.sha256, label: `The screen at step ${p.n}:` });
    }
    return images;
  }

  /** The screenshot at the model's size, cached by its SHA-256. */
  async scaled(sha256: string, png: Buffer, size: Size): Promise<Buffer> {
    const key = `${sha256}:${size.width}x${size.height}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const header = readPngHeader(png);
    const scaled =
      header.width === size.width && header.height === size.height
        ? png
        : await downscalePng(png, size);
    this.cache.set(key, scaled);
    while (this.cache.size > IMAGE_CACHE) this.cache.delete(this.cache.keys().next().value!);
    return scaled;
  }
}
