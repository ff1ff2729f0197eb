/**
 * Checking an agent's screen rules (docs/rules.md): both shapes accepted and normalised, and every
 * refusal, naming the rule by its index.
 */
import { loadRules, RulesError } from './rules';
import { readScreenRules } from './screen-rules-read';

const COMMAND_FIELD = { command_field: { transactions: ['VA02', 'VA03'] } };

describe('checking screen rules', () => {
  const keyRules = loadRules();
  const problems = (raw: unknown) => readScreenRules(raw, keyRules).problems;

  it('accepts both shapes and normalises them', () => {
    const read = readScreenRules(
      [
        { command_field: { transactions: ['va02', 'VA03', 'VA02', '/sapapo/res01'] } },
        { title: '^X$', keys: { return: 'read', Enter: 'write', 'ctrl-s': 'read' } },
        { title: '^Y$', labels: { '^Display$': 'read' } },
        { transactions: ['va03', 'VA03', 'Va02'], labels: { '.*': 'read' } },
        { title: '^Z$', transactions: ['FB50'], keys: { F8: 'write' } },
      ],
      keyRules,
    );
    expect(read.problems).toEqual([]);
    expect(read.list).toEqual([
      { command_field: { transactions: ['VA02', 'VA03', '/SAPAPO/RES01'] } },
      // Two spellings of one key: write wins.
      { title: '^X$', keys: { Enter: 'write', 'Ctrl+S': 'read' } },
      { title: '^Y$', labels: { '^Display$': 'read' } },
      { transactions: ['VA03', 'VA02'], labels: { '.*': 'read' } },
      { title: '^Z$', transactions: ['FB50'], keys: { F8: 'write' } },
    ]);
    expect(read.compiled.titled.map((r) => [r.title?.source ?? null, r.transactions])).toEqual([
      ['^X$', null],
      ['^Y$', null],
      [null, new Set(['VA03', 'VA02'])],
      ['^Z$', new Set(['FB50'])],
    ]);
    expect(readScreenRules(null, keyRules).list).toEqual([]);
    expect(readScreenRules([], keyRules).problems).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    [
      'not a list',
      { title: 'x' },
      [
        'screen_rules must be a list: a screen rule is {"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it) or {"command_field": {"transactions": ["VA02"]}}',
      ],
    ],
    [
      'a bad regular expression names the rule',
      [COMMAND_FIELD, { title: '^(Change', keys: { Enter: 'read' } }],
      ['screen_rules[1].title is not a valid regular expression: Unterminated group'],
    ],
    [
      'a bad label pattern names its label',
      [{ title: '^X$', labels: { '[a-': 'read' } }],
      [
        'screen_rules[0].labels["[a-"] is not a valid regular expression: Unterminated character class',
      ],
    ],
    [
      'a lookahead, which RE2 cannot run',
      [{ title: '^Change(?! Sales)', keys: { Enter: 'read' } }],
      [
        'screen_rules[0].title is not a valid regular expression: a lookahead ((?=…) or (?!…)) cannot be used: Warden matches patterns with RE2, in time linear in the text, and RE2 has no such thing',
      ],
    ],
    [
      'a backreference in a label pattern',
      [{ title: '^X$', labels: { '^(\\w)\\1$': 'read' } }],
      [
        'screen_rules[0].labels["^(\\\\w)\\\\1$"] is not a valid regular expression: a backreference (\\1) cannot be used: Warden matches patterns with RE2, in time linear in the text, and RE2 has no such thing',
      ],
    ],
    [
      'a pattern too large to match cheaply',
      [{ title: '.{1000}.{1000}', keys: { Enter: 'read' } }],
      [
        'screen_rules[0].title is too large to match cheaply: about 2002 steps per character of text, at most 2000; a repeat such as {50} copies what it repeats 50 times',
      ],
    ],
    [
      'patterns too large together',
      Array.from({ length: 11 }, () => ({ title: '.{1000}.{900}', keys: { Enter: 'read' } })),
      [
        'screen_rules[10].title is too large to match cheaply: with the patterns before it, over 20000 steps per character of text, the most they may take together; a repeat such as {50} copies what it repeats 50 times',
      ],
    ],
    [
      'a title that is not a string',
      [{ title: 42, keys: { Enter: 'read' } }],
      ['screen_rules[0].title must be a regular expression of 1 to 200 characters'],
    ],
    [
      'a title too long',
      [{ title: 'x'.repeat(201), keys: { Enter: 'read' } }],
      ['screen_rules[0].title must be a regular expression of 1 to 200 characters'],
    ],
    [
      'neither keys nor labels',
      [{ title: '^X$' }],
      [
        'screen_rules[0] needs keys, labels or regions: what counts as a read or a write on the screens it is for',
      ],
    ],
    [
      'empty keys and labels',
      [{ title: '^X$', keys: {}, labels: {} }],
      [
        'screen_rules[0] needs keys, labels or regions: what counts as a read or a write on the screens it is for',
      ],
    ],
    [
      'a kind other than read or write',
      [{ title: '^X$', keys: { Enter: 'navigation' }, labels: { '^A$': true } }],
      [
        'screen_rules[0].keys["Enter"] must be "read" or "write"',
        'screen_rules[0].labels["^A$"] must be "read" or "write"',
      ],
    ],
    [
      'a key Warden does not know',
      [{ title: '^X$', keys: { Hyperspace: 'read' } }],
      ['screen_rules[0].keys["Hyperspace"]: "Hyperspace" is not a key Warden knows'],
    ],
    [
      'a key Warden refuses on every screen',
      [{ title: '^X$', keys: { 'alt+f4': 'read' } }],
      [
        'screen_rules[0].keys["alt+f4"]: key Alt+F4 is neither a navigation nor a commit key, and Warden refuses it on every screen',
      ],
    ],
    [
      'keys that are not an object',
      [{ title: '^X$', keys: ['Enter'] }],
      ['screen_rules[0].keys must be an object: {"Enter": "read"}'],
    ],
    [
      'both shapes in one rule',
      [{ title: '^X$', keys: { Enter: 'read' }, command_field: { transactions: ['VA02'] } }],
      [
        'screen_rules[0]: a screen rule is {"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it) or {"command_field": {"transactions": ["VA02"]}}',
      ],
    ],
    [
      'neither shape',
      [{ keys: { Enter: 'read' } }, null, 'VA02'],
      [0, 1, 2].map(
        (i) =>
          `screen_rules[${i}]: a screen rule is {"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it) or {"command_field": {"transactions": ["VA02"]}}`,
      ),
    ],
    [
      'an unknown field',
      [{ title: '^X$', keys: { Enter: 'read' }, when: 'always' }],
      [
        'screen_rules[0].when is not a field of this screen rule (title, transactions, keys, labels, regions)',
      ],
    ],
    [
      'transactions missing or empty',
      [{ command_field: {} }, { command_field: { transactions: [] } }, { command_field: 'VA02' }],
      [
        'screen_rules[0].command_field.transactions must be a list of 1 to 100 transaction codes',
        'screen_rules[1].command_field.transactions must be a list of 1 to 100 transaction codes',
        'screen_rules[2].command_field must be {"transactions": ["VA02", …]}',
      ],
    ],
    [
      'a transaction code that is not one',
      [{ command_field: { transactions: ['VA02', '/nVA02', 'VA 02', 7, 'X'.repeat(41)] } }],
      [1, 2, 3, 4].map(
        (j) =>
          `screen_rules[0].command_field.transactions[${j}] ${j === 3 ? '7' : JSON.stringify(['', '/nVA02', 'VA 02', '', 'X'.repeat(41)][j])} is not a transaction code (letters, digits and _, at most 40 characters, with an optional /NAMESPACE/ before them)`,
      ),
    ],
    [
      "a screen rule's transactions that are not a list of codes",
      [
        { transactions: [], keys: { Enter: 'read' } },
        { transactions: 'VA02', keys: { Enter: 'read' } },
        { transactions: ['VA02', '/nVA02'], keys: { Enter: 'read' } },
      ],
      [
        'screen_rules[0].transactions must be a list of 1 to 100 transaction codes',
        'screen_rules[1].transactions must be a list of 1 to 100 transaction codes',
        'screen_rules[2].transactions[1] "/nVA02" is not a transaction code (letters, digits and _, at most 40 characters, with an optional /NAMESPACE/ before them)',
      ],
    ],
    [
      'a transaction rule beside a command field rule in one',
      [{ transactions: ['VA02'], command_field: { transactions: ['VA02'] } }],
      [
        'screen_rules[0]: a screen rule is {"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it) or {"command_field": {"transactions": ["VA02"]}}',
      ],
    ],
    [
      'an unknown field of command_field',
      [{ command_field: { transactions: ['VA02'], prefix: '/n' } }],
      ['screen_rules[0].command_field.prefix is not a field of this screen rule (transactions)'],
    ],
    [
      'too many rules',
      Array.from({ length: 51 }, () => COMMAND_FIELD),
      ['screen_rules: at most 50 rules'],
    ],
    [
      'regions that are no rectangles, or say neither read nor write',
      [
        {
          title: '^GnuCash$',
          regions: [
            { x: -1, y: 0, width: 10, height: 10, click: 'read' },
            { x: 0, y: 0, width: 0, height: 10.5, click: 'read' },
            { x: 0, y: 0, width: 10, height: 10, click: 'navigation', at: 1 },
            'everywhere',
          ],
        },
      ],
      [
        'screen_rules[0].regions[0].x must be an integer from 0 to 100000',
        'screen_rules[0].regions[1].width must be an integer from 1 to 100000',
        'screen_rules[0].regions[1].height must be an integer from 1 to 100000',
        'screen_rules[0].regions[2].at is not a field of a region (x, y, width, height, click)',
        'screen_rules[0].regions[2].click must be "read" or "write"',
        'screen_rules[0].regions[3] must be a region: {"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}',
      ],
    ],
  ])('refuses %s, naming every problem', (_name, raw, expected) => {
    expect(problems(raw)).toEqual(expected);
    expect(() => loadRules({ screen_rules: raw })).toThrow(RulesError);
  });

  it('accepts patterns that backtrack catastrophically in JavaScript: RE2 runs them in linear time', () => {
    const labels = { '(a|aa)*c': 'write', '(\\w|\\d)*x': 'write', 'a*a*a*a*a*a*b': 'write' };
    expect(problems([{ title: '^(a+)+$', labels }])).toEqual([]);
  });

  it('reads stored rules whose patterns cannot be run failing closed, and names them', () => {
    const raw = [
      { title: '^Change(?! Sales)', keys: { Enter: 'read', Tab: 'write' } },
      { title: '^X$', labels: { '(a)\\1': 'read', '(b)\\1': 'write', '^Display$': 'read' } },
    ];
    const read = readScreenRules(raw, keyRules, 'stored');
    expect(read.problems).toEqual([]);
    const { titled, unusable } = read.compiled;
    expect(unusable).toEqual([
      expect.stringMatching(
        /^screen_rules\[0\]\.title is not a valid regular expression: a lookahead/,
      ),
      expect.stringMatching(
        /^screen_rules\[1\]\.labels\["\(a\)\\\\1"\] is not a valid regular expression: a backreference/,
      ),
      expect.stringMatching(
        /^screen_rules\[1\]\.labels\["\(b\)\\\\1"\] is not a valid regular expression: a backreference/,
      ),
    ]);
    // The title that cannot be run: its write (Tab) applies on every screen, its read nowhere.
    expect(titled[0].title!.test('Anything at all')).toBe(true);
    expect([...titled[0].keys]).toEqual([['Tab', 'write']]);
    // The label read that cannot be run is gone; the write names every label; the rest as written.
    expect(titled[1].labels.map((l) => [l.kind, l.pattern.test('Display')])).toEqual([
      ['write', true],
      ['read', true],
    ]);
    expect(titled[1].labels[0].pattern.test('Save')).toBe(true);
    expect(titled[1].labels[1].pattern.test('Save')).toBe(false);
    // What is stored stays as it was written.
    expect(read.list).toEqual(raw);
    expect(loadRules({ screen_rules: raw }, 'stored').screenRules.unusable).toHaveLength(3);
    expect(() => loadRules({ screen_rules: raw })).toThrow(RulesError);
  });

  it('reports each problem of an agent on its own', () => {
    try {
      loadRules({ commit_words: ['***'], screen_rules: [{ title: '(', keys: { Enter: 'read' } }] });
      throw new Error('accepted');
    } catch (error) {
      expect((error as RulesError).problems).toEqual([
        'commit_words: “***” must have letters or digits and at most 64 characters',
        'screen_rules[0].title is not a valid regular expression: Unterminated group',
      ]);
    }
  });
});
