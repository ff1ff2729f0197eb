import type { OutlineElement } from './action.types';
import { labelAt, outlineLabelAt, targetUnderRedaction } from './label-at';

const el = (
  id: string,
  name: string,
  x: number,
  y: number,
  width: number,
  height: number,
  role = 'button',
): OutlineElement => ({
  id,
  role,
  name,
  rect: { x, y, width, height },
});

describe('labelAt', () => {
  const outline = [
    el('win', 'Main', 0, 0, 100, 100, 'window'),
    el('big', 'Big', 10, 10, 50, 50),
    el('small', 'Small', 20, 20, 10, 10),
    el('twin', 'Twin', 20, 20, 10, 10),
  ];

  it('picks the smallest element containing the point, the later of two equal ones', () => {
    expect(labelAt(outline, 25, 25)?.id).toBe('twin');
    expect(labelAt(outline, 15, 15)?.id).toBe('big');
    expect(labelAt(outline, 95, 95)?.id).toBe('win');
  });

  it('treats rects as half-open: x ≤ px < x + width', () => {
    expect(labelAt(outline, 10, 10)?.id).toBe('big');
    expect(labelAt(outline, 60, 60)?.id).toBe('win');
    expect(labelAt(outline, 100, 50)).toBeNull();
  });

  it('ignores malformed elements and never throws', () => {
    const bad = [
      null,
      {},
      { id: 'a', rect: null },
      el('nan', 'NaN', Number.NaN, 0, 10, 10),
      el('empty', 'Empty', 0, 0, 0, 0),
      el('neg', 'Neg', 5, 5, -3, 4),
      el('ok', 'OK', 0, 0, 10, 10),
    ] as unknown as OutlineElement[];
    expect(labelAt(bad, 1, 1)?.id).toBe('ok');
    expect(labelAt(null as unknown as OutlineElement[], 1, 1)).toBeNull();
  });
});

describe('outlineLabelAt', () => {
  it('gives the name, trimmed, or null for none, blank names and containers', () => {
    const outline = [
      el('win', 'Create Order', 0, 0, 200, 200, 'GuiMainWindow'),
      el('grp', 'Delete items', 0, 0, 100, 100, 'Group'),
      el('b', '  Save ', 10, 10, 20, 20),
      el('blank', ' \u200b ', 40, 40, 20, 20),
    ];
    expect(outlineLabelAt(outline, 15, 15)).toBe('Save');
    expect(outlineLabelAt(outline, 45, 45)).toBeNull();
    expect(outlineLabelAt(outline, 80, 80)).toBeNull();
    expect(outlineLabelAt(outline, 150, 150)).toBeNull();
    expect(outlineLabelAt(null, 1, 1)).toBeNull();
  });
});

describe('targetUnderRedaction', () => {
  const field = { ...el('f', '', 100, 100, 80, 20, 'textbox'), focused: true };
  const screen = (
    outline: OutlineElement[] | null,
    redacted = [{ x: 90, y: 90, width: 50, height: 50 }],
  ) => ({
    width: 400,
    height: 300,
    outline,
    redacted,
  });

  it('looks at the point of a click or scroll, and at the element there', () => {
    const click = { action: 'click' as const, x: 95, y: 95 };
    expect(targetUnderRedaction(click, screen(null), null)).toBe(true);
    expect(targetUnderRedaction({ ...click, x: 200 }, screen(null), null)).toBe(false);
    // An element that lost its texts to a region, clicked where the region is not.
    const hidden = { ...el('h', '', 200, 200, 40, 20), redacted: true as const };
    expect(targetUnderRedaction({ ...click, x: 230, y: 210 }, screen([hidden]), null)).toBe(true);
    expect(targetUnderRedaction(click, screen(null, []), null)).toBe(false);
  });

  it('looks at the focused field for typing and keys, else at the point last clicked', () => {
    const type = { action: 'type' as const, text: '4711' };
    const enter = { action: 'key' as const, key: 'Enter' };
    // The field reaches into the region though its centre does not.
    expect(targetUnderRedaction(type, screen([field]), null)).toBe(true);
    expect(
      targetUnderRedaction(enter, screen([{ ...field, rect: { ...field.rect, x: 300 } }]), null),
    ).toBe(false);
    expect(targetUnderRedaction(type, screen([]), { x: 100, y: 100 })).toBe(true);
    expect(targetUnderRedaction(type, screen([]), { x: 300, y: 100 })).toBe(false);
    expect(targetUnderRedaction(type, screen([]), null)).toBe(false);
    expect(targetUnderRedaction({ action: 'wait', seconds: 1 }, screen([field]), null)).toBe(false);
  });
});
