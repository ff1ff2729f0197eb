/**
 * The scripted planner (docs/models.md): answers the steps of a checked script one by one, asking no
 * model. Its cursor is the run's planner state (`{next}`). A step that waits (`when`, or an
 * `element` to aim at) looks again every 0.5 s through `context.look()`, up to its patience, and
 * the screen it finally decides on goes back to the engine with the action.
 */
import {
  compilePattern,
  type CompiledPattern,
  matchesOne,
  type OutlineElement,
  type TenantPattern,
} from '../actions';
import type {
  ObservedScreen,
  Planner,
  PlanningContext,
  PlanResult,
} from '../planner-contract/planner';
import { scriptSha256 } from '../planner-contract/script-sha256';
import {
  type ElementRef,
  type Script,
  SCRIPT_LIMITS,
  type ScriptAction,
  type ScriptCondition,
  type ScriptStep,
} from './script.types';
import { fallbackGoal, filledStep } from './script-fallback';
import type { Params } from './script-params';

/**
 * What the scripted planner stores with the run after each step: the index of the next step; after
 * a fallback's answer, that the step is still to be taken and what the fallback kept.
 */
export interface ScriptedPlannerState {
  next: number;
  fallback?: true;
  model?: unknown;
}

type KeptState = ScriptedPlannerState;

export interface ScriptedPlannerOptions {
  /** Milliseconds between two looks; 500 unless a test says otherwise. */
  pollMs?: number;
  /** The model planner that plans a step whose `when` does not hold (the script's `fallback`). */
  fallback?: Planner;
}

const TARGET_MAX = 200;

/** The element of the outline with exactly this role and name (case-sensitive), first in outline order. */
export function findElement(
  outline: readonly OutlineElement[],
  ref: ElementRef,
): OutlineElement | null {
  for (const e of outline) {
    if (e?.role === ref.role && e.name === ref.name && hasUsableRect(e)) return e;
  }
  return null;
}

function hasUsableRect(e: OutlineElement): boolean {
  const r = e.rect as Partial<OutlineElement['rect']> | undefined;
  return (
    typeof r === 'object' &&
    r !== null &&
    [r.x, r.y, r.width, r.height].every((n) => typeof n === 'number' && Number.isFinite(n))
  );
}

/** An element's centre in integers: `x + floor(width / 2)`, `y + floor(height / 2)`. */
export function centreOf(e: OutlineElement): { x: number; y: number } {
  return {
    x: Math.floor(e.rect.x + e.rect.width / 2),
    y: Math.floor(e.rect.y + e.rect.height / 2),
  };
}

/** True when some outline element's name matches. Each name is tested on its own. */
function textMatches(outline: readonly OutlineElement[], pattern: TenantPattern): boolean {
  const names = function* () {
    for (const e of outline) if (typeof e?.name === 'string') yield e.name;
  };
  return matchesOne(pattern, names());
}

function describeElement(ref: ElementRef): string {
  return `element ${ref.role} ${JSON.stringify(ref.name)}`;
}

function describeCondition(when: ScriptCondition): string {
  if ('text' in when) return `text /${when.text}/`;
  if ('element' in when) return describeElement(when.element);
  return `screen ${when.screen_sha256}`;
}

/** `steps[3]`, with its label when it has one: `steps[3] (step "save")`. */
export function stepName(index: number, step: ScriptStep): string {
  if (step.step === undefined) return `steps[${index}]`;
  const label = typeof step.step === 'number' ? String(step.step) : JSON.stringify(step.step);
  return `steps[${index}] (step ${label})`;
}

