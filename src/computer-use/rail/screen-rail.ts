/**
 * The injection rail on one step's screen (issue 16 §2): the text Warden reads there (every outline
 * element's name and value; without an outline, every line OCR reads on the whole screen, and
 * what it read for the rules: the label under a click, beside the focused field, the title bar)
 * judged by the detector, for a step whose planner is a model. Where the screen's pixels are at hand, a text the outline says is drawn in its
 * element is looked at there too: drawn with no contrast, it was not meant for a person. The detector failing is a verdict too: `suspect`, so the step is held (fail closed).
 * What a step and an approval keep of it: the verdict, the rule and the SHA-256 of the flagged
 * text, never the text (the screen holds it). Pure.
 */
import { sha256Hex } from '../../common/sha256';
import type { OcrReading, OutlineElement, Rect, ScreenContext } from '../actions';
import type { RgbaImage } from '../ocr/glyph-components';
import { pixelRects } from '../pixels/pixels';
import { underRegion } from '../actions/label-at';
import {
  HIDDEN_WORDS,
  judgeScreenText,
  type RailFinding,
  type RailVerdict,
  type ScreenText,
} from './injection-rail';
import { faintText } from './text-contrast';

/** The step's screen as the rail may look at it: its pixels, and what was blacked out on them. */
export interface RailPixels {
  /** The screenshot as stored (redacted where the agent redacts), decoded; called at most once. */
  image: () => RgbaImage;
  /** The agent's `redact_regions`: black there says nothing about the text. */
  redacted: readonly Rect[];
}

/**
 * Roles whose name is not drawn inside the element's box: a field's label sits beside it, a
 * picture's name describes it, a container's names what it holds. Their value, if any, is.
 */
const NAME_NOT_DRAWN = new Set([
  'textbox',
  'combobox',
  'searchbox',
  'spinbutton',
  'image',
  'img',
  'icon',
  'graphic',
  'window',
  'dialog',
  'alertdialog',
  'pane',
  'group',
  'region',
  'form',
  'document',
  'application',
  'list',
  'table',
  'grid',
  'tree',
  'treegrid',
  'toolbar',
  'menu',
  'menubar',
  'tablist',
  'tabpanel',
  'scrollbar',
  'separator',
  'progressbar',
  'slider',
]);

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

/** The texts of a screen the rail reads; with its pixels, whether the drawn ones can be seen. */
export function screenTexts(context: ScreenContext, pixels?: RailPixels): ScreenText[] {
  const texts: ScreenText[] = [];
  const faint = pixels ? faintness(context, pixels) : () => undefined;
  if (Array.isArray(context.outline)) {
    for (const e of context.outline as Array<OutlineElement | null | undefined>) {
      if (!e) continue;
      const rect = e.rect ?? null;
      if (typeof e.name === 'string' && e.name !== '') {
        const drawn = !NAME_NOT_DRAWN.has(String(e.role).toLowerCase());
        texts.push(withFaint({ text: e.name, source: 'outline', rect }, drawn ? faint : null));
      }
      if (typeof e.value === 'string' && e.value !== '') {
        texts.push(withFaint({ text: e.value, source: 'outline', rect }, faint));
      }
      // A tooltip is not drawn until hovered: judged by its words, not its contrast.
      if (typeof e.description === 'string' && e.description !== '') {
        texts.push({ text: e.description, source: 'outline', rect });
      }
    }
  }
  for (const reading of [context.focusLabel, context.titleBar]) {
    const words = ocrWords(reading);
    if (words) texts.push({ text: words, source: 'ocr' });
  }
  return texts;
}

type Faintness = (text: string, rect: Rect | null) => boolean | undefined;

function withFaint(piece: ScreenText, faint: Faintness | null): ScreenText {
  const found = faint?.(piece.text, piece.rect ?? null);
  return found === undefined ? piece : { ...piece, faint: found };
}

/**
 * Looks at the pixels of a text long enough to count as hidden (the detector's HIDDEN_WORDS),
 * outside the redacted regions; the screen is decoded at the first such text, not before.
 */
function faintness(context: ScreenContext, pixels: RailPixels): Faintness {
  let image: RgbaImage | undefined;
  return (text, rect) => {
    if (!rect || text.trim().split(/\s+/).length < HIDDEN_WORDS) return undefined;
    if (underRegion(rect, pixels.redacted)) return undefined;
    image ??= pixels.image();
    const [box] = pixelRects([rect], image, context);
    const scale = image.width / context.width;
    return box ? (faintText(image, box, text.length, scale) ?? undefined) : undefined;
  };
}

function ocrWords(reading: OcrReading | null | undefined): string | null {
  if (!reading || !('words' in reading) || !Array.isArray(reading.words)) return null;
  const words = reading.words as ReadonlyArray<{ text?: unknown } | null | undefined>;
  const text = words.map((w) => (typeof w?.text === 'string' ? w.text : '')).join(' ');
  return text.trim() === '' ? null : text;
}

/** What the rail reads on a screen besides its context. */
export interface RailInputs {
  /** OCR readings made besides the context's (the label under a click). */
  also?: ReadonlyArray<OcrReading | null | undefined>;
  /** The screen's pixels, for text drawn faint. */
  pixels?: RailPixels;
  /**
   * The lines OCR read on the whole screen, where the host serves no outline (the model reads
   * the screenshot itself); `failed` when that read failed or timed out: the rail fails closed.
   */
  screenText?: ReadonlyArray<{ text: string; rect: Rect }> | 'failed';
}

/** The rail's record for a screen, failing closed. */
export function railOf(context: ScreenContext, inputs: RailInputs = {}): RailRecord {
  let finding: RailFinding;
  try {
    const { also = [], pixels, screenText } = inputs;
    if (screenText === 'failed') throw new Error('the screen could not be read');
    const more: ScreenText[] = [];
    for (const reading of also) {
      const words = ocrWords(reading);
      if (words) more.push({ text: words, source: 'ocr' });
    }
    for (const line of screenText ?? []) {
      more.push({ text: line.text, source: 'ocr', rect: line.rect });
    }
    finding = judgeScreenText([...screenTexts(context, pixels), ...more]);
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
