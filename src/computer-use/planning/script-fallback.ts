/**
 * What a scripted planner's fallback model is told when a step's `when` did not hold (routine
 * runs): the goal, the step the script expected to take and the screen it waited for, and the
 * steps after it; and how a script's step reads with the run's parameters filled in. Pure.
 */
import type { ScriptAction, ScriptCondition, ScriptStep } from './script.types';
import { fillPattern, fillText, type Params } from './script-params';

/** At most this many of the remaining steps are listed for the fallback. */
const REMAINING_LISTED = 20;

/** The step with each `{{name}}` replaced by the run's value (patterns escaped). */
export function filledStep(step: ScriptStep, params: Params | null): ScriptStep {
  if (!params || Object.keys(params).length === 0) return step;
  const out: ScriptStep = { ...step, action: filledAction(step.action, params) };
  if (step.when) out.when = filledCondition(step.when, params);
  return out;
}

function filledCondition(when: ScriptCondition, params: Params): ScriptCondition {
  if ('text' in when) return { text: fillPattern(when.text, params) };
  if ('element' in when) {
    return { element: { role: when.element.role, name: fillText(when.element.name, params) } };
  }
  return when;
}

function filledAction(action: ScriptAction, params: Params): ScriptAction {
  const out = { ...action } as Record<string, unknown>;
  for (const field of ['text', 'summary', 'reason', 'target']) {
    if (typeof out[field] === 'string') out[field] = fillText(out[field], params);
  }
  if ('element' in action) {
    out.element = { role: action.element.role, name: fillText(action.element.name, params) };
  }
  return out as unknown as ScriptAction;
}

/** One step as a line a model reads: `click button "Save"`, `type "4712"`, `key Enter`. */
export function describeStep(step: ScriptStep): string {
  const a = step.action as Record<string, unknown> & { action: string };
  const target =
    'element' in step.action
      ? ` ${step.action.element.role} ${JSON.stringify(step.action.element.name)}`
      : 'x' in a
        ? ` at (${String(a.x)}, ${String(a.y)})`
        : '';
  switch (a.action) {
    case 'type':
      return `type ${JSON.stringify(a.text)}`;
    case 'key':
      return `key ${String(a.key)}`;
    case 'done':
      return `done: ${String(a.summary)}`;
    case 'fail':
      return `fail: ${String(a.reason)}`;
    case 'wait':
      return `wait ${String(a.seconds)} s`;
    case 'scroll':
      return `scroll ${String(a.direction)}${target}`;
    default:
      return `${a.action}${target}`;
  }
}

/**
 * The goal the fallback plans for: the run's goal, what the script expected, and its remaining
 * steps, so that the model does only what brings the screen back to the script.
 */
export function fallbackGoal(
  goal: string,
  step: { name: string; expected: string },
  remaining: readonly ScriptStep[],
): string {
  const listed = remaining.slice(0, REMAINING_LISTED).map((s, i) => `${i + 1}. ${describeStep(s)}`);
  if (remaining.length > REMAINING_LISTED) {
    listed.push(`… and ${remaining.length - REMAINING_LISTED} more`);
  }
  return [
    goal,
    '',
    `This run replays a saved script. Its ${step.name} waited for ${step.expected}, and the screen does not show it.`,
    'Answer one action that brings the screen back to where the script can go on (for example, close a dialog nobody expected); the script then does its remaining steps itself:',
    ...listed,
  ].join('\n');
}
