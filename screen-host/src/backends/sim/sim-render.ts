/**
 * Draws the sim's layout in software. Pure function of the state: the same state gives the same
 * pixels and, with the same encoder, the same PNG bytes.
 */
import { Canvas, createCanvas, SKRSContext2D } from '@napi-rs/canvas';
import type { Rect } from '../backend';
import { ensureFonts, font, measure } from './sim-fonts';
import type { SimApp } from './sim-app';
import {
  BANDS,
  ButtonWidget,
  Decoration,
  FieldWidget,
  PopupLayout,
  SCREEN_HEIGHT,
  SCREEN_WIDTH,
  TEXT_FONT,
  TextWidget,
  TITLE_FONT,
} from './sim-layout';

import { circle, clippedText, COLORS, icon, line, rect, text } from './sim-paint';

export { COLORS } from './sim-paint';

function drawButton(ctx: SKRSContext2D, b: ButtonWidget): void {
  rect(ctx, b.rect, COLORS.buttonFace, COLORS.buttonBorder);
  if (!b.caption) {
    icon(ctx, b.icon!, b.rect.x + b.rect.width / 2, b.rect.y + b.rect.height / 2);
    return;
  }
  let x = b.rect.x + 12;
  if (b.icon) {
    icon(ctx, b.icon, x + 8, b.rect.y + b.rect.height / 2);
    x += 22;
  }
  text(ctx, b.caption, x, b.rect.y + b.rect.height / 2 + 5);
}

function drawField(ctx: SKRSContext2D, f: FieldWidget, app: SimApp, caretVisible: boolean): void {
  const s = app.state;
  const focused = s.focus === f.id;
  rect(
    ctx,
    f.rect,
    f.editable ? COLORS.field : COLORS.readOnly,
    focused ? COLORS.focus : f.editable ? COLORS.fieldBorder : COLORS.readOnlyBorder,
  );
  const value = app.fieldValue(f.id);
  const shown = f.password ? '*'.repeat([...value].length) : value;
  const inner: Rect = {
    x: f.rect.x + 1,
    y: f.rect.y + 1,
    width: f.rect.width - (f.dropdown ? 18 : 2),
    height: f.rect.height - 2,
  };
  if (f.dropdown) {
    const arrow = {
      x: f.rect.x + f.rect.width - 17,
      y: f.rect.y + 1,
      width: 16,
      height: f.rect.height - 2,
    };
    rect(ctx, arrow, '#e9eef3');
    ctx.fillStyle = '#44566a';
    ctx.beginPath();
    ctx.moveTo(arrow.x + 4, arrow.y + 8);
    ctx.lineTo(arrow.x + 12, arrow.y + 8);
    ctx.lineTo(arrow.x + 8, arrow.y + 13);
    ctx.closePath();
    ctx.fill();
  }
  const selected = focused && s.selectAll && shown.length > 0 && f.editable;
  if (selected) {
    const width = Math.ceil(measure(shown, TEXT_FONT));
    const x = f.alignRight ? inner.x + inner.width - 4 - width : inner.x + 4;
    rect(
      ctx,
      { x, y: inner.y + 2, width: Math.min(width + 1, inner.width - 4), height: inner.height - 4 },
      COLORS.selection,
    );
  }
  clippedText(ctx, shown, inner, selected ? '#ffffff' : COLORS.text, f.alignRight);
  if (focused && caretVisible) {
    const chars = [...shown];
    const before = chars.slice(0, s.selectAll ? chars.length : s.caret).join('');
    const full = measure(shown, TEXT_FONT);
    const x = f.alignRight
      ? inner.x + inner.width - 5 - full + measure(before, TEXT_FONT)
      : inner.x + 5 + measure(before, TEXT_FONT);
    const cx = Math.min(Math.round(x), inner.x + inner.width - 2);
    rect(
      ctx,
      { x: cx, y: inner.y + 3, width: s.overwrite ? 6 : 1, height: inner.height - 6 },
      s.overwrite ? '#7a9cc8' : '#000000',
    );
  }
}

function drawTextWidget(ctx: SKRSContext2D, w: TextWidget): void {
  switch (w.role) {
    case 'menu':
      text(ctx, w.name, w.rect.x + 8, w.rect.y + 17);
      return;
    case 'title':
      text(ctx, w.name, w.rect.x, w.rect.y + 17, COLORS.titleText, TITLE_FONT);
      return;
    case 'list':
      if (w.id === 'menu-tree') rect(ctx, w.rect, '#ffffff', COLORS.group);
      return;
    case 'status':
      return;
    case 'label':
      if (w.style === 'header') {
        rect(ctx, w.rect, COLORS.tableHeader);
        clippedText(ctx, w.name, w.rect, COLORS.text, false, font(12, true));
        return;
      }
      text(ctx, w.name, w.rect.x, w.rect.y + 15);
      return;
    case 'listitem':
      if (w.style === 'row') {
        if (w.cells) {
          for (const cell of w.cells) {
            clippedText(
              ctx,
              cell.text,
              { x: cell.x, y: w.rect.y, width: cell.width, height: w.rect.height },
              COLORS.text,
              cell.alignRight,
            );
          }
        }
        return;
      }
      if (w.selected) rect(ctx, w.rect, '#cddff5', '#7ea6da');
      if (w.style === 'transaction') {
        rect(
          ctx,
          { x: w.rect.x + 4, y: w.rect.y + 5, width: 12, height: 12 },
          '#4a86c8',
          '#2b5b9a',
        );
      } else {
        rect(
          ctx,
          { x: w.rect.x + 3, y: w.rect.y + 7, width: 14, height: 10 },
          '#f2c94c',
          '#b8902a',
        );
        rect(ctx, { x: w.rect.x + 3, y: w.rect.y + 5, width: 6, height: 3 }, '#e0b23c');
      }
      text(ctx, w.name, w.rect.x + 22, w.rect.y + 16);
      return;
  }
}

