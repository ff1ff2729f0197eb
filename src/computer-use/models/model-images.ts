import { Injectable } from '@nestjs/common';
import type { PlanningContext } from '../planner-contract/planner';
import { readPngHeader } from '../pixels/png-structure';
import { ScreensService } from '../screens/screens.service';
import { downscalePng } from './downscale';
import { screenLabel, shownScreens } from './prompt';
import type { ModelImage } from './provider';
import type { Rect } from '../settings/agent-config';
import type { Size } from './scaling';
import { zoomPng } from './zoom';

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

  /** A stored screen at the model's size, by its SHA-256; null when it is no longer stored. */
  async stored(tenant: string, sha256: string, size: Size): Promise<Buffer | null> {
    const cached = this.cache.get(`${sha256}:${size.width}x${size.height}`);
    if (cached) return cached;
    const png = await this.screens.get(tenant, sha256);
    return png ? this.scaled(sha256, png, size) : null;
  }

  /** A region of a stored screen at its native resolution (a zoom), fitted into `fit`. */
  async zoomed(
    tenant: string,
    sha256: string,
    space: Size,
    region: Rect,
    fit: Size,
  ): Promise<{ png: Buffer; size: Size } | null> {
    const key = `${sha256}:zoom:${region.x},${region.y},${region.width},${region.height}:${fit.width}x${fit.height}`;
    const cached = this.cache.get(key);
    if (cached) return { png: cached, size: pngSize(cached) };
    const png = await this.screens.get(tenant, sha256);
    if (!png) return null;
    const zoomed = await zoomPng(png, space, region, fit);
    this.remember(key, zoomed.png);
    return zoomed;
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
    this.remember(key, scaled);
    return scaled;
  }

  private remember(key: string, png: Buffer): void {
    this.cache.set(key, png);
    while (this.cache.size > IMAGE_CACHE) this.cache.delete(this.cache.keys().next().value!);
  }
}

function pngSize(png: Buffer): Size {
  const header = readPngHeader(png);
  return { width: header.width, height: header.height };
}
