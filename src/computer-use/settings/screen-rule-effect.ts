import { canonicalJson } from '../../audit/canonical-json';
import type { ScreenRule } from '../actions';
import { regionWords } from '../actions/screen-rule-regions';

/**
 * What an agent's screen rules do, entry by entry, so that a change to them is judged by its
 * effect (docs/security.md, "Weakening"). Pure.
 *
 * How the rules apply (actions/screen-rules.ts): every rule whose title matches is looked at; any
 * entry of any of them that says "write" makes a write, whatever the rules' order; otherwise one
 * that says "read" makes a read. So the rules are, in effect, two sets of entries, each a key or
 * a label pattern or a region (`regions`, a rectangle of the screen: its read applies only where
 * the outline has no element) on screens whose title pattern matches, or a transaction code typed
 * into the command field (always a read):
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

export type EntryKind = 'read' | 'write';

/** One entry: what it decides, in words (`key Enter on titles matching “^…$”`), and its kind. */
export interface RuleEntry {
  kind: EntryKind;
  what: string;
}

/** Every entry of the rules, each once, by its canonical identity. */
export function ruleEntries(rules: readonly ScreenRule[]): Map<string, RuleEntry> {
  const entries = new Map<string, RuleEntry>();
  const add = (identity: unknown[], entry: RuleEntry) =>
    entries.set(canonicalJson([...identity, entry.kind]), entry);
  for (const rule of rules) {
    if ('command_field' in rule) {
      for (const code of rule.command_field.transactions) {
        add(['command_field', code], {
          kind: 'read',
          what: `transaction ${code} in the command field`,
        });
      }
      continue;
    }
    // The screens an entry is for: its title pattern as written, its transactions as a set.
    const codes = rule.transactions ? [...rule.transactions].sort() : null;
    const screens = [rule.title ?? null, codes];
    const on = [
      ...(rule.title !== undefined ? [`on titles matching “${rule.title}”`] : []),
      ...(codes ? [`in transaction${codes.length > 1 ? 's' : ''} ${codes.join(', ')}`] : []),
    ].join(' ');
    for (const [key, kind] of Object.entries(rule.keys ?? {})) {
      add(['key', ...screens, key], { kind, what: `key ${key} ${on}` });
    }
    for (const [pattern, kind] of Object.entries(rule.labels ?? {})) {
      add(['label', ...screens, pattern], {
        kind,
        what: `labels matching “${pattern}” ${on}`,
      });
    }
    for (const region of rule.regions ?? []) {
      const { x, y, width, height, click: kind } = region;
      const where = kind === 'read' ? ' where the outline has no element' : '';
      add(['region', ...screens, x, y, width, height], {
        kind,
        what: `clicks in the region ${regionWords(region)}${where} ${on}`,
      });
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
