/**
 * How a step's label was read, kept with the step so that a person can see what the rules saw:
 * the outline's element at the click (role, name, description), or the words OCR read there with
 * their confidences and the box of the line they are on, or why nothing could be read; and the planner's target, which can only make
 * an action stricter. For typing, the field the outline marks focused, or the words OCR read
 * beside it. Pure.
 */
import type { Action, OcrReading, OcrWord, OutlineElement } from './action.types';

/** At most this many OCR words, each at most this many characters, are kept. */
const MAX_WORDS = 20;
const MAX_TEXT = 200;

type EvidenceRect = { x: number; y: number; width: number; height: number };

/** A rectangle of whole, finite numbers as it was given, else none. */
function rectOf(r: Partial<EvidenceRect> | null | undefined): EvidenceRect | undefined {
  if (!r) return undefined;
  const { x, y, width, height } = r;
  return [x, y, width, height].every((v) => Number.isFinite(v))
    ? { x: x!, y: y!, width: width!, height: height! }
    : undefined;
}

export interface EvidenceElement {
  id: string;
  role: string;
  name: string;
  description?: string;
  /** Where the element is on the step's screen, as the outline placed it: the approver's marks go around it. */
  rect?: EvidenceRect;
}

/** A field typed text could reach after a Tab, as it was judged (focus-reach.ts). */
export interface ReachedField {
  id: string;
  role: string;
  name: string;
  /** The outline marked it a password field (it was refused then: kept for a record's reader). */
  password?: true;
}

export type LabelEvidence = (
  | { source: 'outline'; element: EvidenceElement }
  | { source: 'ocr'; words: OcrWord[]; box?: EvidenceRect }
  | { source: 'none'; why: string }
) & {
  /** What the label is of: the point clicked, or the field typed into. */
  of: 'click' | 'field';
  /** The planner's target, where it gave one. */
  target?: string;
  /**
   * Typing whose text goes on after a Tab: every field the rest of it could reach, each judged by
   * the rules (a routine saved from the run judges them again). Absent: all of it went into the
   * field typed into.
   */
  reached?: ReachedField[];
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
  const rect = rectOf(e.rect);
  if (rect) element.rect = rect;
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
  if (words.length === 0) return { source: 'none', why: 'OCR: no_text', of: 'click' };
  const box = rectOf(reading.box);
  return box ? { source: 'ocr', words, box, of: 'click' } : { source: 'ocr', words, of: 'click' };
}

function reachedOf(e: OutlineElement): ReachedField {
  const field: ReachedField = {
    id: cut(String(e.id ?? '')),
    role: cut(String(e.role ?? '')),
    name: cut(typeof e.name === 'string' ? e.name : ''),
  };
  if (e.password === true) field.password = true;
  return field;
}

/**
 * The evidence of a click (the outline's element there, else OCR's reading) or of typing (the
 * focused field, else OCR beside it, and the fields the text reaches after a Tab). Null for other
 * actions.
 */
export function labelEvidence(
  action: Action,
  found: {
    /** The outline's element at the click (not a container), or the focused field. */
    element?: OutlineElement | null;
    ocr?: OcrReading | null;
    /** Typing: the fields its text reaches after a Tab (focus-reach.ts). */
    reached?: readonly OutlineElement[];
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
  if (!isClick && found.reached) evidence.reached = found.reached.map(reachedOf);
  return evidence;
}