/** The signal's reason when it is an Error (what the engine aborted with), else an AbortError. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const message = typeof reason === 'string' ? reason : 'the step was aborted';
  return new DOMException(message, 'AbortError');
}

/** Resolves after `ms`, or rejects as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `look()` that gives up waiting when the signal aborts (the look itself may still finish). */
async function lookOrAbort(context: PlanningContext): Promise<ObservedScreen> {
  const { signal } = context;
  if (signal.aborted) throw abortError(signal);
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(abortError(signal));
  });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([context.look(), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** What a step that names an element or a condition on the outline cannot go without. */
const OUTLINE = "the screen host's element outline (GET /elements)";

type Decision =
  | { kind: 'ready'; action: Record<string, unknown> }
  | { kind: 'waiting'; for: string }
  | { kind: 'impossible'; why: string };

export class ScriptedPlanner implements Planner {
  private readonly pollMs: number;
  /**
   * Compiled once per planner. `checkScript` made sure they compile when the script was saved;
   * one saved before Warden matched with RE2 may not, and its step fails rather than act.
   */
  private readonly patterns = new Map<string, CompiledPattern>();

  private readonly fallback: Planner | null;

  /** The content this planner answers from: every answer carries it (the send gate checks it). */
  readonly scriptSha256: string;

  constructor(
    readonly script: Script,
    options: ScriptedPlannerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? SCRIPT_LIMITS.pollMs;
    this.fallback = options.fallback ?? null;
    this.scriptSha256 = scriptSha256(script);
  }

  /**
   * The next step's action. Rejects with `context.signal.reason` when the signal aborts while it
   * waits; a script that cannot go on answers `{action: "fail", reason}` naming the step, and so
   * does one whose last step Warden refused. With a fallback, a step whose `when` did not hold
   * within its patience is planned by the fallback instead, and the script takes that step again
   * on the next screen (then without waiting: the fallback answers again until the step's `when`
   * holds).
   */
  async plan(context: PlanningContext): Promise<PlanResult> {
    if (context.signal.aborted) throw abortError(context.signal);
    const steps = this.script.steps;
    const kept = keptOf(context.state, steps.length);
    // The last step's action met a changed screen and was not sent (the frame rule): the script
    // does that step again, on the new screen, rather than go on as if it had happened. (A
    // fallback's answer did not move the cursor.)
    const again =
      kept !== null &&
      !kept.fallback &&
      kept.next > 0 &&
      context.history.at(-1)?.outcome === 'screen_changed';
    // The script's last step was refused by Warden's rules (an invalid action; not a send the
    // agent's changed config stopped, which is planned again): the script does not go on. Its next
    // steps were written for the screen that step would have made, and under an agent whose
    // writes need no approval they would be sent onto one it did not expect. (A fallback's refused
    // answer did not move the cursor: the fallback answers again.)
    const last = context.history.at(-1);
    if (
      kept !== null &&
      !kept.fallback &&
      kept.next > 0 &&
      last?.outcome === 'refused' &&
      last.classification === 'invalid'
    ) {
      const refused = kept.next - 1;
      return {
        action: {
          action: 'fail',
          reason: `${stepName(refused, steps[refused])} was refused by Warden's rules (${last.why ?? 'no reason recorded'}), so the script stops there`,
        },
        state: kept,
        plannedBy: 'script',
      };
    }
    const next = kept === null ? null : again ? kept.next - 1 : kept.next;
    if (next === null) {
      return {
        action: {
          action: 'fail',
          reason: 'the scripted planner lost its place: its state is not one it stored',
        },
        state: context.state,
        plannedBy: 'script',
      };
    }
    const state: ScriptedPlannerState = { next: next + 1 };
    if (next >= steps.length) {
      return {
        action: { action: 'done', summary: 'script finished' },
        state: { next },
        plannedBy: 'script',
      };
    }

    const params = this.script.parameters ? (context.params ?? {}) : null;
    const step = filledStep(steps[next], params);
    // After a fallback's answer the step looks once: the fallback answers until the screen is back.
    const patience =
      this.fallback && kept?.fallback
        ? 0
        : (step.patience ?? this.script.patience ?? SCRIPT_LIMITS.patienceDefault);
    let screen = context.screen;
    let looked = false;
    for (let attempt = 0; ; attempt++) {
      const decision = this.decide(step, screen);
      const seen = looked ? { screen } : {};
      if (decision.kind === 'ready') {
        return { action: decision.action, state, plannedBy: 'script', ...seen };
      }
      if (decision.kind === 'impossible') {
        return {
          action: { action: 'fail', reason: `${stepName(next, step)} ${decision.why}` },
          state,
          plannedBy: 'script',
          ...seen,
        };
      }
      if (attempt >= patience) {
        if (this.fallback) {
          return this.askFallback(context, screen, next, step, decision.for, kept, params);
        }
        const reason =
          decision.for === OUTLINE
            ? `${stepName(next, step)} needs ${OUTLINE}, and the host gave none` +
              (patience === 0 ? '' : ` in ${patience + 1} looks`)
            : patience === 0
              ? `${stepName(next, step)} did not see ${decision.for} and has patience 0`
              : `${stepName(next, step)} waited ${patience} times for ${decision.for}`;
        return { action: { action: 'fail', reason }, state, plannedBy: 'script', ...seen };
      }
      await sleep(this.pollMs, context.signal);
      screen = await lookOrAbort(context);
      looked = true;
    }
  }

  /**
   * The fallback plans step `next` on this screen, told the goal, what the script expected and its
   * remaining steps. Its answer passes Warden's rules like any planner's; the cursor stays.
   */
  private async askFallback(
    context: PlanningContext,
    screen: ObservedScreen,
    next: number,
    step: ScriptStep,
    expected: string,
    kept: KeptState | null,
    params: Params | null,
  ): Promise<PlanResult> {
    const remaining = this.script.steps.slice(next).map((s) => filledStep(s, params));
    const goal = fallbackGoal(context.goal, { name: stepName(next, step), expected }, remaining);
    const result = await this.fallback!.plan({
      ...context,
      goal,
      screen,
      state: kept?.fallback ? (kept.model ?? null) : null,
    });
    const state: ScriptedPlannerState = { next, fallback: true, model: result.state ?? null };
    // The script still has steps to take: the fallback cannot end the run as done (fail closed).
    const answer = result.action as { action?: unknown } | null;
    const action =
      typeof answer === 'object' && answer !== null && answer.action === 'done'
        ? {
            action: 'fail',
            reason: `the fallback answered done while the script waited at ${stepName(next, step)} for ${expected}`,
          }
        : result.action;
    return {
      ...result,
      action,
      state,
      plannedBy: 'fallback',
      ...(screen.sha256 !== context.screen.sha256 && !result.screen ? { screen } : {}),
    };
  }

  /** Whether the step can act on this screen, and with which action. */
  private decide(step: ScriptStep, screen: ObservedScreen): Decision {
    const outline = Array.isArray(screen.outline) ? screen.outline : null;
    const needsOutline =
      (step.when !== undefined && !('screen_sha256' in step.when)) || 'element' in step.action;
    // A host may have no outline for a moment (its accessibility bus slow under load: 503): the
    // step looks again, as for a condition that does not hold yet; nothing is sent without it.
    if (needsOutline && !outline) return { kind: 'waiting', for: OUTLINE };
    if (step.when && 'text' in step.when) {
      const compiled = this.pattern(step.when.text);
      if (!compiled.ok) {
        return {
          kind: 'impossible',
          why: `cannot match when.text ${JSON.stringify(step.when.text)}: ${compiled.why}`,
        };
      }
    }
    if (step.when && !this.holds(step.when, screen, outline ?? [])) {
      return { kind: 'waiting', for: describeCondition(step.when) };
    }
    return this.resolve(step.action, outline ?? []);
  }

  private holds(when: ScriptCondition, screen: ObservedScreen, outline: OutlineElement[]): boolean {
    if ('text' in when) {
      const compiled = this.pattern(when.text);
      return compiled.ok && textMatches(outline, compiled.pattern);
    }
    if ('element' in when) return findElement(outline, when.element) !== null;
    return screen.sha256 === when.screen_sha256;
  }

  private pattern(source: string): CompiledPattern {
    let p = this.patterns.get(source);
    if (!p) {
      p = compilePattern(source);
      this.patterns.set(source, p);
    }
    return p;
  }

  /** The action to answer: an `element` becomes the element's centre (and the click's target). */
  private resolve(action: ScriptAction, outline: OutlineElement[]): Decision {
    if (!('element' in action)) return { kind: 'ready', action: { ...action } };
    const found = findElement(outline, action.element);
    if (!found) return { kind: 'waiting', for: describeElement(action.element) };
    const { x, y } = centreOf(found);
    const { element, ...rest } = action;
    if (rest.action === 'scroll') {
      return {
        kind: 'ready',
        action: { action: rest.action, x, y, direction: rest.direction, amount: rest.amount },
      };
    }
    const answer: Record<string, unknown> = { action: rest.action, x, y };
    const target = rest.target ?? element.name;
    if ([...target].length <= TARGET_MAX) answer.target = target;
    return { kind: 'ready', action: answer };
  }
}

/** The state this planner stored ({next: 0} on the first step), or null when it is not one. */
function keptOf(state: unknown, length: number): KeptState | null {
  if (state === null || state === undefined) return { next: 0 };
  if (typeof state !== 'object' || Array.isArray(state)) return null;
  const kept = state as { next?: unknown; fallback?: unknown; model?: unknown };
  const next = kept.next;
  if (typeof next !== 'number' || !Number.isSafeInteger(next) || next < 0 || next > length)
    return null;
  return kept.fallback === true ? { next, fallback: true, model: kept.model } : { next };
}
