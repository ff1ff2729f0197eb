/**
 * What OCR is given: a screenshot decoded with the same checks as every PNG Warden reads, and the
 * text line at a point, rendered for tesseract, with where that line is on the screen. Pure.
 */
import type { Rect } from '@warden/protocol';
import { decodePng } from '../pixels/png-decoder';
import { hasPngSignature, MAX_SIDE } from '../pixels/png-structure';
import { ScreenError } from '../pixels/screen-error';
import type { RgbaImage } from './glyph-components';
import type { TextLine } from './text-line';
import { renderTextLine } from './text-line-render';

/** The coordinate space x and y are in, when it differs from the image's pixels (HiDPI). */
export interface CoordinateSpace {
  width: number;
  height: number;
}

export class OcrImageError extends Error {
  readonly code = 'ocr_image_invalid';
}

/** Screens larger than this are refused before decoding (a PNG can claim any size). */
export const MAX_IMAGE_PIXELS = MAX_SIDE * MAX_SIDE;

/** Decodes a PNG to RGBA (8-bit, straight alpha), refusing anything that is not a PNG or is too large, with a clear error. */
export function decodeScreenshot(png: Buffer): RgbaImage {
  if (!Buffer.isBuffer(png) || png.length < 33 || !hasPngSignature(png)) {
    throw new OcrImageError('the screenshot is not a PNG');
  }
  if (png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new OcrImageError('the screenshot is a broken PNG (no IHDR chunk)');
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width === 0 || height === 0 || width * height > MAX_IMAGE_PIXELS) {
    throw new OcrImageError(`the screenshot's size ${width}×${height} is not allowed`);
  }
  try {
    // The screens' decoder: the same checks as every other PNG Warden reads, and about five
    // times faster than pngjs on screenshots.
    const { rgba } = decodePng(png);
    return { width, height, data: rgba };
  } catch (e) {
    if (!(e instanceof ScreenError)) throw e;
    throw new OcrImageError(`the screenshot is a broken PNG: ${e.message}`);
  }
}

/** The text line at (x, y), rendered for tesseract; null when there is none there. */
export function lineToRead(
  image: RgbaImage,
  x: number,
  y: number,
  space: CoordinateSpace | undefined,
  find: (image: RgbaImage, x: number, y: number, scale: number) => TextLine | null,
): { pgm: Buffer; box: Rect } | null {
  const { width, height, data } = image ?? ({} as Partial<RgbaImage>);
  if (
    width === undefined ||
    height === undefined ||
    !Number.isSafeInteger(width) ||
    !Number.isSafeInteger(height) ||
    width <= 0 ||
    height <= 0 ||
    !data ||
    data.length < width * height * 4
  ) {
    throw new OcrImageError('the screenshot pixels do not match its size');
  }
  const sx = space && space.width > 0 ? width / space.width : 1;
  const sy = space && space.height > 0 ? height / space.height : 1;
  const ix = Math.floor(x * sx);
  const iy = Math.floor(y * sy);
  if (
    !Number.isFinite(ix) ||
    !Number.isFinite(iy) ||
    ix < 0 ||
    iy < 0 ||
    ix >= width ||
    iy >= height
  ) {
    return null;
  }
  const line = find(image, ix, iy, Math.max(1, Math.min(sx, sy)));
  if (!line) return null;
  const { x0, y0 } = line.analysis.window;
  const left = Math.floor((x0 + line.minX) / sx);
  const top = Math.floor((y0 + line.top) / sy);
  const box = {
    x: left,
    y: top,
    width: Math.ceil((x0 + line.maxX + 1) / sx) - left,
    height: Math.ceil((y0 + line.bottom + 1) / sy) - top,
  };
  return { pgm: renderTextLine(line).pgm, box };
}