function drawDecoration(ctx: SKRSContext2D, d: Decoration): void {
  switch (d.kind) {
    case 'group': {
      ctx.strokeStyle = COLORS.group;
      ctx.lineWidth = 1;
      ctx.strokeRect(d.rect.x + 0.5, d.rect.y + 8.5, d.rect.width - 1, d.rect.height - 9);
      const width = measure(d.title, font(12, true));
      rect(ctx, { x: d.rect.x + 8, y: d.rect.y, width: width + 8, height: 16 }, COLORS.work);
      text(ctx, d.title, d.rect.x + 12, d.rect.y + 13, COLORS.titleText, font(12, true));
      return;
    }
    case 'panel':
      rect(ctx, d.rect, '#f4f7fa', COLORS.group);
      return;
    case 'dialog':
      rect(
        ctx,
        { x: d.rect.x + 4, y: d.rect.y + 4, width: d.rect.width, height: d.rect.height },
        '#9aa8b6',
      );
      rect(ctx, d.rect, '#f2f5f8', '#5c6f82');
      rect(
        ctx,
        { x: d.rect.x + 1, y: d.rect.y + 1, width: d.rect.width - 2, height: 24 },
        COLORS.caption,
      );
      text(ctx, d.title, d.rect.x + 10, d.rect.y + 18, COLORS.captionText, font(13, true));
      return;
    case 'scrollbar': {
      rect(ctx, d.rect, '#e1e7ed', '#b9c6d2');
      if (d.total > d.visible) {
        const track = d.rect.height - 4;
        const height = Math.max(16, Math.round((track * d.visible) / d.total));
        const y = d.rect.y + 2 + Math.round(((track - height) * d.first) / (d.total - d.visible));
        rect(ctx, { x: d.rect.x + 2, y, width: d.rect.width - 4, height }, '#a5b6c7');
      }
      return;
    }
    case 'light':
      circle(ctx, d.x, d.y, 7, d.color === 'green' ? '#2e9a3e' : '#cc2f2f');
      return;
    case 'logo': {
      rect(ctx, d.rect, '#d7e5f3', COLORS.group);
      const box = { x: d.rect.x + 40, y: d.rect.y + 40, width: 150, height: 74 };
      ctx.fillStyle = '#0f5fb0';
      ctx.beginPath();
      ctx.moveTo(box.x, box.y);
      ctx.lineTo(box.x + box.width, box.y);
      ctx.lineTo(box.x + box.width - 40, box.y + box.height);
      ctx.lineTo(box.x, box.y + box.height);
      ctx.closePath();
      ctx.fill();
      text(ctx, 'SAP', box.x + 18, box.y + 52, '#ffffff', font(38, true));
      text(ctx, d.text, d.rect.x + 40, d.rect.y + 160, COLORS.titleText, font(22, true));
      text(ctx, 'S4H · Client 100 · simulated', d.rect.x + 40, d.rect.y + 190, '#4f6378', font(14));
      return;
    }
  }
}

function drawChrome(ctx: SKRSContext2D, app: SimApp): void {
  rect(ctx, { x: 0, y: 0, width: SCREEN_WIDTH, height: SCREEN_HEIGHT }, COLORS.work);
  rect(
    ctx,
    { x: 0, y: BANDS.caption.y, width: SCREEN_WIDTH, height: BANDS.caption.height },
    COLORS.caption,
  );
  text(ctx, app.labels.caption, 10, 17, COLORS.captionText, font(12, true));
  rect(
    ctx,
    { x: 0, y: BANDS.menubar.y, width: SCREEN_WIDTH, height: BANDS.menubar.height },
    COLORS.menubar,
  );
  rect(
    ctx,
    { x: 0, y: BANDS.systemToolbar.y, width: SCREEN_WIDTH, height: BANDS.systemToolbar.height },
    COLORS.systemToolbar,
  );
  line(ctx, 0, BANDS.systemToolbar.y, SCREEN_WIDTH, BANDS.systemToolbar.y);
  for (const x of [244, 288, 396, 472])
    line(ctx, x, BANDS.systemToolbar.y + 6, x, BANDS.systemToolbar.y + 30);
  rect(
    ctx,
    { x: 0, y: BANDS.title.y, width: SCREEN_WIDTH, height: BANDS.title.height },
    COLORS.title,
  );
  line(ctx, 0, BANDS.title.y, SCREEN_WIDTH, BANDS.title.y);
  rect(
    ctx,
    { x: 0, y: BANDS.appToolbar.y, width: SCREEN_WIDTH, height: BANDS.appToolbar.height },
    COLORS.appToolbar,
  );
  line(
    ctx,
    0,
    BANDS.appToolbar.y + BANDS.appToolbar.height - 1,
    SCREEN_WIDTH,
    BANDS.appToolbar.y + BANDS.appToolbar.height - 1,
  );
}

