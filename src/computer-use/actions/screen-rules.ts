/**
 * Applying an agent's screen rules (docs/rules.md), as screen-rules-read.ts compiled them, to an
 * action.
 *
 * They apply to what validation accepted (a refused action stays refused), over the default
 * classification: each shape of rule says which of its rules apply and what they make of the
 * action (screen-rule-shapes.ts); a rule that says "write" wins over any that says "read", and a
 * rule never makes a read of a click whose planner's target names a committing verb. The why names
 * the rule, 1-based. Pure: no I/O, no clock.
 */
import type { Action, Classification } from './action.types';
import type { RuleMatch, ScreenFacts } from './screen-rule-shape';
import { type ScreenRules, SHAPES } from './screen-rule-shapes';

export type { ClickLabel, ScreenFacts, ScreenTitle } from './screen-rule-shape';

/** The shapes in the order their matches are gathered: the one named first when two make a read. */
const MATCHED = [
  ...SHAPES.filter(([, shape]) => shape.namedFirst),
  ...SHAPES.filter(([, shape]) => !shape.namedFirst),
];

function matches(action: Action, facts: ScreenFacts, rules: ScreenRules): RuleMatch[] {
  return MATCHED.flatMap(([key, shape]) => shape.matches(action, facts, rules[key]));
}

/**
 * The classification of a valid action under the agent's screen rules: `base` (the default
 * rules' verdict) unless a rule applies. Any rule that says "write" makes a write; otherwise one
 * that says "read" makes a read, except of a click whose planner's target names a committing verb.
 * The first applying rule of the winning kind is named.
 */
export function applyScreenRules(
  action: Action,
  base: Classification,
  facts: ScreenFacts,
  rules: ScreenRules,
): Classification {
  if (SHAPES.every(([key]) => rules[key].length === 0)) return base;
  const found = matches(action, facts, rules);
  const write = found.find((m) => m.kind === 'write');
  if (write) return { kind: 'write', why: `${write.what} is a write by screen rule ${write.n}` };
  const read = found.find((m) => m.kind === 'read');
  if (!read) return base;
  if (base.kind === 'write' && facts.targetVerb !== null) {
    return {
      kind: 'write',
      why: `${base.why}; screen rule ${read.n} does not make a read of a click whose planner's target names a committing verb`,
    };
  }
  const why = `${read.what} is navigation by screen rule ${read.n}`;
  // A read the default rules made already needs no rule in force to stay one (but keeps whatever
  // weakening made it a read).
  const loosenedBy = base.kind === 'read' ? base.loosenedBy : { screenRule: read.n };
  return loosenedBy ? { kind: 'read', why, loosenedBy } : { kind: 'read', why };
}
