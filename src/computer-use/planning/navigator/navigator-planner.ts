/**
 * The navigator (docs/models.md): a planner that asks no language model. It encodes the run's goal and
 * the name of each pressable control on the screen with word vectors, and presses (clicks the
 * centre of) the control of lowest energy it has not pressed in this run. It answers `done` when
 * none is left, after 8 presses, or when it cannot see controls; it never types. Its presses are
 * judged by Warden's rules like any planner's: a press on a committing control is held.
 */
import { loadRules, maskCardNumbers, type Rules } from '../../actions';
import type {
  ModelUsage,
  Planner,
  PlanningContext,
  PlanResult,
} from '../../planner-contract/planner';
import { type Control, pressableControls } from './controls';
import { encode } from './encoder';
import { energies } from './energy';
import { shippedWordVectors, type WordVectors } from './word-vectors';

/** The navigator's planner id (docs/models.md): a planner that asks no language model. */
export const NAVIGATOR_PLANNER_ID = 'navigator-2026-11-10-normal';
/** Presses in one run, then it answers done. */
export const NAVIGATOR_MAX_PRESSES = 8;
/** Controls whose energies a step's notes give. */
export const NOTES_SHOWN = 5;

/** What the navigator keeps with the run: the names it pressed, in order. */
export interface NavigatorState {
  pressed: string[];
}

/** A control with its energy for the task, and whether the run pressed one of that name. */
export interface Ranked {
  name: string;
  energy: number;
  pressed: boolean;
}

export type Choice =
  | { kind: 'press'; control: Control; ranked: Ranked[]; unencoded: string[] }
  | { kind: 'done'; summary: string; ranked: Ranked[]; unencoded: string[] };

/**
 * The control to press for the task: the lowest energy among the encodable controls whose name
 * the run has not pressed (ties: the first in outline order). m is the mean over every encodable
 * control of the screen, pressed ones included: it describes the screen, not the choice left.
 */
export function choose(
  task: string,
  controls: readonly Control[],
  pressed: ReadonlySet<string>,
  vectors: WordVectors,
): Choice {
  const encoded = controls.map((c) => ({ control: c, vector: encode(c.name, vectors).vector }));
  const usable = encoded.filter(
    (e): e is { control: Control; vector: Float64Array } => e.vector !== null,
  );
  const unencoded = [
    ...new Set(encoded.filter((e) => e.vector === null).map((e) => e.control.name)),
  ];
  const goal = encode(task, vectors).vector;
  if (!goal) {
    return {
      kind: 'done',
      summary: 'the navigator knows no word of the task, so it cannot tell which control is nearer',
      ranked: [],
      unencoded,
    };
  }
  const e = energies(
    goal,
    usable.map((u) => u.vector),
  );
  const order = usable.map((u, i) => ({ ...u, energy: e[i], i }));
  order.sort((a, b) => a.energy - b.energy || a.i - b.i);
  const ranked: Ranked[] = [];
  const seen = new Set<string>();
  for (const o of order) {
    if (seen.has(o.control.name)) continue;
    seen.add(o.control.name);
    ranked.push({ name: o.control.name, energy: o.energy, pressed: pressed.has(o.control.name) });
  }
  const next = order.find((o) => !pressed.has(o.control.name));
  if (!next) {
    const summary =
      controls.length === 0
        ? 'no control on this screen can be pressed'
        : usable.length === 0
          ? 'the navigator knows no word of any control on this screen'
          : 'every control on this screen that it can read has been pressed in this run';
    return { kind: 'done', summary, ranked, unencoded };
  }
  return { kind: 'press', control: next.control, ranked, unencoded };
}

/**
 * The step's notes: the energies of the five best controls, and what it does. The names are the
 * screen's; a card number in one is masked, as in any step record.
 */
