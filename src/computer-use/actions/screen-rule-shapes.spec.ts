/**
 * The table of screen-rule shapes, held to what reading, applying and describing the rules did
 * before each shape had a file of its own: the problem's words, one shape an item, every rule of
 * each shape read back as itself, and which rule the why names when a code typed in the command
 * field and a title rule both make its Enter a read.
 */
import { SCREEN_RULE_DTOS } from '../settings/dto/screen-rule.dto';
import { ruleEntries } from '../settings/screen-rule-effect';
import { loadRules } from './rules';
import { SCREEN_RULE_SHAPES, SHAPES, SHAPES_IN_WORDS, shapeOf } from './screen-rule-shapes';
import { applyScreenRules, type ScreenFacts } from './screen-rules';
import { NO_SCREEN_RULES, readScreenRules } from './screen-rules-read';

const INITIAL = 'Change Sales Order: Initial Screen';
const TITLED = [
  { title: `^${INITIAL}$`, keys: { return: 'read', F3: 'write' }, labels: { '^Display$': 'read' } },
  { transactions: ['va03'], regions: [{ x: 0, y: 130, width: 800, height: 300, click: 'read' }] },
  { title: '^Overview$', transactions: ['VA02', 'va02'], labels: { '^Save$': 'write' } },
];
const COMMAND_FIELD = [{ command_field: { transactions: ['va02', '/SAPAPO/RES01'] } }];

describe('screen-rule shapes', () => {
  it('are the two of docs/rules.md, in the words a problem has always named them in', () => {
    expect(Object.keys(SCREEN_RULE_SHAPES)).toEqual(['titled', 'commandField']);
    expect(SHAPES_IN_WORDS).toBe(
      'a screen rule is {"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it) or {"command_field": {"transactions": ["VA02"]}}',
    );
    expect(NO_SCREEN_RULES).toEqual({ titled: [], commandField: [], unusable: [] });
    expect(Object.isFrozen(NO_SCREEN_RULES)).toBe(true);
  });

  it('each have their OpenAPI class under the same key, in the same order', () => {
    expect(Object.keys(SCREEN_RULE_DTOS)).toEqual(SHAPES.map(([key]) => key));
  });

  it('each claim an item by its fields: one shape an item, else it is refused', () => {
    const claimed = (item: object) =>
      SHAPES.filter(([, shape]) => shape.claims(item)).map(([key]) => key);
    expect(claimed({ title: 'x' })).toEqual(['titled']);
    expect(claimed({ transactions: [] })).toEqual(['titled']);
    expect(claimed({ command_field: {} })).toEqual(['commandField']);
    expect(claimed({ keys: {} })).toEqual([]);
    expect(claimed({ title: 'x', command_field: {} })).toEqual(['titled', 'commandField']);
    expect(readScreenRules([{ keys: { Enter: 'read' } }], loadRules()).problems).toEqual([
      `screen_rules[0]: ${SHAPES_IN_WORDS}`,
    ]);
  });

  it('read every rule of each shape back as itself, under its own key', () => {
    const first = readScreenRules([...TITLED, ...COMMAND_FIELD], loadRules());
    expect(first.problems).toEqual([]);
    expect(first.list).toEqual([
      {
        title: `^${INITIAL}$`,
        keys: { Enter: 'read', F3: 'write' },
        labels: { '^Display$': 'read' },
      },
      {
        transactions: ['VA03'],
        regions: [{ x: 0, y: 130, width: 800, height: 300, click: 'read' }],
      },
      { title: '^Overview$', transactions: ['VA02'], labels: { '^Save$': 'write' } },
      { command_field: { transactions: ['VA02', '/SAPAPO/RES01'] } },
    ]);
    expect(first.compiled.titled.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(first.compiled.commandField.map((r) => r.n)).toEqual([4]);
    const again = readScreenRules(first.list, loadRules());
    expect(again.list).toEqual(first.list);
    expect(first.list.map((rule) => shapeOf(rule))).toEqual([
      SCREEN_RULE_SHAPES.titled,
      SCREEN_RULE_SHAPES.titled,
      SCREEN_RULE_SHAPES.titled,
      SCREEN_RULE_SHAPES.commandField,
    ]);
    expect([...ruleEntries(first.list).values()].map((e) => `${e.kind}: ${e.what}`)).toEqual([
      `read: key Enter on titles matching “^${INITIAL}$”`,
      `write: key F3 on titles matching “^${INITIAL}$”`,
      `read: labels matching “^Display$” on titles matching “^${INITIAL}$”`,
      'read: clicks in the region 0,130 800×300 where the outline has no element in transaction VA03',
      'write: labels matching “^Save$” on titles matching “^Overview$” in transaction VA02',
      'read: transaction VA02 in the command field',
      'read: transaction /SAPAPO/RES01 in the command field',
    ]);
  });

  it('name the command field rule when it and a title rule make the Enter after a code a read', () => {
    const { compiled } = readScreenRules(
      [{ title: `^${INITIAL}$`, keys: { Enter: 'read' } }, COMMAND_FIELD[0]],
      loadRules(),
    );
    const facts: ScreenFacts = {
      title: { text: INITIAL, source: 'outline' },
      transaction: null,
      label: null,
      targetVerb: null,
      inCommandField: true,
      previous: { action: { action: 'type', text: '/nVA02' }, outcome: 'sent' },
      point: null,
      unreadSpot: false,
    };
    const base = { kind: 'write', why: 'key Enter commits' } as const;
    expect(applyScreenRules({ action: 'key', key: 'Enter' }, base, facts, compiled)).toEqual({
      kind: 'read',
      why: 'Enter after “/nVA02” in the command field is navigation by screen rule 2',
      loosenedBy: { screenRule: 2 },
    });
    const noCode = { ...facts, previous: null };
    expect(applyScreenRules({ action: 'key', key: 'Enter' }, base, noCode, compiled)).toEqual({
      kind: 'read',
      why: `Enter on “${INITIAL}” is navigation by screen rule 1`,
      loosenedBy: { screenRule: 1 },
    });
  });
});
