/**
 * The injection rail on one step's screen (issue 16 §2): the text Warden reads there (every outline
 * element's name and value; without an outline, what OCR read for the rules: the label under a
 * click, beside the focused field, the title bar) judged by the detector, for a step whose planner
 * is a model. The detector failing is a verdict too: `suspect`, so the step is held (fail closed).
 * What a step and an approval keep of it: the verdict, the rule and the SHA-256 of the flagged
 * text, never the text (the screen holds it). Pure.
 */
import { sha256Hex } from '../../common/sha256';
import type { OcrReading, OutlineElement, ScreenContext } from '../actions';
import {
  judgeScreenText,
  type RailFinding,
  type RailVerdict,
  type ScreenText,
} from './injection-rail';

/** What a step and its approval record of the rail (`steps.rail`, `approvals.rail`). */
export interface RailRecord {
  verdict: RailVerdict;
  rule: string | null;
  /** SHA-256 of the flagged text; null when clean. */
  text_sha256: string | null;
  source: 'outline' | 'ocr' | null;
  /** Where the flagged text is (outline), for the approver's highlight; null: not known. */
  rect: { x: number; y: number; width: number; height: number } | null;
}

/** Whether the agent's planner is a model (the deployment's default, or one configured). */
export function plannedByModel(planner: unknown): boolean {
  return planner === null || planner === undefined || typeof planner === 'object';
}

/** The texts of a screen the rail reads. */
export function screenTexts(context: ScreenContext): ScreenText[] {
  const texts: ScreenText[] = [];
  if (Array.isArray(context.outline)) {
    for (const e of context.outline as Array<OutlineElement | null | undefined>) {
      if (!e) continue;
      const rect = e.rect ?? null;
      if (typeof e.name === 'string' && e.name !== '') {
        texts.push({ text: e.name, source: 'outline', rect });
      }
      if (typeof e.value === 'string' && e.value !== '') {
        texts.push({ text: e.value, source: 'outline', rect });
      }
    }
  }
  for (const reading of [context.focusLabel, context.titleBar]) {
    const words = ocrWords(reading);
    if (words) texts.push({ text: words, source: 'ocr' });
  }
  return texts;
}

function ocrWords(reading: OcrReading | null | undefined): string | null {
  if (!reading || !('words' in reading) || !Array.isArray(reading.words)) return null;
  const words = reading.words as ReadonlyArray<{ text?: unknown } | null | undefined>;
  const text = words.map((w) => (typeof w?.text === 'string' ? w.text : '')).join(' ');
  return text.trim() === '' ? null : text;
}

/**
 * The rail's record for a screen, failing closed. `also` are OCR readings made besides the
 * context's (the label under a click).
 */
export function railOf(
  context: ScreenContext,
  also: ReadonlyArray<OcrReading | null | undefined> = [],
): RailRecord {
  let finding: RailFinding;
  try {
    const more: ScreenText[] = [];
    for (const reading of also) {
      const words = ocrWords(reading);
      if (words) more.push({ text: words, source: 'ocr' });
    }
    finding = judgeScreenText([...screenTexts(context), ...more]);
  } catch {
    return { verdict: 'suspect', rule: 'rail_error', text_sha256: null, source: null, rect: null };
  }
  const flagged = finding.flagged;
  return {
    verdict: finding.verdict,
    rule: finding.rule,
    text_sha256: flagged ? sha256Hex(flagged.text) : null,
    source: flagged?.source ?? null,
    rect: flagged?.rect ?? null,
  };
}

/** What the rail found on a step's screen, and what follows (`so a person decides`), for its why. */
export function railWhy(rail: RailRecord, then = 'so a person decides'): string {
  const what =
    rail.rule === 'rail_error'
      ? 'the injection rail failed on this screen'
      : `the screen holds text that looks like instructions to the model (${rail.rule ?? 'unknown'}, ${rail.verdict})`;
  return `${what}, ${then}`;
}