/** One step off the status bar's colour (#dbe2e9): a contrast of about 1.02:1. */
const FAINT_STATUS_TEXT = '#d9e0e7';

function drawStatus(ctx: SKRSContext2D, app: SimApp): void {
  const y = BANDS.status.y;
  rect(ctx, { x: 0, y, width: SCREEN_WIDTH, height: BANDS.status.height }, COLORS.status);
  line(ctx, 0, y, SCREEN_WIDTH, y, '#a9b7c5');
  const status = app.state.status;
  if (status?.faint) {
    const box = { x: 34, y, width: 900, height: BANDS.status.height };
    clippedText(ctx, status.text, box, FAINT_STATUS_TEXT);
  } else if (status) {
    const cx = 18;
    const cy = y + 14;
    if (status.type === 'S') icon(ctx, 'check', cx, cy);
    else if (status.type === 'E') icon(ctx, 'cancel', cx, cy);
    else if (status.type === 'W') {
      ctx.fillStyle = '#e2a400';
      ctx.beginPath();
      ctx.moveTo(cx, cy - 8);
      ctx.lineTo(cx + 9, cy + 8);
      ctx.lineTo(cx - 9, cy + 8);
      ctx.closePath();
      ctx.fill();
      text(ctx, '!', cx - 2, cy + 6, '#ffffff', font(11, true));
    } else icon(ctx, 'help', cx, cy);
    if (status.type === 'I') {
      // Information: an "i", not the help icon's question mark.
      circle(ctx, cx, cy, 9, '#2f6fd0');
      text(ctx, 'i', cx - 2, cy + 5, '#ffffff', font(13, true));
    }
    clippedText(
      ctx,
      status.text,
      { x: 34, y, width: 900, height: BANDS.status.height },
      COLORS.text,
    );
  }
  const info = `${app.labels.systemInfo}  ${app.state.overwrite ? 'OVR' : 'INS'}`;
  const width = measure(info, font(12));
  line(ctx, SCREEN_WIDTH - width - 30, y + 5, SCREEN_WIDTH - width - 30, y + 23);
  text(ctx, info, SCREEN_WIDTH - width - 14, y + 18, '#34475a', font(12));
}

export function renderSim(app: SimApp, caretVisible: boolean): Canvas {
  ensureFonts();
  const canvas = createCanvas(SCREEN_WIDTH, SCREEN_HEIGHT);
  const ctx = canvas.getContext('2d');
  drawChrome(ctx, app);
  const layout = app.layout();
  // Frames first, so that the widgets inside them are on top.
  for (const d of layout.decorations)
    if (d.kind !== 'scrollbar' && d.kind !== 'light') drawDecoration(ctx, d);
  const table = layout.widgets.find((w) => w.id === 'items');
  if (table) {
    const rows = layout.widgets.filter((w) => w.kind === 'text' && w.style === 'row');
    rows.forEach((row, i) => rect(ctx, row.rect, i % 2 === 0 ? '#ffffff' : COLORS.tableAlt));
  }
  for (const w of layout.widgets) {
    if (w.kind === 'button') drawButton(ctx, w);
    else if (w.kind === 'field') drawField(ctx, w, app, caretVisible);
    else drawTextWidget(ctx, w);
  }
  for (const d of layout.decorations)
    if (d.kind === 'scrollbar' || d.kind === 'light') drawDecoration(ctx, d);
  drawStatus(ctx, app);
  if (layout.popup) drawPopup(ctx, layout.popup);
  return canvas;
}

/** A modal dialog, over everything else, drawn like the sim's other dialogs. */
function drawPopup(ctx: SKRSContext2D, popup: PopupLayout): void {
  drawDecoration(ctx, { kind: 'dialog', title: popup.title, rect: popup.rect });
  for (const line of popup.lines) {
    clippedText(
      ctx,
      line.text,
      {
        x: line.rect.x - 5,
        y: line.rect.y,
        width: popup.rect.width - 30,
        height: line.rect.height,
      },
      COLORS.text,
    );
  }
  popup.buttons.forEach((button, i) => {
    drawButton(ctx, button);
    // The first button is the default (Enter): framed like a focused field.
    if (i === 0) {
      ctx.strokeStyle = COLORS.focus;
      ctx.lineWidth = 1;
      const r = button.rect;
      ctx.strokeRect(r.x - 1.5, r.y - 1.5, r.width + 3, r.height + 3);
    }
  });
}