export function notesOf(choice: Choice, presses: number): string {
  const best = choice.ranked
    .slice(0, NOTES_SHOWN)
    .map((r) => `${r.energy.toFixed(3)} ${JSON.stringify(r.name)}${r.pressed ? ' (pressed)' : ''}`);
  const parts = [
    choice.ranked.length === 0
      ? 'no energies'
      : `energy 1 − cos(task − m, control − m) over ${choice.ranked.length} controls, lowest first: ${best.join(', ')}`,
  ];
  if (choice.unencoded.length > 0) {
    const names = choice.unencoded.slice(0, NOTES_SHOWN).map((n) => JSON.stringify(n));
    const more =
      choice.unencoded.length > NOTES_SHOWN
        ? ` and ${choice.unencoded.length - NOTES_SHOWN} more`
        : '';
    parts.push(`no known word in ${names.join(', ')}${more}`);
  }
  parts.push(
    choice.kind === 'press'
      ? `presses ${JSON.stringify(choice.control.name)} (press ${presses + 1} of ${NAVIGATOR_MAX_PRESSES})`
      : `done: ${choice.summary}`,
  );
  return maskCardNumbers(parts.join('; '));
}

/**
 * The names pressed so far, from the state it kept; null when the state is not one it stores. A
 * press the screen host did not make (the frame rule: `screen_changed`) is taken back.
 */
export function pressedSoFar(
  state: unknown,
  lastOutcome: string | null | undefined,
): string[] | null {
  if (state === null || state === undefined) return [];
  if (typeof state !== 'object' || Array.isArray(state)) return null;
  const pressed = (state as { pressed?: unknown }).pressed;
  if (
    !Array.isArray(pressed) ||
    pressed.length > NAVIGATOR_MAX_PRESSES ||
    !pressed.every((n) => typeof n === 'string')
  ) {
    return null;
  }
  const names = [...pressed];
  if (lastOutcome === 'screen_changed') names.pop();
  return names;
}

function thrownBy(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('the step was aborted', 'AbortError');
}

export class NavigatorPlanner implements Planner {
  constructor(
    private readonly vectors: () => Promise<WordVectors> = shippedWordVectors,
    private readonly rules: Rules = loadRules(),
  ) {}

  async plan(context: PlanningContext): Promise<PlanResult> {
    const started = performance.now();
    if (context.signal.aborted) throw thrownBy(context.signal);
    const pressed = pressedSoFar(context.state, context.history.at(-1)?.outcome);
    const answer = (
      action: Record<string, unknown>,
      notes: string,
      state: unknown,
    ): PlanResult => ({
      action,
      state,
      model: usage(started, notes),
    });
    if (pressed === null) {
      const reason = 'the navigator lost its place: its state is not one it stored';
      return answer({ action: 'fail', reason }, reason, context.state);
    }
    const kept: NavigatorState = { pressed };
    const { outline } = context.screen;
    if (!Array.isArray(outline)) {
      const summary =
        'the navigator cannot see controls: the screen host serves no element outline (GET /elements)';
      return answer({ action: 'done', summary }, `done: ${summary}`, kept);
    }
    if (pressed.length >= NAVIGATOR_MAX_PRESSES) {
      const summary = `pressed ${NAVIGATOR_MAX_PRESSES} controls, as many as it presses in a run`;
      return answer({ action: 'done', summary }, `done: ${summary}`, kept);
    }
    const vectors = await this.vectors();
    if (context.signal.aborted) throw thrownBy(context.signal);
    const controls = pressableControls(outline, context.screen, this.rules);
    const choice = choose(context.goal, controls, new Set(pressed), vectors);
    const notes = notesOf(choice, pressed.length);
    if (choice.kind === 'done')
      return answer({ action: 'done', summary: choice.summary }, notes, kept);
    const { name, x, y } = choice.control;
    return answer({ action: 'click', x, y, target: name }, notes, {
      pressed: [...pressed, name],
    } satisfies NavigatorState);
  }
}

/** The step's usage: no model, no tokens, no cost; its own decision time and its notes. */
function usage(started: number, notes: string): ModelUsage {
  return {
    provider: 'navigator',
    model: NAVIGATOR_PLANNER_ID,
    input_tokens: 0,
    output_tokens: 0,
    latency_ms: Math.round(performance.now() - started),
    cost_usd: 0,
    calls: 0,
    notes,
  };
}
