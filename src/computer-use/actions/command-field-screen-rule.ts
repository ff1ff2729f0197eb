/**
 * The screen rule of the second shape (docs/rules.md): `{"command_field": {"transactions":
 * ["VA02", "VA03"]}}`: typing `VA02`, `/nVA02` or `/oVA02` into the field the outline names the
 * command field, and the Enter right after it, are reads. Pure: no I/O, no clock.
 */
import { isPlainObject } from '../../common/is-plain-object';
import type { Action } from './action.types';
import { readTransactions, unknownFields } from './screen-rule-fields';
import type {
  IdentifiedEntry,
  RuleAt,
  RuleMatch,
  ScreenFacts,
  ScreenRuleShape,
} from './screen-rule-shape';
import { quote } from './text';
import { PERFORMED } from './step-outcomes';

export interface CommandFieldScreenRule {
  command_field: { transactions: string[] };
}

export interface CompiledCommandFieldRule {
  n: number;
  transactions: ReadonlySet<string>;
}

export const COMMAND_FIELD_SCREEN_RULE: ScreenRuleShape<
  CommandFieldScreenRule,
  CompiledCommandFieldRule
> = {
  example: '{"command_field": {"transactions": ["VA02"]}}',
  // A code typed and its Enter are more particular than a key on the screen they are typed on.
  namedFirst: true,
  claims: (item) => 'command_field' in item,
  read: readCommandFieldRule,
  matches,
  entries,
};

function readCommandFieldRule(
  item: Record<string, unknown>,
  { path, n }: RuleAt,
  _context: unknown,
  problems: string[],
): { rule: CommandFieldScreenRule; compiled: CompiledCommandFieldRule } | null {
  const before = problems.length;
  unknownFields(item, ['command_field'], path, problems);
  const field = item.command_field;
  const here = `${path}.command_field`;
  if (!isPlainObject(field)) {
    problems.push(`${here} must be {"transactions": ["VA02", …]}`);
    return null;
  }
  unknownFields(field, ['transactions'], here, problems);
  const codes = readTransactions(field.transactions, `${here}.transactions`, problems);
  if (!codes || problems.length > before) return null;
  return {
    rule: { command_field: { transactions: codes } },
    compiled: { n, transactions: new Set(codes) },
  };
}

/** What a transaction code typed into the command field may be made of (ASCII only). */
const TYPED_CODE = /^[A-Za-z0-9_/]+$/;

/** Whether `text` is one of the rule's codes, alone or after `/n` or `/o` (`VA02`, `/nVA02`, `/oVA02`). */
function transactionTyped(text: string, rule: CompiledCommandFieldRule): boolean {
  if (!TYPED_CODE.test(text)) return false;
  const upper = text.toUpperCase();
  if (rule.transactions.has(upper)) return true;
  return /^\/[NO]/.test(upper) && rule.transactions.has(upper.slice(2));
}

/** Typing a code into the command field; Enter right after typing one there. */
function matches(
  action: Action,
  facts: ScreenFacts,
  rules: readonly CompiledCommandFieldRule[],
): RuleMatch[] {
  const found: RuleMatch[] = [];
  if (action.action === 'type') {
    if (!facts.inCommandField) return found;
    for (const rule of rules) {
      if (transactionTyped(action.text, rule)) {
        found.push({
          n: rule.n,
          kind: 'read',
          what: `typing ${quote(action.text, 40)} into the command field`,
        });
      }
    }
    return found;
  }
  if (action.action !== 'key') return found;
  const { previous } = facts;
  const typed = previous?.action as { action?: unknown; text?: unknown } | null | undefined;
  const afterTyping =
    action.key === 'Enter' &&
    facts.inCommandField &&
    PERFORMED.has(previous?.outcome ?? '') &&
    typed?.action === 'type' &&
    typeof typed.text === 'string';
  if (!afterTyping) return found;
  for (const rule of rules) {
    if (transactionTyped(typed.text as string, rule)) {
      found.push({
        n: rule.n,
        kind: 'read',
        what: `Enter after ${quote(typed.text as string, 40)} in the command field`,
      });
    }
  }
  return found;
}

/** Each code, wherever it is typed: always a read. */
function entries(rule: CommandFieldScreenRule): IdentifiedEntry[] {
  return rule.command_field.transactions.map((code) => ({
    identity: ['command_field', code],
    entry: { kind: 'read', what: `transaction ${code} in the command field` },
  }));
}
