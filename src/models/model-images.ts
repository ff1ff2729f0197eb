import { Injectable } from '@nestjs/common';
import type { PlanningContext } from '../computer-use/planner-contract/planner';
import { readPngHeader } from '../computer-use/pixels/png-structure';
import { ScreensService } from '../computer-use/screens/screens.service';
import { downscalePng } from './downscale';
import { screenLabel, shownScreens } from './prompt';
import type { ModelImage } from './provider';
import type { Size } from './scaling';

/** Scaled screenshots kept, by SHA-256 and size. */
const IMAGE_CACHE = 32;

/**
 * The screenshots a model call shows: the current screen and up to `history_screens` earlier ones,
 * downscaled to the model's size and cached by SHA-256 (a step's screen is shown again at the next,
 * and must be the same bytes for the provider's prompt cache to hit).
 */
@Injectable()
export class ModelImages {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly screens: ScreensService) {}

  /**
   * The earlier steps' screenshots the model is shown (`shownScreens`: at most `count`), by index
   * into the history, downscaled to `size`. A screen no longer stored is left out.
   */
  async timeline(
    ctx: PlanningContext,
    count: number,
    size: Size,
  ): Promise<Map<number, ModelImage>> {
    const images = new Map<number, ModelImage>();
    for (const i of shownScreens(ctx.history, count)) {
      const { screen_sha256: sha, n } = ctx.history[i];
      const key = `${sha}:${size.width}x${size.height}`;
      let png = this.cache.get(key);
      if (!png) {
        const stored = await this.screens.get(ctx.tenant, sha!);
        if (!stored) continue;
        png = await this.scaled(sha!, stored, size);
      }
      images.set(i, { png, sha256: sha!, label: screenLabel(n) });
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
