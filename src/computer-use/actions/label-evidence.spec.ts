import type { Action, OutlineElement } from './action.types';
import { checkAction } from './check-action';
import { labelEvidence } from './label-evidence';
import { loadRules } from './rules';

const enter: OutlineElement = {
  id: ':1.9/org/a11y/atspi/accessible/520',
  role: 'button',
  name: 'Enter',
  description: 'Record the current transaction',
  rect: { x: 390, y: 29, width: 87, height: 56 },
  area: 'toolbar',
};
const click = (target?: string): Action => ({ action: 'click', x: 433, y: 57, target });

describe('label evidence', () => {
  it("a click on an outline element: its id, role, name, description and rect, and the planner's target", () => {
    expect(labelEvidence(click('Enter button'), { element: enter })).toEqual({
      source: 'outline',
      of: 'click',
      element: {
        id: ':1.9/org/a11y/atspi/accessible/520',
        role: 'button',
        name: 'Enter',
        description: 'Record the current transaction',
        rect: { x: 390, y: 29, width: 87, height: 56 },
      },
      target: 'Enter button',
    });
  });

  it('a click OCR read: its words and their confidences', () => {
    const ocr = { words: [{ text: 'Enter', confidence: 91.234 }] };
    expect(labelEvidence(click(), { element: null, ocr })).toEqual({
      source: 'ocr',
      of: 'click',
      words: [{ text: 'Enter', confidence: 91.2 }],
    });
  });

  it('a click OCR read keeps the box of the line it read, and drops one that is not numbers', () => {
    const box = { x: 10, y: 20, width: 48, height: 14 };
    expect(
      labelEvidence(click(), { ocr: { words: [{ text: 'Save', confidence: 90 }], box } }),
    ).toEqual({ source: 'ocr', of: 'click', words: [{ text: 'Save', confidence: 90 }], box });
    const broken = { x: 10, y: Number.NaN, width: 48, height: 14 };
    expect(
      labelEvidence(click(), { ocr: { words: [{ text: 'Save', confidence: 90 }], box: broken } }),
    ).not.toHaveProperty('box');
  });

  it('nothing read: why', () => {
    expect(labelEvidence(click(), { ocr: { unreadable: 'timed_out' } })).toEqual({
      source: 'none',
      of: 'click',
      why: 'OCR: timed_out',
    });
    expect(labelEvidence(click(), { ocr: { words: [] } })).toMatchObject({ why: 'OCR: no_text' });
    expect(labelEvidence(click(), {})).toMatchObject({ source: 'none', why: 'nothing was read' });
  });

  it("typing: the focused field, never its value; else OCR's words beside it", () => {
    const pin: OutlineElement = {
      id: 'pin',
      role: 'passwordfield',
      name: 'PIN',
      rect: { x: 0, y: 0, width: 10, height: 10 },
      password: true,
      value: 'never',
    };
    const typing: Action = { action: 'type', text: 'x' };
    const evidence = labelEvidence(typing, { element: pin });
    expect(evidence).toEqual({
      source: 'outline',
      of: 'field',
      element: {
        id: 'pin',
        role: 'passwordfield',
        name: 'PIN',
        rect: { x: 0, y: 0, width: 10, height: 10 },
      },
    });
    expect(JSON.stringify(evidence)).not.toContain('never');
    expect(
      labelEvidence(typing, { ocr: { words: [{ text: 'Amount', confidence: 80 }] } }),
    ).toMatchObject({ source: 'ocr', of: 'field' });
  });

  it('other actions have none; long OCR readings are bounded', () => {
    expect(labelEvidence({ action: 'key', key: 'Tab' }, { element: enter })).toBeNull();
    const words = Array.from({ length: 50 }, () => ({ text: 'x'.repeat(300), confidence: 50 }));
    const evidence = labelEvidence(click(), { ocr: { words } });
    expect(evidence).toMatchObject({ source: 'ocr' });
    if (evidence?.source !== 'ocr') throw new Error('ocr expected');
    expect(evidence.words).toHaveLength(20);
    expect(evidence.words[0].text).toHaveLength(200);
  });

  it('typing into a dialog: the field the host marks focused, not what lies under the point last clicked', () => {
    // A Qt Save dialog opened by a click on the menu's Save: under that point now lies the dialog's
    // file list; the keyboard is in its file name field, which the host marks focused.
    const files: OutlineElement = {
      id: 'files',
      role: 'table',
      name: 'Files',
      rect: { x: 20, y: 40, width: 400, height: 200 },
    };
    const fileName: OutlineElement = {
      id: 'name',
      role: 'textbox',
      name: 'File name:',
      rect: { x: 100, y: 260, width: 300, height: 24 },
      focused: true,
      states: ['editable', 'focused'],
    };
    const verdict = checkAction(
      { action: 'type', text: 'note.txt' },
      { width: 800, height: 600, outline: [files, fileName], focus: files },
      loadRules(),
    );
    expect(verdict.labelEvidence).toMatchObject({
      source: 'outline',
      of: 'field',
      element: { id: 'name', role: 'textbox', name: 'File name:' },
    });
  });
});
