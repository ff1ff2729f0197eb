/**
 * A scripted planner's script (docs/models.md): a stored list of steps, each an action of docs/rules.md
 * with an optional condition to wait for. These are the shapes `checkScript` returns: checked,
 * normalised, and plain JSON.
 */
import type { Action, ClickAction, ScrollAction } from '../actions';
import type { PlannerConfig } from '../settings/agent-config';

/** An outline element named by role and name: exact, case-sensitive, first match in outline order. */
export interface ElementRef {
  role: string;
  name: string;
}

/** What a step waits for before it acts. */
export type ScriptCondition =
  /**
   * A regular expression that matches the name of some outline element: JavaScript syntax (`u`
   * flag), run by RE2 (actions/patterns.ts).
   */
  | { text: string }
  /** An element with this role and name is in the outline. */
  | { element: ElementRef }
  /** The screenshot's SHA-256 (lower-case hex of the PNG bytes) is this one. */
  | { screen_sha256: string };

/** A click or scroll aimed at an element instead of a point; resolved to its centre when the step runs. */
export type ElementClickAction = Omit<ClickAction, 'x' | 'y'> & { element: ElementRef };
export type ElementScrollAction = Omit<ScrollAction, 'x' | 'y'> & { element: ElementRef };

export type ScriptAction = Action | ElementClickAction | ElementScrollAction;

export interface ScriptStep {
  /** A label shown in messages. */
  step?: string | number;
  when?: ScriptCondition;
  /** How many times to look again for `when` and `element` (overrides the script's). */
  patience?: number;
  action: ScriptAction;
}

export interface Script {
  steps: ScriptStep[];
  /** How many times a step looks again, 0.5 s apart, before it fails (default 10). */
  patience?: number;
  /**
   * The script's parameters (script-params.ts): a run of it is started with a value for each, and
   * `{{name}}` in its texts, element names and `when.text` patterns stands for that value.
   */
  parameters?: string[];
  /**
   * A model planner (a catalog id or a model object) that plans a step whose `when` did not hold
   * within its patience; the script goes on when its next step's `when` holds again.
   */
  fallback?: PlannerConfig;
}

export type ScriptCheck = { ok: true; script: Script } | { ok: false; error: string };

export const SCRIPT_LIMITS = Object.freeze({
  steps: 200,
  /** UTF-8 bytes of the script's JSON. */
  bytes: 65_536,
  patienceDefault: 10,
  patienceMax: 600,
  /** A `when.text` regular expression, in code points. */
  regexMax: 500,
  labelMax: 100,
  roleMax: 100,
  nameMax: 500,
  /** Milliseconds between two looks while a step waits. */
  pollMs: 500,
});
