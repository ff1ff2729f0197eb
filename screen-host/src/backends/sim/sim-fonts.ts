import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts, SKRSContext2D } from '@napi-rs/canvas';

/** The sim draws with DejaVu Sans from npm, so that every machine renders the same glyphs. */
export const FONT_FAMILY = 'SimSans';

let measureContext: SKRSContext2D | null = null;

export function ensureFonts(): void {
  if (measureContext) return;
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  GlobalFonts.registerFromPath(join(dir, 'DejaVuSans.ttf'), FONT_FAMILY);
  GlobalFonts.registerFromPath(join(dir, 'DejaVuSans-Bold.ttf'), FONT_FAMILY);
  measureContext = createCanvas(1, 1).getContext('2d');
}

export function font(size: number, bold = false): string {
  return `${bold ? 'bold ' : ''}${size}px ${FONT_FAMILY}`;
}

/** Width in pixels of `text` in the given CSS font. */
export function measure(text: string, cssFont: string): number {
  ensureFonts();
  measureContext!.font = cssFont;
  return measureContext!.measureText(text).width;
}
