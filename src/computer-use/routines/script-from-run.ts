/**
 * A completed run as a script (routine runs, docs/planners.md "Routine runs"): each action that was
 * sent becomes a step, aimed at the element it hit (role and name from the outline at that step;
 * the point only where the outline named nothing there), and waits for the screen it was sent on
 * (its title). Refused actions, actions the frame rule stopped, writes not sent and waits are left
 * out; the run's `done` keeps its summary. Typed text holding a parameter's value names the
 * parameter instead (`{"order": "4711"}` makes `4711` `{{order}}`, also in titles, element names
 * and the summary). Typing into a secret field is never saved, nor typing that went on after a
 * Tab where a field it could reach is one, or where the run did not record which it could reach.
 * Pure; the script is then checked like any other (check-script.ts).
 */
import {
  findSecretFieldWord,
  focusMoves,
  type LabelEvidence,
  moveInWords,
  type Rules,
} from '../actions';
import { escapePattern, type Params } from '../planning/script-params';
import { SCRIPT_LIMITS, type ScriptStep } from '../planning/script.types';

/** What the builder reads of a recorded step. */
export interface RecordedStep {
  n: number;
  action: Record<string, unknown> | null;
  outcome: string | null;
  labelEvidence: LabelEvidence | null;
  screenTitle: string | null;
}

/** Outcomes of a step whose action reached the screen. */
const SENT = new Set(['sent', 'sent_after_approval', 'staged']);
const SCREEN_ACTIONS = new Set(['click', 'double_click', 'type', 'key', 'scroll']);

export type Built =
  | { ok: true; script: { steps: ScriptStep[]; parameters?: string[] }; from: number[] }
  | { ok: false; error: string };

type Piece = { text: string } | { param: string };

/** The text cut where a parameter's value occurs (longer values first). */
function pieces(text: string, params: Params): Piece[] {
  const values = Object.entries(params).sort((a, b) => b[1].length - a[1].length);
  let out: Piece[] = [{ text }];
  for (const [name, value] of values) {
    out = out.flatMap((p) => {
      if (!('text' in p)) return [p];
      const parts = p.text.split(value);
      const cut: Piece[] = [];
      parts.forEach((part, i) => {
        if (i > 0) cut.push({ param: name });
        if (part !== '') cut.push({ text: part });
      });
      return cut;
    });
  }
  return out;
}

const asText = (ps: Piece[]) => ps.map((p) => ('text' in p ? p.text : `{{${p.param}}}`)).join('');
const asPattern = (ps: Piece[]) =>
  ps.map((p) => ('text' in p ? escapePattern(p.text) : `{{${p.param}}}`)).join('');

/** The label of the field a `type` went into, as its evidence has it (and whether OCR read it). */
function fieldLabel(evidence: LabelEvidence | null): { label: string; ocr: boolean } | null {
  if (!evidence || evidence.of !== 'field') return null;
  if (evidence.source === 'outline') return { label: evidence.element.name, ocr: false };
  if (evidence.source === 'ocr')
    return { label: evidence.words.map((w) => w.text).join(' '), ocr: true };
  return null;
}

/**
 * Why a step's typing that went on after a Tab or a newline is not saved, or null (docs/rules.md,
 * "Never typed": wherever the keystrokes land): the text after it went into other fields, and the
 * step must have recorded every field it could reach (a step recorded before Warden judged them,
 * or text after a newline, did not), none of them a password field or one whose name names a
 * secret field's word by today's rules.
 */
function reachedSecret(step: RecordedStep, text: string, rules: Rules): string | null {
  const moves = focusMoves(text);
  if (moves === null) return null;
  const went = `step ${step.n} typed text that goes on after ${moveInWords(moves.first)}`;
  const never = 'what is typed there is never saved, in a script or a parameter';
  if (moves.newline !== null) {
    return `step ${step.n} typed text that goes on after ${moveInWords(moves.newline)}, which presses Enter: the text after it went into a field of a screen nobody judged it on, and ${never}`;
  }
  const reached = step.labelEvidence?.reached;
  if (!Array.isArray(reached)) {
    return `${went}, and the run did not record which fields that text could reach: it may be a secret, and ${never}`;
  }
  for (const field of reached) {
    const name = typeof field?.name === 'string' ? field.name : '';
    if (field?.password === true) {
      return `${went}, which could reach ${JSON.stringify(name)}, a password field: ${never}`;
    }
    const secret = findSecretFieldWord(name, rules.secretFields, false);
    if (secret) {
      return `${went}, which could reach ${JSON.stringify(name)}, a field for a ${secret.spelling}: ${never}`;
    }
  }
  return null;
}

