/**
 * How Warden read the label it judged an action by (a step's `label_evidence`), in words an
 * approver understands: the application's outline (the element's role, name and description),
 * OCR (the words with their confidences), or nothing, leaving only the planner's target. Every
 * piece of screen text is the screen's, so hostile: it is marked and shortened as all shown text
 * is (typed-words.ts), and goes into the page as text only. Pure.
 */
import type { LabelEvidence, OcrWord } from './api-types';
import { shown } from './typed-words';

/** Screen text in quotes, its invisible characters marked, at most `max` characters. */
const quoted = (text: string, max = 120) => `“${shown(text, max)}”`;

/** What the roles the rules know are called in words; another role is said as it is. */
const ROLES: Readonly<Record<string, string>> = {
  button: 'button',
  textbox: 'text field',
  checkbox: 'checkbox',
  radio: 'radio button',
  combobox: 'drop-down list',
  menuitem: 'menu item',
  menu: 'menu',
  tab: 'tab',
  link: 'link',
  cell: 'table cell',
  status: 'status bar',
  dialog: 'dialog',
  title: 'window title',
};

/** Why nothing read a label, as the step records it (docs/api.md), in words. */
const NOTHING_READ: Readonly<Record<string, string>> = {
  'OCR: no_text': 'OCR found no text there',
  'OCR: failed': 'OCR failed',
  'OCR: timed_out': 'OCR took too long',
  'nothing was read': 'nothing read the screen there',
};

/** Text of the record, as a string whatever it holds (an older or a damaged record). */
const text = (value: unknown) => (typeof value === 'string' ? value : '');

function roleInWords(role: string): string {
  if (role.trim() === '') return 'an element of no role';
  return Object.hasOwn(ROLES, role) ? ROLES[role] : shown(role, 40);
}

/** `“Sichern” (confidence 93%)`, each word OCR read with how sure it was. */
function wordsInWords(words: readonly OcrWord[]): string {
  const read: readonly Partial<OcrWord>[] = Array.isArray(words) ? words : [];
  if (read.length === 0) return 'no words';
  return read
    .map((w) => {
      const sure =
        typeof w?.confidence === 'number' && Number.isFinite(w.confidence)
          ? ` (confidence ${Math.round(w.confidence)}%)`
          : '';
      return `${quoted(text(w?.text), 60)}${sure}`;
    })
    .join(', ');
}

/**
 * The evidence in one sentence: `Read from the application's outline: button “Enter”, described
 * “Record the current transaction”`; `Read by OCR: “Sichern” (confidence 93%)`; `Nothing could read
 * a label here (OCR found no text there): the planner's target only, “Save”`. For typing, the
 * field typed into. Evidence of a shape this console does not know is said to be so.
 */
export function labelEvidenceInWords(evidence: LabelEvidence): string {
  const field = evidence.of === 'field';
  const target = text(evidence.target).trim() !== '' ? quoted(text(evidence.target)) : null;
  const aimed = target ? `; the planner's target was ${target}` : '';
  switch (evidence.source) {
    case 'outline': {
      const { role, name, description } = evidence.element ?? {};
      const named = text(name).trim() ? ` ${quoted(text(name))}` : ' with no name';
      const described = text(description).trim()
        ? `, described ${quoted(text(description), 200)}`
        : '';
      const what = `${roleInWords(text(role))}${named}${described}`;
      return field
        ? `Read from the application's outline: the field typed into, ${what}${aimed}`
        : `Read from the application's outline: ${what}${aimed}`;
    }
    case 'ocr': {
      const where = field ? 'Read by OCR beside the field typed into' : 'Read by OCR';
      return `${where}: ${wordsInWords(evidence.words)}${aimed}`;
    }
    case 'none': {
      const recorded = text(evidence.why);
      const why = Object.hasOwn(NOTHING_READ, recorded)
        ? NOTHING_READ[recorded]
        : shown(recorded || 'no reason recorded', 80);
      const nothing = `Nothing could read a label here (${why})`;
      return target ? `${nothing}: the planner's target only, ${target}` : nothing;
    }
    default:
      return 'Warden kept how it read the label in a form this console does not know';
  }
}
