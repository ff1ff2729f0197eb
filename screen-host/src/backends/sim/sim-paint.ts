/**
 * The sim's paint box: its colours, the drawing primitives and the toolbar icons, on a Skia
 * canvas. Deterministic: the same calls give the same pixels.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Rect } from '../backend';
import { font, measure } from './sim-fonts';
import { type IconKind, TEXT_FONT } from './sim-widgets';

export const COLORS = {
  caption: '#0b3a66',
  captionText: '#ffffff',
  menubar: '#f4f5f7',
  systemToolbar: '#e2e8ee',
  title: '#d3e2f1',
  titleText: '#173a5e',
  appToolbar: '#edf1f5',
  work: '#e6edf4',
  status: '#dbe2e9',
  line: '#b3c0cd',
  text: '#1c2a38',
  buttonFace: '#f6f8fa',
  buttonBorder: '#8b9fb3',
  field: '#ffffff',
  fieldBorder: '#7f97ae',
  readOnly: '#eceff2',
  readOnlyBorder: '#b5c2ce',
  focus: '#1e66d0',
  selection: '#2f6fd0',
  tableHeader: '#d6e0ea',
  tableAlt: '#f3f7fa',
  group: '#9fb1c3',
} as const;

export function rect(ctx: SKRSContext2D, r: Rect, fill: string, stroke?: string): void {
  ctx.fillStyle = fill;
  ctx.fillRect(r.x, r.y, r.width, r.height);
  if (stroke) {
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 1;
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.width - 1, r.height - 1);
  }
}

export function text(
  ctx: SKRSContext2D,
  value: string,
  x: number,
  y: number,
  color: string = COLORS.text,
  cssFont = TEXT_FONT,
): void {
  ctx.font = cssFont;
  ctx.fillStyle = color;
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(value, x, y);
}

/** Text clipped to a box, so a long value never paints over its neighbours. */
export function clippedText(
  ctx: SKRSContext2D,
  value: string,
  box: Rect,
  color: string,
  alignRight = false,
  cssFont = TEXT_FONT,
): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(box.x, box.y, box.width, box.height);
  ctx.clip();
  const width = measure(value, cssFont);
  const x = alignRight ? box.x + box.width - 5 - width : box.x + 5;
  text(ctx, value, x, box.y + box.height / 2 + 5, color, cssFont);
  ctx.restore();
}

export function line(
  ctx: SKRSContext2D,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  color: string = COLORS.line,
): void {
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x1 + 0.5, y1 + 0.5);
  ctx.lineTo(x2 + 0.5, y2 + 0.5);
  ctx.stroke();
}

export function circle(ctx: SKRSContext2D, cx: number, cy: number, r: number, fill: string): void {
  ctx.fillStyle = fill;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
}

export function stroke(
  ctx: SKRSContext2D,
  points: [number, number][],
  color: string,
  width: number,
): void {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
}

/** SAP-like toolbar icons, drawn in a 20x20 box centred at (cx, cy). */
export function icon(ctx: SKRSContext2D, kind: IconKind, cx: number, cy: number): void {
  switch (kind) {
    case 'enter':
    case 'check':
      circle(ctx, cx, cy, 9, '#2e9a3e');
      stroke(
        ctx,
        [
          [cx - 4.5, cy],
          [cx - 1, cy + 4],
          [cx + 5, cy - 4],
        ],
        '#ffffff',
        2.2,
      );
      return;
    case 'save':
      rect(ctx, { x: cx - 8, y: cy - 8, width: 16, height: 16 }, '#2b5b9a');
      rect(ctx, { x: cx - 5, y: cy - 8, width: 10, height: 6 }, '#dfe7f1');
      rect(ctx, { x: cx - 5, y: cy + 2, width: 10, height: 6 }, '#ffffff');
      return;
    case 'back':
      circle(ctx, cx, cy, 9, '#2e9a3e');
      stroke(
        ctx,
        [
          [cx + 5, cy],
          [cx - 4, cy],
        ],
        '#ffffff',
        2.2,
      );
      stroke(
        ctx,
        [
          [cx - 0.5, cy - 4],
          [cx - 4.5, cy],
          [cx - 0.5, cy + 4],
        ],
        '#ffffff',
        2.2,
      );
      return;
    case 'exit':
      circle(ctx, cx, cy, 9, '#e2a400');
      stroke(
        ctx,
        [
          [cx, cy + 5],
          [cx, cy - 4],
        ],
        '#ffffff',
        2.2,
      );
      stroke(
        ctx,
        [
          [cx - 4, cy],
          [cx, cy - 4.5],
          [cx + 4, cy],
        ],
        '#ffffff',
        2.2,
      );
      return;
    case 'cancel':
      circle(ctx, cx, cy, 9, '#cc2f2f');
      stroke(
        ctx,
        [
          [cx - 4, cy - 4],
          [cx + 4, cy + 4],
        ],
        '#ffffff',
        2.2,
      );
      stroke(
        ctx,
        [
          [cx + 4, cy - 4],
          [cx - 4, cy + 4],
        ],
        '#ffffff',
        2.2,
      );
      return;
    case 'print':
      rect(ctx, { x: cx - 5, y: cy - 8, width: 10, height: 6 }, '#ffffff', '#5b6b7b');
      rect(ctx, { x: cx - 8, y: cy - 3, width: 16, height: 8 }, '#6b7b8b');
      rect(ctx, { x: cx - 5, y: cy + 3, width: 10, height: 6 }, '#ffffff', '#5b6b7b');
      return;
    case 'find':
      circle(ctx, cx - 4, cy + 2, 4.5, '#3b4b5b');
      circle(ctx, cx + 4, cy + 2, 4.5, '#3b4b5b');
      rect(ctx, { x: cx - 2, y: cy - 6, width: 4, height: 6 }, '#3b4b5b');
      return;
    case 'help':
      circle(ctx, cx, cy, 9, '#2f6fd0');
      ctx.textAlign = 'center';
      text(ctx, '?', cx, cy + 5, '#ffffff', font(13, true));
      ctx.textAlign = 'left';
      return;
    case 'post':
      rect(ctx, { x: cx - 7, y: cy - 8, width: 14, height: 16 }, '#ffffff', '#2b5b9a');
      line(ctx, cx - 4, cy - 4, cx + 3, cy - 4, '#2b5b9a');
      line(ctx, cx - 4, cy, cx + 3, cy, '#2b5b9a');
      line(ctx, cx - 4, cy + 4, cx + 1, cy + 4, '#2b5b9a');
      return;
  }
}
