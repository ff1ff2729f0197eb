import { COMMAND_FIELD_SCREEN_RULE } from './command-field-screen-rule';
import type { ScreenRuleShape } from './screen-rule-shape';
import { TITLE_SCREEN_RULE } from './title-screen-rule';

/**
 * The shapes of screen rule (docs/rules.md), each with all that differs between shapes
 * (screen-rule-shape.ts): how a rule of it is read and compiled, what it makes of an action, its
 * entries for judging a change by its effect, and its example. Each is keyed by where an agent's
 * compiled rules keep the rules of that shape (`screenRules.titled`), in the order a problem lists
 * them. A new shape is its own file (as title-screen-rule.ts) and one line here; besides, its
 * OpenAPI class (settings/dto/screen-rule.dto.ts, listed in SCREEN_RULE_DTOS under the same key:
 * the document is made from decorated classes, which the pure rules do not import) and its words
 * in the console (console/browser/governance.ts: the browser's code stands alone).
 */
export const SCREEN_RULE_SHAPES = {
  titled: TITLE_SCREEN_RULE,
  commandField: COMMAND_FIELD_SCREEN_RULE,
};

type Shapes = typeof SCREEN_RULE_SHAPES;
export type ScreenRuleShapeKey = keyof Shapes;
type RuleOf<S> = S extends ScreenRuleShape<infer R, { n: number }> ? R : never;
type CompiledOf<S> = S extends ScreenRuleShape<object, infer C> ? C : never;

/** One screen rule as an agent's configuration holds it (docs/rules.md, docs/api.md). */
export type ScreenRule = { [K in ScreenRuleShapeKey]: RuleOf<Shapes[K]> }[ScreenRuleShapeKey];

/** An agent's screen rules, checked and compiled: each shape's under its key, in the agent's order. */
export type ScreenRules = {
  readonly [K in ScreenRuleShapeKey]: readonly CompiledOf<Shapes[K]>[];
} & {
  /**
   * Stored patterns that cannot be run (`stored` reading only), each as a problem would name it:
   * they match nothing.
   */
  readonly unusable: readonly string[];
};

/**
 * A shape as the code that is the same for every shape uses it. Sound as long as each shape is
 * handed only what it read itself: the compiled rules under its own key, and rules it claims.
 */
export type AnyScreenRuleShape = ScreenRuleShape<ScreenRule, { n: number }>;

/** The shapes with their keys, in the table's order. */
export const SHAPES = Object.entries(SCREEN_RULE_SHAPES) as ReadonlyArray<
  [ScreenRuleShapeKey, AnyScreenRuleShape]
>;

/** What a screen rule is, in the words of a problem: each shape's example. */
export const SHAPES_IN_WORDS = `a screen rule is ${SHAPES.map(([, s]) => s.example).join(' or ')}`;

/** The shape of a rule as the configuration holds it (read and normalised); null: none. */
export function shapeOf(rule: object): AnyScreenRuleShape | null {
  return SHAPES.find(([, shape]) => shape.claims(rule))?.[1] ?? null;
}
