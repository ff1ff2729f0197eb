import fc from 'fast-check';
import type { Action, Classification, ScreenRule, TitleScreenRule } from '../actions';
import { loadRules } from '../actions';
import { applyScreenRules, type ScreenFacts } from '../actions/screen-rules';
import { ruleEntries, screenRuleLoosenings } from './screen-rule-effect';

/**
 * Screen rules judged by effect (docs/security.md): the table of what a change loosens, and a property
 * that ties it to the classification itself: whatever a change that loosens nothing does, every
 * action the old rules made a write, on every screen, is still a write under the new ones.
 */

const OVERVIEW = '^Change Standard Order \\d+: Overview$';
/** "Everything on this screen navigates, except Save." */
const NAVIGATES: TitleScreenRule = { title: OVERVIEW, labels: { '.*': 'read' } };
/** The title pattern as the words name it. */
const ON = `“${OVERVIEW}”`;
const SAVE_WRITES: TitleScreenRule = { title: OVERVIEW, labels: { '^Save$': 'write' } };
/** A register the application draws without elements. */
const REGISTER = { x: 0, y: 130, width: 800, height: 300 };
const REGISTER_READ: TitleScreenRule = {
  title: OVERVIEW,
  regions: [{ ...REGISTER, click: 'read' }],
};
const REGISTER_WRITE: TitleScreenRule = {
  title: OVERVIEW,
  regions: [{ ...REGISTER, click: 'write' }],
};

describe('screenRuleLoosenings', () => {
  it.each<[string, ScreenRule[], ScreenRule[], string[]]>([
    [
      'the write exception to a read rule removed',
      [NAVIGATES, SAVE_WRITES],
      [NAVIGATES],
      [`no longer a write: labels matching “^Save$” on titles matching ${ON}`],
    ],
    ['a write rule added as an exception', [NAVIGATES], [NAVIGATES, SAVE_WRITES], []],
    [
      'a read region added (clicks where the outline has no element)',
      [SAVE_WRITES],
      [SAVE_WRITES, REGISTER_READ],
      [
        `now a read: clicks in the region 0,130 800×300 where the outline has no element on titles matching ${ON}`,
      ],
    ],
    ['a read region removed', [SAVE_WRITES, REGISTER_READ], [SAVE_WRITES], []],
    ['a write region added', [NAVIGATES], [NAVIGATES, REGISTER_WRITE], []],
    [
      'a write region removed',
      [NAVIGATES, REGISTER_WRITE],
      [NAVIGATES],
      [`no longer a write: clicks in the region 0,130 800×300 on titles matching ${ON}`],
    ],
    [
      'a read region moved (old removed, new added)',
      [REGISTER_READ],
      [{ ...REGISTER_READ, regions: [{ ...REGISTER, y: 120, click: 'read' }] }],
      [
        `now a read: clicks in the region 0,120 800×300 where the outline has no element on titles matching ${ON}`,
      ],
    ],
    [
      'the rules reordered (a write wins wherever it is)',
      [NAVIGATES, SAVE_WRITES],
      [SAVE_WRITES, NAVIGATES],
      [],
    ],
    ['a read rule removed', [NAVIGATES, SAVE_WRITES], [SAVE_WRITES], []],
    [
      "a write rule's title changed (old removed, new added)",
      [SAVE_WRITES],
      [{ ...SAVE_WRITES, title: '^Change Standard Order 4711: Overview$' }],
      [`no longer a write: labels matching “^Save$” on titles matching ${ON}`],
    ],
    [
      "a write rule's label pattern changed",
      [SAVE_WRITES],
      [{ title: OVERVIEW, labels: { '^Save$ ': 'write' } }],
      [`no longer a write: labels matching “^Save$” on titles matching ${ON}`],
    ],
    [
      'a write key entry dropped, a write label kept',
      [{ title: OVERVIEW, keys: { Tab: 'write' }, labels: { '^Go$': 'write' } }],
      [{ title: OVERVIEW, labels: { '^Go$': 'write' } }],
      [`no longer a write: key Tab on titles matching ${ON}`],
    ],
    [
      'a write entry made a read',
      [SAVE_WRITES],
      [{ title: OVERVIEW, labels: { '^Save$': 'read' } }],
      [
        `no longer a write: labels matching “^Save$” on titles matching ${ON}`,
        `now a read: labels matching “^Save$” on titles matching ${ON}`,
      ],
    ],
    [
      'a read entry made a write',
      [{ title: OVERVIEW, keys: { Enter: 'read' } }],
      [{ title: OVERVIEW, keys: { Enter: 'write' } }],
      [],
    ],
    [
      'a write added beside a read (the read is as it was)',
      [{ title: OVERVIEW, keys: { Enter: 'read' } }],
      [{ title: OVERVIEW, keys: { Enter: 'read', F8: 'write' } }],
      [],
    ],
    [
      'a write entry moved to another rule with the same title',
      [{ title: OVERVIEW, keys: { Tab: 'write', F8: 'write' } }],
      [
        { title: OVERVIEW, keys: { Tab: 'write' } },
        { title: OVERVIEW, keys: { F8: 'write' } },
      ],
      [],
    ],
    [
      'a transaction code added',
      [{ command_field: { transactions: ['VA02'] } }],
      [{ command_field: { transactions: ['VA02', 'VA01'] } }],
      ['now a read: transaction VA01 in the command field'],
    ],
    [
      'a transaction code removed',
      [{ command_field: { transactions: ['VA02', 'VA01'] } }],
      [{ command_field: { transactions: ['VA02'] } }],
      [],
    ],
    [
      'a transaction added to a read rule',
      [{ transactions: ['VA03'], labels: { '.*': 'read' } }],
      [{ transactions: ['VA03', 'VA02'], labels: { '.*': 'read' } }],
      ['now a read: labels matching “.*” in transactions VA02, VA03'],
    ],
    [
      'a transaction taken from a write rule',
      [{ transactions: ['VA02', 'VA01'], labels: { '^Save$': 'write' } }],
      [{ transactions: ['VA02'], labels: { '^Save$': 'write' } }],
      ['no longer a write: labels matching “^Save$” in transactions VA01, VA02'],
    ],
    [
      "a write rule's transactions given up for its title alone",
      [{ title: OVERVIEW, transactions: ['VA02'], keys: { Tab: 'write' } }],
      [{ title: OVERVIEW, keys: { Tab: 'write' } }],
      [`no longer a write: key Tab on titles matching ${ON} in transaction VA02`],
    ],
    [
      'a read rule narrowed to a transaction',
      [{ title: OVERVIEW, keys: { Enter: 'read' } }],
      [{ title: OVERVIEW, transactions: ['VA02'], keys: { Enter: 'read' } }],
      [`now a read: key Enter on titles matching ${ON} in transaction VA02`],
    ],
    [
      'the same transactions in another order',
      [{ transactions: ['VA02', 'VA03'], keys: { Enter: 'read' } }],
      [{ transactions: ['VA03', 'VA02'], keys: { Enter: 'read' } }],
      [],
    ],
    [
      "a read rule's title widened",
      [NAVIGATES],
      [{ ...NAVIGATES, title: '^Change' }],
      ['now a read: labels matching “.*” on titles matching “^Change”'],
    ],
  ])('%s', (_, before, after, expected) => {
    expect(screenRuleLoosenings(before, after)).toEqual(expected);
  });

  it('counts an entry once however many rules hold it', () => {
    expect([...ruleEntries([SAVE_WRITES, SAVE_WRITES]).values()]).toEqual([
      { kind: 'write', what: `labels matching “^Save$” on titles matching ${ON}` },
    ]);
  });
});

