/**
 * How the console says where the label of an action came from (a step's `label_evidence`), from
 * the browser's own module (browser/label-words.ts). The console e2e tests show it on the approval
 * and run pages.
 */
import type { LabelEvidence } from './browser/api-types';
import { labelEvidenceInWords } from './browser/label-words';

const enter = {
  id: 'toolbar/Enter',
  role: 'button',
  name: 'Enter',
  description: 'Record the current transaction',
  rect: { x: 420, y: 60, width: 48, height: 40 },
};

describe('where the label came from, in the console', () => {
  it("says the outline's element: its role, name and description, and the planner's target", () => {
    expect(labelEvidenceInWords({ source: 'outline', of: 'click', element: enter })).toBe(
      "Read from the application's outline: button “Enter”, described “Record the current transaction”",
    );
    expect(
      labelEvidenceInWords({ source: 'outline', of: 'click', element: enter, target: 'Enter' }),
    ).toBe(
      "Read from the application's outline: button “Enter”, described “Record the current transaction”; the planner's target was “Enter”",
    );
    expect(
      labelEvidenceInWords({
        source: 'outline',
        of: 'field',
        element: { id: 'f1', role: 'textbox', name: 'Req. Deliv. Date' },
      }),
    ).toBe(
      "Read from the application's outline: the field typed into, text field “Req. Deliv. Date”",
    );
    expect(
      labelEvidenceInWords({
        source: 'outline',
        of: 'click',
        element: { id: 'c', role: 'custom-widget', name: '' },
      }),
    ).toBe("Read from the application's outline: custom-widget with no name");
  });

  it('says the words OCR read, each with how sure it was', () => {
    expect(
      labelEvidenceInWords({
        source: 'ocr',
        of: 'click',
        words: [{ text: 'Sichern', confidence: 92.6 }],
      }),
    ).toBe('Read by OCR: “Sichern” (confidence 93%)');
    expect(
      labelEvidenceInWords({
        source: 'ocr',
        of: 'field',
        words: [
          { text: 'Req.', confidence: 88 },
          { text: 'Deliv.', confidence: 35.2 },
        ],
        target: 'date',
      }),
    ).toBe(
      "Read by OCR beside the field typed into: “Req.” (confidence 88%), “Deliv.” (confidence 35%); the planner's target was “date”",
    );
  });

  it("says when nothing could read a label, and that only the planner's target is left", () => {
    const none = (why: string, target?: string): LabelEvidence => ({
      source: 'none',
      of: 'click',
      why,
      ...(target ? { target } : {}),
    });
    expect(labelEvidenceInWords(none('OCR: no_text', 'Save'))).toBe(
      "Nothing could read a label here (OCR found no text there): the planner's target only, “Save”",
    );
    expect(labelEvidenceInWords(none('OCR: timed_out'))).toBe(
      'Nothing could read a label here (OCR took too long)',
    );
    expect(labelEvidenceInWords(none('OCR: failed'))).toBe(
      'Nothing could read a label here (OCR failed)',
    );
    expect(labelEvidenceInWords(none('nothing was read'))).toBe(
      'Nothing could read a label here (nothing read the screen there)',
    );
    // A reason this console does not know is said as it was recorded, not taken for another.
    expect(labelEvidenceInWords(none('constructor'))).toBe(
      'Nothing could read a label here (constructor)',
    );
  });

  it('marks what a person could not see in screen text, and shortens what runs long', () => {
    const words = labelEvidenceInWords({
      source: 'outline',
      of: 'click',
      element: { ...enter, name: 'Pay\u202e01\u00a0', description: 'x'.repeat(500) },
    });
    expect(words).toContain('button “Pay⟨U+202E RIGHT-TO-LEFT OVERRIDE⟩01⟨U+00A0 NO-BREAK SPACE⟩”');
    expect(words).not.toMatch(/[\u202e\u00a0]/);
    expect(words).toContain(`, described “${'x'.repeat(199)}…”`);
    expect(
      labelEvidenceInWords({
        source: 'ocr',
        of: 'click',
        words: [{ text: '\u200bOK', confidence: 97 }],
      }),
    ).toBe('Read by OCR: “⟨U+200B ZERO WIDTH SPACE⟩OK” (confidence 97%)');
  });

  it('says a damaged or unknown record is one, and never throws on it', () => {
    const damaged = (value: unknown) => labelEvidenceInWords(value as LabelEvidence);
    expect(damaged({ source: 'ocr', of: 'click', words: null })).toBe('Read by OCR: no words');
    expect(damaged({ source: 'outline', of: 'click' })).toBe(
      "Read from the application's outline: an element of no role with no name",
    );
    expect(damaged({ source: 'uia', of: 'click' })).toBe(
      'Warden kept how it read the label in a form this console does not know',
    );
    expect(damaged({ source: 'none', of: 'click', why: 7 })).toBe(
      'Nothing could read a label here (no reason recorded)',
    );
  });
});
