/**
 * Screens drawn for the OCR specs: framed buttons with real TrueType fonts (DejaVu, from npm) on a
 * light grey desktop, by Skia (@napi-rs/canvas), as the PNG a screen host sends and as RGBA.
 */
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { RgbaImage } from '../../src/computer-use/ocr/glyph-components';

const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const FONTS = {
  sans: ['DejaVuSans.ttf', 'DejaVu Sans'],
  serif: ['DejaVuSerif.ttf', 'DejaVu Serif'],
  bold: ['DejaVuSans-Bold.ttf', 'DejaVu Sans Bold'],
  condensed: ['DejaVuSansCondensed.ttf', 'DejaVu Sans Condensed'],
  mono: ['DejaVuSansMono.ttf', 'DejaVu Sans Mono'],
} as const;
export type Font = keyof typeof FONTS;
for (const [file, family] of Object.values(FONTS)) {
  GlobalFonts.registerFromPath(join(FONT_DIR, file), family);
}

export interface Button {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  size: number;
  font: Font;
  dark?: boolean;
}

export interface Screen {
  png: Buffer;
  rgba: RgbaImage;
}

/** A light grey desktop with framed buttons; `scale` draws it for a HiDPI screen. */
export function render(width: number, height: number, buttons: Button[], scale = 1): Screen {
  const canvas = createCanvas(width * scale, height * scale);
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  g.fillStyle = '#dfe6ee';
  g.fillRect(0, 0, width, height);
  for (const b of buttons) {
    g.fillStyle = b.dark ? '#0a6ed1' : '#f7f7f7';
    g.fillRect(b.x, b.y, b.width, b.height);
    g.strokeStyle = '#7a8a99';
    g.lineWidth = 1;
    g.strokeRect(b.x + 0.5, b.y + 0.5, b.width - 1, b.height - 1);
    g.fillStyle = b.dark ? '#ffffff' : '#1a1a1a';
    g.font = `${b.size}px "${FONTS[b.font][1]}"`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(b.text, b.x + b.width / 2, b.y + b.height / 2);
  }
  const data = g.getImageData(0, 0, width * scale, height * scale).data;
  return {
    png: canvas.toBuffer('image/png'),
    rgba: { width: width * scale, height: height * scale, data },
  };
}

/** Lays buttons out in rows, each sized to its text. */
export function layout(
  specs: Omit<Button, 'x' | 'y' | 'width' | 'height'>[],
  width: number,
): Button[] {
  const out: Button[] = [];
  let x = 10;
  let y = 10;
  let rowHeight = 0;
  for (const s of specs) {
    const w = Math.round(s.text.length * s.size * 0.75 + 28);
    const h = Math.round(s.size * 2);
    if (x + w > width - 10) {
      x = 10;
      y += rowHeight + 10;
      rowHeight = 0;
    }
    out.push({ ...s, x, y, width: w, height: h });
    x += w + 8;
    rowHeight = Math.max(rowHeight, h);
  }
  return out;
}

export const centre = (b: Button) => ({
  x: Math.floor(b.x + b.width / 2),
  y: Math.floor(b.y + b.height / 2),
});

export interface FormRow {
  label: string;
  /** The text shown in the field (a password field shows it as asterisks). */
  value?: string;
  password?: boolean;
}

/** A form as SAP lays one out: a label, and its framed field further right on the same row. */
export function renderForm(
  width: number,
  height: number,
  rows: FormRow[],
  options: { size?: number; font?: Font; labelX?: number; fieldX?: number } = {},
): Screen & { fields: { x: number; y: number; width: number; height: number }[] } {
  const { size = 13, font = 'sans', labelX = 24, fieldX = 200 } = options;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#e6edf4';
  g.fillRect(0, 0, width, height);
  const fields = rows.map((row, i) => {
    const y = 20 + i * 34;
    const field = { x: fieldX, y, width: 250, height: 22 };
    g.fillStyle = '#1c2a38';
    g.font = `${size}px "${FONTS[font][1]}"`;
    g.textAlign = 'left';
    g.textBaseline = 'middle';
    g.fillText(row.label, labelX, y + 11);
    g.fillStyle = '#ffffff';
    g.fillRect(field.x, field.y, field.width, field.height);
    g.strokeStyle = '#7f97ae';
    g.lineWidth = 1;
    g.strokeRect(field.x + 0.5, field.y + 0.5, field.width - 1, field.height - 1);
    if (row.value) {
      g.fillStyle = '#1c2a38';
      const shown = row.password ? '*'.repeat([...row.value].length) : row.value;
      g.fillText(shown, field.x + 4, y + 11);
    }
    return field;
  });
  const data = g.getImageData(0, 0, width, height).data;
  return { png: canvas.toBuffer('image/png'), rgba: { width, height, data }, fields };
}