// The property: a small alphabet, so that random rules share titles, keys and labels.
const TITLE_PATTERNS = [OVERVIEW, '^Change', 'Order', '^Display Standard Order$'];
const TITLES = [
  'Change Standard Order 4711: Overview',
  'Change Sales Order: Initial Screen',
  'Display Standard Order',
];
const KEYS = ['Enter', 'Tab', 'F8'];
const LABEL_PATTERNS = ['^Save$', 'Save', '.*', '^Display$', '^Go$'];
const LABELS = ['Save', 'Save as draft', 'Display', 'Go'];
const CODES = ['VA02', 'VA03', 'FB50'];

const kind = fc.constantFrom<'read' | 'write'>('read', 'write');
const entries = (names: string[]) =>
  fc.dictionary(fc.constantFrom(...names), kind, { maxKeys: names.length });
const titleRule: fc.Arbitrary<ScreenRule> = fc
  .record({
    title: fc.option(fc.constantFrom(...TITLE_PATTERNS)),
    transactions: fc.option(fc.uniqueArray(fc.constantFrom(...CODES), { minLength: 1 })),
    keys: entries(KEYS),
    labels: entries(LABEL_PATTERNS),
  })
  .filter((r) => Object.keys(r.keys).length + Object.keys(r.labels).length > 0)
  .filter((r) => r.title !== null || r.transactions !== null)
  .map((r) => ({
    ...(r.title !== null ? { title: r.title } : {}),
    ...(r.transactions !== null ? { transactions: r.transactions } : {}),
    ...(Object.keys(r.keys).length > 0 ? { keys: r.keys } : {}),
    ...(Object.keys(r.labels).length > 0 ? { labels: r.labels } : {}),
  }));
const commandFieldRule: fc.Arbitrary<ScreenRule> = fc
  .uniqueArray(fc.constantFrom(...CODES), { minLength: 1 })
  .map((transactions) => ({ command_field: { transactions } }));
