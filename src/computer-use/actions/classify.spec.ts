import type { Action } from './action.types';
import { classify } from './classify';
import { loadRules } from './rules';

const rules = loadRules();
const click: Action = { action: 'click', x: 5, y: 6 };

describe('classify', () => {
  it('counts both the given target and the action’s own target, only to make it stricter', () => {
    const a: Action = { action: 'click', x: 1, y: 1, target: 'Delete row' };
    expect(classify(a, { outline: 'Display', target: 'Display' }, rules)).toEqual({
      kind: 'write',
      why: "click on “Delete row” (the planner's target)",
    });
    expect(classify(click, { outline: 'Display', target: 'Sichern' }, rules).kind).toBe('write');
    expect(classify(click, { target: 'Display' }, rules)).toEqual({
      kind: 'read',
      why: 'click at (5, 6): nothing could read its label',
    });
  });

  it('names the first source, in DESIGN order, that holds a committing verb', () => {
    expect(classify(click, { outline: 'Save', ocr: 'Post', target: 'Pay' }, rules).why).toBe(
      'click on “Save” (from the screen outline)',
    );
    expect(classify(click, { outline: 'Display', ocr: 'Post', target: 'Pay' }, rules).why).toBe(
      'click on “Post” (read from the screen by OCR)',
    );
  });

  it('takes missing, null, blank and non-string labels as nothing read', () => {
    for (const labels of [
      {},
      { outline: null, ocr: null },
      { outline: '  ', ocr: '\u200b' },
      null,
    ]) {
      expect(classify(click, labels as never, rules).why).toBe(
        'click at (5, 6): nothing could read its label',
      );
    }
    expect(classify(click, { outline: 42 as unknown as string }, rules).kind).toBe('read');
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