/** The element a click hit, as a script aims at it; null where the outline named nothing there. */
function clickedElement(evidence: LabelEvidence | null): { role: string; name: string } | null {
  if (!evidence || evidence.of !== 'click' || evidence.source !== 'outline') return null;
  const { role, name } = evidence.element;
  if (role.trim() === '' || name.trim() === '') return null;
  if ([...role].length > SCRIPT_LIMITS.roleMax || [...name].length > SCRIPT_LIMITS.nameMax) {
    return null;
  }
  return { role, name };
}

/** The script a completed run's steps make, or why it cannot be saved (naming the step). */
export function scriptFromRun(steps: readonly RecordedStep[], params: Params, rules: Rules): Built {
  const out: ScriptStep[] = [];
  const from: number[] = [];
  const used = new Set<string>();
  const ordered = [...steps].sort((a, b) => a.n - b.n);
  for (const step of ordered) {
    const action = step.action;
    if (!action || typeof action.action !== 'string') continue;
    const kind = action.action;
    const when =
      step.screenTitle && step.screenTitle.trim() !== ''
        ? { text: `^${asPattern(pieces(step.screenTitle, params))}$` }
        : undefined;
    if (kind === 'done' && step.outcome === 'ended') {
      const summary = pieces(typeof action.summary === 'string' ? action.summary : '', params);
      out.push({
        step: `run step ${step.n}`,
        ...(when ? { when } : {}),
        action: { action: 'done', summary: asText(summary) },
      });
      from.push(step.n);
      continue;
    }
    if (!step.outcome || !SENT.has(step.outcome) || !SCREEN_ACTIONS.has(kind)) continue;
    let scripted: Record<string, unknown>;
    if (kind === 'type') {
      const text = typeof action.text === 'string' ? action.text : '';
      const field = fieldLabel(step.labelEvidence);
      const secret = field && findSecretFieldWord(field.label, rules.secretFields, field.ocr);
      if (secret) {
        return {
          ok: false,
          error: `step ${step.n} typed into ${JSON.stringify(field.label)}, a field for a ${secret.spelling}: what is typed there is never saved, in a script or a parameter`,
        };
      }
      const through = reachedSecret(step, text, rules);
      if (through) return { ok: false, error: through };
      const typed = pieces(text, params);
      for (const p of typed) if ('param' in p) used.add(p.param);
      scripted = { action: 'type', text: asText(typed) };
    } else if (kind === 'click' || kind === 'double_click') {
      const element = clickedElement(step.labelEvidence);
      scripted = element
        ? {
            action: kind,
            element: { role: element.role, name: asText(pieces(element.name, params)) },
          }
        : { action: kind, x: action.x, y: action.y };
    } else if (kind === 'key') {
      scripted = { action: 'key', key: action.key };
    } else {
      scripted = {
        action: 'scroll',
        x: action.x,
        y: action.y,
        direction: action.direction,
        amount: action.amount,
      };
    }
    out.push({ step: `run step ${step.n}`, ...(when ? { when } : {}), action: scripted as never });
    from.push(step.n);
  }
  const last = out.at(-1);
  if (!last || last.action.action !== 'done') {
    return { ok: false, error: 'the run has no done step: only a run that answered done is saved' };
  }
  for (const [name, value] of Object.entries(params)) {
    if (!used.has(name)) {
      return {
        ok: false,
        error: `parameter ${name}: ${JSON.stringify(value)} is not text the run typed`,
      };
    }
  }
  const names = Object.keys(params);
  return {
    ok: true,
    script: { ...(names.length > 0 ? { parameters: names } : {}), steps: out },
    from,
  };
}
