/**
 * The screen rule of the first shape (docs/rules.md): `{"title": "^Change Sales Order: Initial
 * Screen$", "keys": {"Enter": "read"}, "labels": {"^Display$": "read"}}`: on screens whose title
 * matches, the named keys, and clicks on elements whose label matches, are reads or writes as the
 * rule says; and `"regions"`, clicks in rectangles of the screen (screen-rule-regions.ts). Instead
 * of the title, or with it, `"transactions": ["VA03"]`: the screens of a transaction the host
 * reports (both must hold). A title nothing could read lets no such rule apply, and a transaction
 * the host does not report none of those that name transactions. Pure: no I/O, no clock.
 */
import { canonicalKey } from '@warden/protocol';
import type { Action, Kind } from './action.types';
import { type TenantPattern, unusablePattern } from './patterns';
import {
  entriesOf,
  readKind,
  readPattern,
  readTransactions,
  SCREEN_RULE_LIMITS,
  show,
  unknownFields,
} from './screen-rule-fields';
import { inRegion, readRegions, regionWords, type ScreenRuleRegion } from './screen-rule-regions';
import type {
  IdentifiedEntry,
  ReadContext,
  RuleAt,
  RuleMatch,
  ScreenFacts,
  ScreenRuleShape,
} from './screen-rule-shape';
import { codePointLength, quote } from './text';

export interface TitleScreenRule {
  /** A regular expression over the screen's title. */
  title?: string;
  /** Transaction codes: the rule is for screens the host reports in one of them. */
  transactions?: string[];
  keys?: Record<string, Kind>;
  labels?: Record<string, Kind>;
  regions?: ScreenRuleRegion[];
}

interface LabelPattern {
  pattern: TenantPattern;
  kind: Kind;
}

export interface CompiledTitleRule {
  /** 1-based, as the why names it. */
  n: number;
  /** Null: any title (the rule names transactions). */
  title: TenantPattern | null;
  /** Null: any transaction, or none reported (the rule names a title). */
  transactions: ReadonlySet<string> | null;
  keys: ReadonlyMap<string, Kind>;
  labels: readonly LabelPattern[];
  regions: readonly ScreenRuleRegion[];
}

const FIELDS = ['title', 'transactions', 'keys', 'labels', 'regions'];

export const TITLE_SCREEN_RULE: ScreenRuleShape<TitleScreenRule, CompiledTitleRule> = {
  example:
    '{"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it)',
  claims: (item) => 'title' in item || 'transactions' in item,
  read: readTitleRule,
  matches,
  entries,
};

function readTitleRule(
  item: Record<string, unknown>,
  { path, n }: RuleAt,
  { keyRules, patterns }: ReadContext,
  problems: string[],
): { rule: TitleScreenRule; compiled: CompiledTitleRule } | null {
  const before = problems.length;
  unknownFields(item, FIELDS, path, problems);
  const title =
    'title' in item ? readPattern(item.title, `${path}.title`, patterns, problems) : null;
  const transactions =
    'transactions' in item
      ? readTransactions(item.transactions, `${path}.transactions`, problems)
      : null;

  const keys = new Map<string, Kind>();
  const keyEntries = entriesOf(item.keys, `${path}.keys`, '{"Enter": "read"}', problems);
  for (const [name, value] of keyEntries) {
    const here = `${path}.keys[${show(name)}]`;
    const kind = readKind(value, here, problems);
    const key = name.length <= 64 ? canonicalKey(name, keyRules.keySpellings) : null;
    if (key === null) {
      problems.push(`${here}: ${show(name)} is not a key Warden knows`);
    } else if (!keyRules.navigationKeys.has(key) && !keyRules.commitKeys.has(key)) {
      problems.push(
        `${here}: key ${key} is neither a navigation nor a commit key, and Warden refuses it on every screen`,
      );
    } else if (kind) {
      // Two spellings of one key: a write wins.
      keys.set(key, keys.get(key) === 'write' ? 'write' : kind);
    }
  }

  const labels: LabelPattern[] = [];
  const labelMap: Record<string, Kind> = {};
  const labelEntries = entriesOf(item.labels, `${path}.labels`, '{"^Display$": "read"}', problems);
  for (const [source, value] of labelEntries) {
    const here = `${path}.labels[${show(source)}]`;
    const pattern = readPattern(source, here, patterns, problems);
    const kind = readKind(value, here, problems);
    if (pattern && kind) {
      labelMap[source] = kind;
      // A stored label pattern that cannot be run fails closed: as a write it names every label,
      // as a read none.
      if (pattern.unusable && kind === 'read') continue;
      labels.push({ pattern: pattern.unusable ? unusablePattern(source, true) : pattern, kind });
    }
  }

  const regions = readRegions(item.regions, `${path}.regions`, problems);

  const entries = keyEntries.length + labelEntries.length + regions.length;
  if (entries === 0 && problems.length === before) {
    problems.push(
      `${path} needs keys, labels or regions: what counts as a read or a write on the screens it is for`,
    );
  }
  if (problems.length > before || (!title && !transactions)) return null;
  const rule: TitleScreenRule = {};
  if (title) rule.title = title.source;
  if (transactions) rule.transactions = transactions;
  if (keyEntries.length > 0) rule.keys = Object.fromEntries(keys);
  if (labelEntries.length > 0) rule.labels = labelMap;
  if (regions.length > 0) rule.regions = regions;
  const codes = transactions ? new Set(transactions) : null;
  if (title?.unusable) {
    // A stored title that cannot be run fails closed: what the rule makes a write is a write on
    // every screen, what it makes a read is read nowhere.
    const writes = [...keys].filter(([, kind]) => kind === 'write');
    return {
      rule,
      compiled: {
        n,
        title: unusablePattern(title.source, true),
        transactions: codes,
        keys: new Map(writes),
        labels: labels.filter((l) => l.kind === 'write'),
        regions: regions.filter((r) => r.click === 'write'),
      },
    };
  }
  return { rule, compiled: { n, title, transactions: codes, keys, labels, regions } };
}

