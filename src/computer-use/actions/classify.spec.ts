import type { Action, OcrReading } from './action.types';
import { classify } from './classify';
import { loadRules } from './rules';

const rules = loadRules();
const click: Action = { action: 'click', x: 5, y: 6 };
const read = (text: string, confidence = 90): OcrReading => ({
  words: text.split(' ').map((w) => ({ text: w, confidence })),
});
const NOTHING_READ =
  'click at (5, 6): nothing could read its label (no text there), so it is a write';

describe('classify', () => {
  it('counts both the given target and the action’s own target, only to make it stricter', () => {
    const a: Action = { action: 'click', x: 1, y: 1, target: 'Delete row' };
    expect(classify(a, { outline: 'Display', target: 'Display' }, rules)).toEqual({
      kind: 'write',
      why: "click on “Delete row” (the planner's target)",
    });
    expect(classify(click, { outline: 'Display', target: 'Sichern' }, rules).kind).toBe('write');
    expect(classify(click, { target: 'Display' }, rules)).toEqual({
      kind: 'write',
      why: NOTHING_READ,
    });
    // A harmless target never makes anything a read, nor a write a read.
    const blind = { outlineServed: false };
    for (const ocr of [read('H'), read('Sichem'), read('Display', 20), { unreadable: 'failed' }]) {
      const without = classify(click, { ...blind, ocr: ocr as OcrReading }, rules);
      const withTarget = classify(
        { ...click, target: 'Display' },
        { ...blind, ocr: ocr as OcrReading, target: 'Display' },
        rules,
      );
      expect(without.kind).toBe('write');
      expect(withTarget).toEqual(without);
    }
    // A verb in the target holds a click the screen calls harmless.
    expect(classify({ ...click, target: 'Post' }, { ocr: read('Display') }, rules)).toEqual({
      kind: 'write',
      why: "click on “Post” (the planner's target)",
    });
  });

  it('names the first source, in the order docs/rules.md gives, that holds a committing verb', () => {
    const post = read('Post');
    expect(classify(click, { outline: 'Save', ocr: post, target: 'Pay' }, rules).why).toBe(
      'click on “Save” (from the screen outline)',
    );
    expect(classify(click, { outline: 'Display', ocr: post, target: 'Pay' }, rules).why).toBe(
      'click on “Post” (read from the screen by OCR)',
    );
  });

  it('takes missing, null, blank and malformed labels as nothing read: a write', () => {
    for (const labels of [
      {},
      { outline: null, ocr: null },
      { outline: '  ', ocr: read('\u200b') },
      { ocr: { words: [{ text: '', confidence: 99 }] } },
      { ocr: 'Display' },
      null,
    ]) {
      expect(classify(click, labels as never, rules)).toEqual({ kind: 'write', why: NOTHING_READ });
    }
    expect(classify(click, { outline: 42 as unknown as string }, rules).kind).toBe('write');
    for (const ocr of [{ unreadable: 'gone' }, { words: 'Display' }]) {
      expect(classify(click, { ocr: ocr as never }, rules).why).toBe(
        'click at (5, 6): nothing could read its label (OCR failed), so it is a write',
      );
    }
    // A confidence that is not a number is no confidence.
    expect(
      classify(click, { ocr: { words: [{ text: 'Display', confidence: NaN }] } }, rules).kind,
    ).toBe('write');
  });

  it('lets unlabelled_clicks "read" send an unlabelled click only where the host serves an outline', () => {
    const lenient = loadRules({ unlabelled_clicks: 'read' });
    expect(classify(click, { ocr: read('H'), outlineServed: true }, lenient).kind).toBe('read');
    expect(classify(click, { ocr: read('H'), outlineServed: false }, lenient).kind).toBe('write');
    expect(classify(click, { ocr: read('H') }, lenient).kind).toBe('write');
    expect(classify(click, { ocr: read('H'), outlineServed: true }, rules).kind).toBe('write');
    // It never sends what names a committing verb, however it was read.
    expect(classify(click, { ocr: read('Speichem', 10), outlineServed: true }, lenient).kind).toBe(
      'write',
    );
  });

  it('makes no read of a click under a redaction by its label, or by its missing label', () => {
    const lenient = loadRules({ unlabelled_clicks: 'read' });
    const UNDER =
      "click at (5, 6): it lands under this agent's redact_regions, where Warden reads no label, so it is a write";
    const hidden = { redacted: true, outlineServed: true };
    // Unlabelled (the outline's name left out, OCR of black), even where unlabelled_clicks sends such clicks.
    expect(classify(click, { ...hidden, ocr: { unreadable: 'no_text' } }, lenient)).toEqual({
      kind: 'write',
      why: UNDER,
    });
    // Part of a label showing beside the region: "Back" of "Back and Save".
    for (const control of ['command', null] as const) {
      expect(classify(click, { ...hidden, control, ocr: read('Back') }, rules)).toEqual({
        kind: 'write',
        why: UNDER,
      });
      expect(classify(click, { control, ocr: read('Back'), outlineServed: true }, rules).kind).toBe(
        'read',
      );
    }
    // What a role says, and a verb read there, still count.
    expect(classify(click, { ...hidden, control: 'navigation', role: 'tab' }, rules).kind).toBe(
      'read',
    );
    expect(classify(click, { ...hidden, textField: '' }, rules).kind).toBe('read');
    expect(classify(click, { ...hidden, ocr: read('Save') }, rules).why).toBe(
      'click on “Save” (read from the screen by OCR)',
    );
  });

  it('holds anything that is not an action it knows', () => {
    for (const bad of [null, undefined, 'click', {}, { action: 'drag' }]) {
      expect(classify(bad as never, {}, rules)).toEqual({
        kind: 'write',
        why: 'an action Warden does not know is a write',
      });
    }
    expect(classify({ action: 'key', key: 'alt+f4' }, {}, rules)).toEqual({
      kind: 'write',
      why: 'key “Alt+F4” is not a navigation key',
    });
  });
});
