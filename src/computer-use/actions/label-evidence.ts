/**
 * How a step's label was read, kept with the step so that a person can see what the rules saw:
 * the outline's element at the click (role, name, description), or the words OCR read there with
 * their confidences, or why nothing could be read; and the planner's target, which can only make
 * an action stricter. For typing, the field the outline marks focused, or the words OCR read
 * beside it. Pure.
 */
import type { Action, OcrReading, OcrWord, OutlineElement } from './action.types';

/** At most this many OCR words, each at most this many characters, are kept. */
const MAX_WORDS = 20;
const MAX_TEXT = 200;

export interface EvidenceElement {
  id: string;
  role: string;
  name: string;
  description?: string;
  /** Where the element is on the step's screen, as the outline placed it: the approver's marks go around it. */
  rect?: { x: number; y: number; width: number; height: number };
}

export type LabelEvidence = (
  | { source: 'outline'; element: EvidenceElement }
  | { source: 'ocr'; words: OcrWord[] }
  | { source: 'none'; why: string }
) & {
  /** What the label is of: the point clicked, or the field typed into. */
  of: 'click' | 'field';
  /** The planner's target, where it gave one. */
  target?: string;
};

const cut = (text: string) => [...text].slice(0, MAX_TEXT).join('');

function elementOf(e: OutlineElement): EvidenceElement {
  const element: EvidenceElement = {
    id: cut(String(e.id ?? '')),
    role: cut(String(e.role ?? '')),
    name: cut(typeof e.name === 'string' ? e.name : ''),
  };
  if (typeof e.description === 'string' && e.description.trim() !== '') {
    element.description = cut(e.description);
  }
  const r = e.rect;
  if (r && [r.x, r.y, r.width, r.height].every((v) => Number.isFinite(v))) {
    element.rect = { x: r.x, y: r.y, width: r.width, height: r.height };
  }
  return element;
}

function fromOcr(reading: OcrReading | null | undefined): LabelEvidence | null {
  if (!reading) return null;
  if ('unreadable' in reading) {
    return { source: 'none', why: `OCR: ${reading.unreadable}`, of: 'click' };
  }
  const words = reading.words.slice(0, MAX_WORDS).map((w) => ({
    text: cut(w.text),
    confidence: Math.round(w.confidence * 10) / 10,
  }));
  return words.length > 0
    ? { source: 'ocr', words, of: 'click' }
    : { source: 'none', why: 'OCR: no_text', of: 'click' };
}

/**
 * The evidence of a click (the outline's element there, else OCR's reading) or of typing (the
 * focused field, else OCR beside it). Null for other actions.
 */
export function labelEvidence(
  action: Action,
  found: {
    /** The outline's element at the click (not a container), or the focused field. */
    element?: OutlineElement | null;
    ocr?: OcrReading | null;
  },
): LabelEvidence | null {
  const isClick = action.action === 'click' || action.action === 'double_click';
  if (!isClick && action.action !== 'type') return null;
  const of = isClick ? 'click' : 'field';
  let evidence: LabelEvidence;
  if (found.element) {
    evidence = { source: 'outline', element: elementOf(found.element), of };
  } else {
    evidence = { ...(fromOcr(found.ocr) ?? { source: 'none', why: 'nothing was read' }), of };
  }
  if (isClick && typeof action.target === 'string' && action.target.trim() !== '') {
    evidence.target = cut(action.target);
  }
  return evidence;
}