/** Whether rules may match a title or label: not empty, and not longer than the limit. */
function matchable(text: string): boolean {
  return text !== '' && codePointLength(text) <= SCREEN_RULE_LIMITS.text;
}

/** Where a rule applied, as the why says it: `on “Change Sales Order: Initial Screen”`, `in transaction VA03`. */
function onScreen(rule: CompiledTitleRule, facts: ScreenFacts): string {
  const { title, transaction } = facts;
  const parts: string[] = [];
  if (rule.title && title) {
    parts.push(
      `on ${quote(title.text, Infinity)}${title.source === 'ocr' ? ' (the title read from the screen by OCR)' : ''}`,
    );
  }
  if (rule.transactions && transaction) parts.push(`in transaction ${transaction}`);
  return parts.join(' ');
}

/** Whether a rule is for this screen: its title matches (if it names one), and its transaction. */
function forThisScreen(rule: CompiledTitleRule, facts: ScreenFacts): boolean {
  const { title, transaction } = facts;
  if (rule.title && !(title && matchable(title.text) && rule.title.test(title.text))) return false;
  return !rule.transactions || (transaction !== null && rule.transactions.has(transaction));
}

const LABEL_WORDS = { outline: 'from the screen outline', ocr: 'read from the screen by OCR' };

/** A key, by the rules for this screen; a click, by their regions, then their labels. */
function matches(
  action: Action,
  facts: ScreenFacts,
  rules: readonly CompiledTitleRule[],
): RuleMatch[] {
  const found: RuleMatch[] = [];
  const titled = rules.filter((r) => forThisScreen(r, facts));
  switch (action.action) {
    case 'key':
      for (const rule of titled) {
        const kind = rule.keys.get(action.key);
        if (kind) found.push({ n: rule.n, kind, what: `${action.key} ${onScreen(rule, facts)}` });
      }
      break;
    case 'click':
    case 'double_click': {
      const verb = action.action === 'double_click' ? 'double-click' : 'click';
      const point = facts.point;
      for (const rule of point ? titled : []) {
        for (const region of rule.regions) {
          if (!inRegion(region, point!.x, point!.y)) continue;
          if (region.click === 'read' && !facts.unreadSpot) continue;
          const where = `${verb} at (${point!.x}, ${point!.y}) in the region ${regionWords(region)}`;
          const what =
            region.click === 'read' ? `${where}, where the outline has no element,` : where;
          found.push({ n: rule.n, kind: region.click, what: `${what} ${onScreen(rule, facts)}` });
        }
      }
      const label = facts.label;
      if (!label || !matchable(label.text)) break;
      for (const rule of titled) {
        for (const { pattern, kind } of rule.labels) {
          if (!pattern.test(label.text)) continue;
          const on = `${verb} on ${quote(label.text)} (${LABEL_WORDS[label.source]})`;
          found.push({ n: rule.n, kind, what: `${on} ${onScreen(rule, facts)}` });
        }
      }
      break;
    }
    default:
      break;
  }
  return found;
}

/**
 * Each key, label pattern and region, on the screens it is for: its title pattern as written, its
 * transactions as a set.
 */
function entries(rule: TitleScreenRule): IdentifiedEntry[] {
  const found: IdentifiedEntry[] = [];
  const codes = rule.transactions ? [...rule.transactions].sort() : null;
  const screens = [rule.title ?? null, codes];
  const on = [
    ...(rule.title !== undefined ? [`on titles matching “${rule.title}”`] : []),
    ...(codes ? [`in transaction${codes.length > 1 ? 's' : ''} ${codes.join(', ')}`] : []),
  ].join(' ');
  for (const [key, kind] of Object.entries(rule.keys ?? {})) {
    found.push({ identity: ['key', ...screens, key], entry: { kind, what: `key ${key} ${on}` } });
  }
  for (const [pattern, kind] of Object.entries(rule.labels ?? {})) {
    found.push({
      identity: ['label', ...screens, pattern],
      entry: { kind, what: `labels matching “${pattern}” ${on}` },
    });
  }
  for (const region of rule.regions ?? []) {
    const { x, y, width, height, click: kind } = region;
    const where = kind === 'read' ? ' where the outline has no element' : '';
    found.push({
      identity: ['region', ...screens, x, y, width, height],
      entry: { kind, what: `clicks in the region ${regionWords(region)}${where} ${on}` },
    });
  }
  return found;
}