const rule = fc.oneof(
  { weight: 4, arbitrary: titleRule },
  { weight: 1, arbitrary: commandFieldRule },
);

/** Changes an admin may make: remove, move, replace or add a rule, flip or drop one entry. */
type Edit =
  | { op: 'remove' | 'flip' | 'drop'; at: number }
  | { op: 'move'; at: number; to: number }
  | { op: 'replace' | 'insert'; at: number; rule: ScreenRule };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    op: fc.constantFrom<'remove' | 'flip' | 'drop'>('remove', 'flip', 'drop'),
    at: fc.nat(),
  }),
  fc.record({ op: fc.constant<'move'>('move'), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constantFrom<'replace' | 'insert'>('replace', 'insert'), at: fc.nat(), rule }),
);

function applyEdit(rules: ScreenRule[], e: Edit): ScreenRule[] {
  const out = [...rules];
  const i = out.length === 0 ? 0 : e.at % out.length;
  if (e.op === 'insert') {
    out.splice(e.at % (out.length + 1), 0, e.rule);
    return out;
  }
  if (out.length === 0) return out;
  if (e.op === 'remove') out.splice(i, 1);
  else if (e.op === 'replace') out[i] = e.rule;
  else if (e.op === 'move') out.splice(e.to % out.length, 0, ...out.splice(i, 1));
  else if (!('command_field' in out[i])) {
    const r = out[i];
    const all = [
      ...Object.keys(r.keys ?? {}).map((k) => ['keys', k] as const),
      ...Object.keys(r.labels ?? {}).map((k) => ['labels', k] as const),
    ];
    const [field, name] = all[e.at % all.length];
    const map = { ...r[field] };
    if (e.op === 'flip') map[name] = map[name] === 'read' ? 'write' : 'read';
    else delete map[name];
    const next: TitleScreenRule = { ...r, [field]: map };
    if (Object.keys(next[field]!).length === 0) delete next[field];
    if (next.keys || next.labels) out[i] = next;
    else out.splice(i, 1);
  }
  return out;
}

/** Every situation the rules can judge, over the alphabet. */
interface Situation {
  action: Action;
  base: Classification;
  facts: ScreenFacts;
}
const SITUATIONS: Situation[] = (() => {
  const out: Situation[] = [];
  const nothing = {
    label: null,
    targetVerb: null,
    inCommandField: false,
    previous: null,
    point: null,
    unreadSpot: false,
  };
  for (const [title, transaction] of [
    ...TITLES.map((text) => ({ text, source: 'outline' as const })),
    null,
  ].flatMap((t) => [null, ...CODES].map((code) => [t, code] as const))) {
    for (const baseKind of ['read', 'write'] as const) {
      const base = { kind: baseKind, why: 'the default rules' };
      for (const key of KEYS) {
        out.push({
          action: { action: 'key', key },
          base,
          facts: { ...nothing, title, transaction },
        });
      }
      for (const text of LABELS) {
        for (const targetVerb of [null, 'Save']) {
          out.push({
            action: { action: 'click', x: 1, y: 1 },
            base,
            facts: {
              ...nothing,
              title,
              transaction,
              label: { text, source: 'outline' },
              targetVerb,
            },
          });
        }
      }
      for (const code of [...CODES, '/nVA02']) {
        out.push({
          action: { action: 'type', text: code },
          base,
          facts: { ...nothing, title, transaction, inCommandField: true },
        });
        out.push({
          action: { action: 'key', key: 'Enter' },
          base,
          facts: {
            ...nothing,
            title,
            transaction,
            inCommandField: true,
            previous: { action: { action: 'type', text: code }, outcome: 'sent' },
          },
        });
      }
    }
  }
  return out;
})();

const compiled = (rules: ScreenRule[]) => loadRules({ screen_rules: rules }).screenRules;

describe('screen rules judged by effect: the property', () => {
  it('no change that loosens nothing makes any write a read, on any screen', () => {
    let loosening = 0;
    let quiet = 0;
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 5 }),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (before, edits) => {
          const after = edits.reduce(applyEdit, before);
          if (screenRuleLoosenings(before, after).length > 0) {
            loosening += 1;
            return;
          }
          quiet += 1;
          const [old, now] = [compiled(before), compiled(after)];
          for (const { action, base, facts } of SITUATIONS) {
            if (applyScreenRules(action, base, facts, old).kind !== 'write') continue;
            const next = applyScreenRules(action, base, facts, now);
            expect({ action, facts, kind: next.kind }).toEqual({ action, facts, kind: 'write' });
          }
        },
      ),
      { numRuns: 500 },
    );
    // Both sides were tried, often.
    expect(Math.min(loosening, quiet)).toBeGreaterThan(50);
  });
});
