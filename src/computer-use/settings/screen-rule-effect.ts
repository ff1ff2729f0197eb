import { canonicalJson } from '../../audit/canonical-json';
import type { ScreenRule } from '../actions';
import type { RuleEntry } from '../actions/screen-rule-shape';
import { shapeOf } from '../actions/screen-rule-shapes';

/**
 * What an agent's screen rules do, entry by entry, so that a change to them is judged by its
 * effect (docs/security.md, "Weakening"). Pure.
 *
 * How the rules apply (actions/screen-rules.ts): every rule whose title matches is looked at; any
 * entry of any of them that says "write" makes a write, whatever the rules' order; otherwise one
 * that says "read" makes a read. So the rules are, in effect, two sets of entries, each a key or
 * a label pattern or a region (`regions`, a rectangle of the screen: its read applies only where
 * the outline has no element) on screens whose title pattern matches, or a transaction code typed
 * into the command field (always a read); each shape of rule lists its own entries
 * (actions/screen-rule-shapes.ts):
 *
 * - an entry that says "write" and is no longer there may let that key or label be a read (the
 *   default rules, or another rule's read, decide it again);
 * - an entry that says "read" and was not there before may make a write a read.
 *
 * Anything else cannot turn a write into a read: a write entry added, a read entry removed, the
 * rules reordered, an entry moved from one rule to another with the same title and transactions.
 * Patterns are compared as written: a title or label pattern changed in any way is its old entries
 * removed and its new ones added (whether the new pattern matches less the code cannot tell), and
 * so is a rule's list of transactions changed in any way, and a region moved or resized.
 * `screen-rule-effect.spec.ts` checks this against the classification itself.
 */

/** Every entry of the rules, each once, by its canonical identity (each shape says its entries). */
export function ruleEntries(rules: readonly ScreenRule[]): Map<string, RuleEntry> {
  const entries = new Map<string, RuleEntry>();
  for (const rule of rules) {
    for (const { identity, entry } of shapeOf(rule)?.entries(rule) ?? []) {
      entries.set(canonicalJson([...identity, entry.kind]), entry);
    }
  }
  return entries;
}

/**
 * What a change of screen rules loosens, in words, in the order the entries are listed: each
 * write entry of `before` that `after` lacks (`no longer a write: …`), then each read entry of
 * `after` that `before` lacked (`now a read: …`). Empty: no write can become a read.
 */
export function screenRuleLoosenings(
  before: readonly ScreenRule[],
  after: readonly ScreenRule[],
): string[] {
  const old = ruleEntries(before);
  const now = ruleEntries(after);
  const lost = [...old]
    .filter(([id, e]) => e.kind === 'write' && !now.has(id))
    .map(([, e]) => `no longer a write: ${e.what}`);
  const gained = [...now]
    .filter(([id, e]) => e.kind === 'read' && !old.has(id))
    .map(([, e]) => `now a read: ${e.what}`);
  return [...lost, ...gained];
}
