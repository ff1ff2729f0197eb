/**
 * Screen rules (docs/rules.md) as a table: each case an agent's rules, a screen, an answer, and the
 * exact classification and why a step records. Runs the whole question as the engine asks it
 * (`checkAction`), so validation comes first and the default rules are underneath.
 */
import { transactionElement } from '@warden/protocol';
import type { EarlierStep, OcrReading, OutlineElement, ScreenContext } from './action.types';
import { checkAction, needsTitle, screenTitle } from './check-action';
import { loadRules } from './rules';
import { previousAction } from './typed-field';

const el = (
  id: string,
  role: string,
  name: string,
  x: number,
  y: number,
  width: number,
  height: number,
  extra: Partial<OutlineElement> = {},
): OutlineElement => ({ id, role, name, rect: { x, y, width, height }, ...extra });

const INITIAL = 'Change Sales Order: Initial Screen';

/** The sim's VA02 initial screen, much simplified: the command field has the focus. */
const OUTLINE: OutlineElement[] = [
  el('title', 'title', INITIAL, 16, 90, 300, 22),
  el('cmd', 'textbox', 'Command field', 42, 55, 196, 22, { focused: true, area: 'command_field' }),
  el('order', 'textbox', 'Order', 200, 172, 110, 22),
  el('pwd', 'textbox', 'Password', 200, 300, 110, 22, { password: true }),
  el('display', 'button', 'Display', 400, 120, 80, 24),
  el('delete', 'button', 'Delete', 500, 120, 80, 24),
  el('save', 'button', 'Save', 600, 120, 80, 24),
];

/** The outline with `id`, and only it, focused. */
const focused = (id: string, outline = OUTLINE) =>
  outline.map((e) => ({ ...e, focused: e.id === id ? true : undefined }));
const retitled = (title: string | null): OutlineElement[] => [
  ...(title === null ? [] : [{ ...OUTLINE[0], name: title }]),
  ...OUTLINE.slice(1),
];

/** The outline with the session's transaction codes the host reports. */
const inTransaction = (...codes: string[]): Partial<ScreenContext> => ({
  outline: [...OUTLINE, ...codes.map(transactionElement)],
});
const DIALOG = el('popup', 'dialog', 'Save changes?', 300, 300, 400, 200, { states: ['modal'] });

const SCREEN: ScreenContext = { width: 1280, height: 800, outline: OUTLINE };
const BLIND: ScreenContext = { width: 1280, height: 800, outline: null };

const at = (id: string) => {
  const r = OUTLINE.find((e) => e.id === id)!.rect;
  return { x: r.x + Math.floor(r.width / 2), y: r.y + Math.floor(r.height / 2) };
};
const click = (id: string, extra: object = {}) => ({ action: 'click', ...at(id), ...extra });
const type = (text: string) => ({ action: 'type', text });
const key = (k: string) => ({ action: 'key', key: k });
const typed = (text: string, outcome = 'sent'): EarlierStep => ({
  action: { action: 'type', text },
  outcome,
});
/** An OCR reading of these words, each at this confidence. */
const read = (text: string, confidence = 90): OcrReading => ({
  words: text.split(' ').map((w) => ({ text: w, confidence })),
});

const COMMAND_FIELD = { command_field: { transactions: ['VA02', 'VA03'] } };
const ENTER_READ = { title: `^${INITIAL}$`, keys: { Enter: 'read' } };
/** The two rules of the demo. */
const DEMO = [COMMAND_FIELD, ENTER_READ];
/** A part of the screen the application draws without elements in the outline. */
const REGISTER_READ = {
  title: `^${INITIAL}$`,
  regions: [{ x: 900, y: 400, width: 300, height: 200, click: 'read' }],
};

type Expected = ['read' | 'write' | 'invalid', string];
interface Case {
  case: string;
  rules: unknown[];
  answer: unknown;
  screen?: Partial<ScreenContext>;
  /** What OCR read around a click's point. */
  ocr?: OcrReading;
  expected: Expected;
}

const TYPED = (text: string, n = 1): Expected => [
  'read',
  `typing “${text}” into the command field is navigation by screen rule ${n}`,
];
const TYPING: Expected = ['write', 'typing into a field is a write'];
const ENTER_ON = (title: string, n: number, ocr = false): Expected => [
  'read',
  `Enter on “${title}”${ocr ? ' (the title read from the screen by OCR)' : ''} is navigation by screen rule ${n}`,
];
const ENTER_COMMITS: Expected = ['write', 'key Enter commits'];

const CASES: Case[] = [
  // command_field: typing a listed transaction code into the command field
  { case: 'typing /nVA02', rules: DEMO, answer: type('/nVA02'), expected: TYPED('/nVA02') },
  { case: 'typing VA02 alone', rules: DEMO, answer: type('VA02'), expected: TYPED('VA02') },
  { case: 'typing /oVA03', rules: DEMO, answer: type('/oVA03'), expected: TYPED('/oVA03') },
  {
    case: 'the code in lower case',
    rules: DEMO,
    answer: type('/nva02'),
    expected: TYPED('/nva02'),
  },
  { case: '/N in capitals', rules: DEMO, answer: type('/NVA02'), expected: TYPED('/NVA02') },
  {
    case: 'the second rule of its kind is named',
    rules: [ENTER_READ, { command_field: { transactions: ['FB50'] } }, COMMAND_FIELD],
    answer: type('/nVA03'),
    expected: TYPED('/nVA03', 3),
  },
  { case: 'a code not listed', rules: DEMO, answer: type('/nVA01'), expected: TYPING },
  { case: 'a space after the code', rules: DEMO, answer: type('/nVA02 '), expected: TYPING },
  { case: 'a newline after the code', rules: DEMO, answer: type('/nVA02\n'), expected: TYPING },
  {
    case: 'another prefix (/i ends a session)',
    rules: DEMO,
    answer: type('/iVA02'),
    expected: TYPING,
  },
  { case: 'two codes', rules: DEMO, answer: type('VA02VA03'), expected: TYPING },
  {
    case: 'a dotless ı that upper-cases to I is not ASCII',
    rules: [{ command_field: { transactions: ['VI01'] } }],
    answer: type('/nvı01'),
    expected: TYPING,
  },
  {
    case: 'the code typed into another field',
    rules: DEMO,
    answer: type('VA02'),
    screen: { outline: focused('order') },
    expected: TYPING,
  },
  {
    case: 'the host marks the command field, the run last clicked another field',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: { focus: OUTLINE.find((e) => e.id === 'order') },
    expected: TYPING,
  },
  {
    case: 'no focused field known',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: { outline: focused('none') },
    expected: TYPING,
  },
  {
    case: 'the run last clicked the command field, the host marks no focus (a dialog may have it)',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: { outline: focused('none'), focus: OUTLINE.find((e) => e.id === 'cmd') },
    expected: TYPING,
  },
  {
    case: 'the run last clicked the command field and the host marks it focused',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: { focus: OUTLINE.find((e) => e.id === 'cmd') },
    expected: TYPED('/nVA02'),
  },
  {
    case: 'without an outline the command field is not located',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: BLIND,
    expected: TYPING,
  },
  {
    case: 'a field only named like the command field is not it unless it is a text field',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: {
      outline: [
        el('cmd', 'button', 'Command field', 42, 55, 196, 22, {
          focused: true,
          area: 'command_field',
        }),
      ],
    },
    expected: TYPING,
  },
  {
    case: 'the German sim’s Befehlsfeld is the command field: the host marks its area',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: {
      outline: [
        el('cmd', 'textbox', 'Befehlsfeld', 42, 55, 196, 22, {
          focused: true,
          area: 'command_field',
        }),
      ],
    },
    expected: TYPED('/nVA02'),
  },
  {
    case: 'SAP GUI Scripting’s okcd id marks the command field in any language',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: {
      outline: [
        el(
          '/app/con[0]/ses[0]/wnd[0]/tbar[0]/okcd',
          'GuiOkCodeField',
          'Campo de comandos',
          42,
          55,
          196,
          22,
          {
            focused: true,
          },
        ),
      ],
    },
    expected: TYPED('/nVA02'),
  },
  {
    case: 'a field only named Command field, that the host does not mark, is not the command field',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: {
      outline: [el('cmd', 'textbox', 'Command field', 42, 55, 196, 22, { focused: true })],
    },
    expected: TYPING,
  },
  {
    case: 'nor is a field named Befehlsfeld',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: {
      outline: [el('cmd', 'textbox', 'Befehlsfeld', 42, 55, 196, 22, { focused: true })],
    },
    expected: TYPING,
  },
  {
    case: 'an okcd of another toolbar is not the command field',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: {
      outline: [
        el('wnd[0]/tbar[1]/okcd', 'textbox', 'Command field', 42, 55, 196, 22, { focused: true }),
      ],
    },
    expected: TYPING,
  },
  {
    case: 'invalid stays invalid: a focused password field, whatever the rules',
    rules: DEMO,
    answer: type('/nVA02'),
    screen: { outline: focused('pwd') },
    expected: [
      'invalid',
      'the focused field “Password” is a password field; Warden never types into password fields',
    ],
  },

  // command_field: the Enter right after it
  {
    case: 'Enter right after /nVA02',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled('SAP Easy Access'), previous: typed('/nVA02') },
    expected: ['read', 'Enter after “/nVA02” in the command field is navigation by screen rule 1'],
  },
  {
    case: 'Enter after /nVA02 that a person approved',
    rules: DEMO,
    answer: key('return'),
    screen: {
      outline: retitled('SAP Easy Access'),
      previous: typed('/nVA02', 'sent_after_approval'),
    },
    expected: ['read', 'Enter after “/nVA02” in the command field is navigation by screen rule 1'],
  },
  {
    case: 'Enter after a code not listed',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled('SAP Easy Access'), previous: typed('/nVA01') },
    expected: ENTER_COMMITS,
  },
  {
    case: 'Enter after typing that was not sent',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled('SAP Easy Access'), previous: typed('/nVA02', 'held') },
    expected: ENTER_COMMITS,
  },
  {
    case: 'Enter with no earlier action',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled('SAP Easy Access'), previous: null },
    expected: ENTER_COMMITS,
  },
  {
    case: 'Enter after a click',
    rules: DEMO,
    answer: key('Enter'),
    screen: {
      outline: retitled('SAP Easy Access'),
      previous: { action: click('cmd'), outcome: 'sent' },
    },
    expected: ENTER_COMMITS,
  },
  {
    case: 'Enter after /nVA02 once the focus is in another field',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: focused('order', retitled('SAP Easy Access')), previous: typed('/nVA02') },
    expected: ENTER_COMMITS,
  },
  {
    case: 'Enter after /nVA02 once the host marks no focus (a dialog opened)',
    rules: DEMO,
    answer: key('Enter'),
    screen: {
      outline: focused('none', retitled(null)),
      focus: OUTLINE.find((e) => e.id === 'cmd'),
      previous: typed('/nVA02'),
    },
    expected: ENTER_COMMITS,
  },
  {
    case: 'F8 after /nVA02 is not the Enter',
    rules: DEMO,
    answer: key('F8'),
    screen: { outline: retitled('SAP Easy Access'), previous: typed('/nVA02') },
    expected: ['write', 'key F8 commits'],
  },
  {
    case: 'Enter after /nVA02 without an outline',
    rules: DEMO,
    answer: key('Enter'),
    screen: { ...BLIND, previous: typed('/nVA02') },
    expected: ENTER_COMMITS,
  },

  // title rules: keys
  {
    case: 'Enter on the initial screen',
    rules: DEMO,
    answer: key('Enter'),
    expected: ENTER_ON(INITIAL, 2),
  },
  {
    case: 'a key spelt otherwise is normalised first',
    rules: [{ title: `^${INITIAL}$`, keys: { return: 'read' } }],
    answer: key('KP_Enter'),
    expected: ENTER_ON(INITIAL, 1),
  },
  {
    case: 'a title with extra spaces and a zero-width space is read as a person sees it',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled(`  Change Sales\u200b Order:  Initial Screen `) },
    expected: ENTER_ON(INITIAL, 2),
  },
  {
    case: 'Enter on another screen',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled('Change Standard Order 4711: Overview') },
    expected: ENTER_COMMITS,
  },
  {
    case: 'titles are matched as written: case counts',
    rules: [{ title: '^change sales order', keys: { Enter: 'read' } }],
    answer: key('Enter'),
    expected: ENTER_COMMITS,
  },
  {
    case: 'a case-insensitive group matches',
    rules: [{ title: '^(?i:change sales order)', keys: { Enter: 'read' } }],
    answer: key('Enter'),
    expected: ENTER_ON(INITIAL, 1),
  },
  {
    case: 'fail closed: an outline without a title element',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled(null) },
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: a blank title element',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled(' \u200b ') },
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: two titles that differ (which is the screen’s?)',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: [...OUTLINE, el('t2', 'Title', 'Save changes?', 400, 300, 200, 20)] },
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: a title longer than 200 characters is not matched',
    rules: [{ title: '^Change', keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: { outline: retitled(`Change ${'x'.repeat(200)}`) },
    expected: ENTER_COMMITS,
  },
  {
    case: 'with an outline, the title bar read by OCR is not looked at',
    rules: DEMO,
    answer: key('Enter'),
    screen: { outline: retitled(null), titleBar: read(INITIAL) },
    expected: ENTER_COMMITS,
  },
  {
    case: 'without an outline: the title bar read by OCR',
    rules: DEMO,
    answer: key('Enter'),
    screen: { ...BLIND, titleBar: read(INITIAL) },
    expected: ENTER_ON(INITIAL, 2, true),
  },
  {
    case: 'fail closed: OCR failed on the title bar',
    rules: DEMO,
    answer: key('Enter'),
    screen: { ...BLIND, titleBar: { unreadable: 'failed' } },
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: OCR timed out on the title bar',
    rules: DEMO,
    answer: key('Enter'),
    screen: { ...BLIND, titleBar: { unreadable: 'timed_out' } },
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: no title bar found',
    rules: DEMO,
    answer: key('Enter'),
    screen: { ...BLIND, titleBar: { unreadable: 'no_text' } },
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: a title bar OCR was unsure of',
    rules: DEMO,
    answer: key('Enter'),
    screen: { ...BLIND, titleBar: read(INITIAL, 40) },
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: without an outline and nothing read',
    rules: DEMO,
    answer: key('Enter'),
    screen: BLIND,
    expected: ENTER_COMMITS,
  },
  {
    case: 'a rule that says write makes a navigation key a write',
    rules: [{ title: `^${INITIAL}$`, keys: { Tab: 'write' } }],
    answer: key('Tab'),
    expected: ['write', `Tab on “${INITIAL}” is a write by screen rule 1`],
  },
  {
    case: 'write wins over read, whatever the order',
    rules: [ENTER_READ, { title: '^Change', keys: { Enter: 'write' } }],
    answer: key('Enter'),
    expected: ['write', `Enter on “${INITIAL}” is a write by screen rule 2`],
  },
  {
    case: 'write wins over the command field’s Enter',
    rules: [COMMAND_FIELD, { title: '^SAP Easy Access$', keys: { Enter: 'write' } }],
    answer: key('Enter'),
    screen: { outline: retitled('SAP Easy Access'), previous: typed('/nVA02') },
    expected: ['write', 'Enter on “SAP Easy Access” is a write by screen rule 2'],
  },
  {
    case: 'a key the rule does not name',
    rules: DEMO,
    answer: key('F8'),
    expected: ['write', 'key F8 commits'],
  },
  {
    case: 'invalid stays invalid: a refused key',
    rules: DEMO,
    answer: key('Alt+F4'),
    expected: [
      'invalid',
      'key Alt+F4 is not allowed; the allowed keys are the navigation keys (Tab, Shift+Tab, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, Escape, F1, F2, F3, F4, F12) and the commit keys (Enter, F8, F11, Ctrl+S, F5, Delete, Backspace)',
    ],
  },
  {
    case: 'a key rule says nothing about typing',
    rules: [ENTER_READ],
    answer: type('4711'),
    expected: TYPING,
  },

  // title rules: labels
  {
    case: 'a click on a label the rule names',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Delete$': 'read' } }],
    answer: click('delete'),
    expected: [
      'read',
      `click on “Delete” (from the screen outline) on “${INITIAL}” is navigation by screen rule 1`,
    ],
  },
  {
    case: 'a double-click on a label the rule names',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Delete$': 'read' } }],
    answer: { ...click('delete'), action: 'double_click' },
    expected: [
      'read',
      `double-click on “Delete” (from the screen outline) on “${INITIAL}” is navigation by screen rule 1`,
    ],
  },
  {
    case: 'a label rule that says write',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Display$': 'write' } }],
    answer: click('display'),
    expected: [
      'write',
      `click on “Display” (from the screen outline) on “${INITIAL}” is a write by screen rule 1`,
    ],
  },
  {
    case: 'a label rule that says write on a text field',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Order$': 'write' } }],
    answer: click('order'),
    expected: [
      'write',
      `click on “Order” (from the screen outline) on “${INITIAL}” is a write by screen rule 1`,
    ],
  },
  {
    case: 'the target rule holds: a target naming a committing verb stays a write',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Delete$': 'read' } }],
    answer: click('delete', { target: 'Delete' }),
    expected: [
      'write',
      "click on “Delete” (from the screen outline); screen rule 1 does not make a read of a click whose planner's target names a committing verb",
    ],
  },
  {
    case: 'the target rule holds: a target naming another verb',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Display$': 'read' } }],
    answer: click('display', { target: 'Save' }),
    expected: [
      'write',
      "click on “Save” (the planner's target); screen rule 1 does not make a read of a click whose planner's target names a committing verb",
    ],
  },
  {
    case: 'a label rule on another screen',
    rules: [{ title: '^Change Standard Order', labels: { '^Delete$': 'read' } }],
    answer: click('delete'),
    expected: ['write', 'click on “Delete” (from the screen outline)'],
  },
  {
    case: 'a label rule says nothing about keys',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Enter$': 'read' } }],
    answer: key('Enter'),
    expected: ENTER_COMMITS,
  },
  {
    case: 'without an outline: a label read by OCR under a title read by OCR',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Delete$': 'read' } }],
    answer: { action: 'click', x: 540, y: 132 },
    screen: { ...BLIND, titleBar: read(INITIAL) },
    ocr: read('Delete'),
    expected: [
      'read',
      `click on “Delete” (read from the screen by OCR) on “${INITIAL}” (the title read from the screen by OCR) is navigation by screen rule 1`,
    ],
  },
  {
    case: 'fail closed: a label OCR was unsure of is not matched',
    rules: [{ title: `^${INITIAL}$`, labels: { '^Display$': 'read' } }],
    answer: { action: 'click', x: 440, y: 132 },
    screen: { ...BLIND, titleBar: read(INITIAL) },
    ocr: read('Display', 30),
    expected: [
      'write',
      'click at (440, 132): nothing could read its label (OCR was unsure of “Display”: confidence 30, under 60), so it is a write',
    ],
  },
  {
    case: 'a transaction rule: Enter is navigation on the screens of VA02 the host reports',
    rules: [{ transactions: ['va02'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('VA02'),
    expected: ['read', 'Enter in transaction VA02 is navigation by screen rule 1'],
  },
  {
    case: 'a transaction rule, the host reporting the code in lower case',
    rules: [{ transactions: ['VA02'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('va02'),
    expected: ['read', 'Enter in transaction VA02 is navigation by screen rule 1'],
  },
  {
    case: 'a transaction rule, the host reporting another transaction',
    rules: [{ transactions: ['VA02'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('VA03'),
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: a transaction rule where the host reports no transaction',
    rules: [{ transactions: ['VA02'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: a transaction rule where the host reports two transactions',
    rules: [{ transactions: ['VA02', 'VA03'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('VA02', 'VA03'),
    expected: ENTER_COMMITS,
  },
  {
    case: 'fail closed: a transaction rule where the host reports what is not a code',
    rules: [{ transactions: ['VA02'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('VA02 '.repeat(3)),
    expected: ENTER_COMMITS,
  },
  {
    case: 'a transaction rule says nothing about a modal dialog open over its screen',
    rules: [{ transactions: ['VA02'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: { outline: [...OUTLINE, DIALOG, transactionElement('VA02')] },
    expected: ENTER_COMMITS,
  },
  {
    case: 'title and transaction: the title matches, the transaction does not',
    rules: [{ title: `^${INITIAL}$`, transactions: ['VA03'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('VA02'),
    expected: ENTER_COMMITS,
  },
  {
    case: 'title and transaction: both hold',
    rules: [{ title: `^${INITIAL}$`, transactions: ['VA03'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('VA03'),
    expected: ['read', `Enter on “${INITIAL}” in transaction VA03 is navigation by screen rule 1`],
  },
  {
    case: 'title and transaction: the transaction matches, the title does not',
    rules: [{ title: '^Display', transactions: ['VA02'], keys: { Enter: 'read' } }],
    answer: key('Enter'),
    screen: inTransaction('VA02'),
    expected: ENTER_COMMITS,
  },
  {
    case: 'a transaction rule makes a navigating click a write',
    rules: [{ transactions: ['VA02'], labels: { '^Display$': 'write' } }],
    answer: click('display'),
    screen: inTransaction('VA02'),
    expected: [
      'write',
      'click on “Display” (from the screen outline) in transaction VA02 is a write by screen rule 1',
    ],
  },
  {
    case: 'fail closed: a label rule with nothing read at the point',
    rules: [{ title: `^${INITIAL}$`, labels: { '.*': 'read' } }],
    answer: { action: 'click', x: 1000, y: 500 },
    expected: [
      'write',
      'click at (1000, 500): nothing could read its label (no text there); the screen outline has no element there (the application draws it without one), so it is a write',
    ],
  },
  {
    case: 'a read region: a click where the outline has no element and nothing reads a label',
    rules: [REGISTER_READ],
    answer: { action: 'click', x: 1000, y: 500 },
    expected: [
      'read',
      `click at (1000, 500) in the region 900,400 300×200, where the outline has no element, on “${INITIAL}” is navigation by screen rule 1`,
    ],
  },
  {
    case: 'a read region: a spot under redact_regions is hidden, not unread, and stays a write',
    rules: [REGISTER_READ],
    answer: { action: 'click', x: 1000, y: 500 },
    screen: { redacted: [{ x: 950, y: 450, width: 100, height: 100 }] },
    expected: [
      'write',
      "click at (1000, 500): it lands under this agent's redact_regions, where Warden reads no label, so it is a write",
    ],
  },
  {
    case: 'a read region: no rule on a screen it is not for',
    rules: [{ ...REGISTER_READ, title: '^Display Sales Order$' }],
    answer: { action: 'click', x: 1000, y: 500 },
    expected: [
      'write',
      'click at (1000, 500): nothing could read its label (no text there); the screen outline has no element there (the application draws it without one), so it is a write',
    ],
  },
  {
    case: 'a read region: a verb OCR reads there still makes a write',
    rules: [REGISTER_READ],
    answer: { action: 'click', x: 1000, y: 500 },
    ocr: read('Delete'),
    expected: ['write', 'click on “Delete” (read from the screen by OCR)'],
  },
  {
    case: 'a read region: an element there is judged by the element',
    rules: [
      { ...REGISTER_READ, regions: [{ x: 0, y: 0, width: 1280, height: 800, click: 'read' }] },
    ],
    answer: click('save'),
    expected: ['write', 'click on “Save” (from the screen outline)'],
  },
  {
    case: "a read region: a planner's target naming a verb keeps the write",
    rules: [REGISTER_READ],
    answer: { action: 'click', x: 1000, y: 500, target: 'Post the entry' },
    expected: [
      'write',
      "click on “Post the entry” (the planner's target); screen rule 1 does not make a read of a click whose planner's target names a committing verb",
    ],
  },
  {
    case: 'a write region: every click in it is a write, an element with no verb too',
    rules: [
      {
        title: `^${INITIAL}$`,
        regions: [{ x: 350, y: 100, width: 200, height: 60, click: 'write' }],
      },
    ],
    answer: click('display'),
    expected: [
      'write',
      `click at (440, 132) in the region 350,100 200×60 on “${INITIAL}” is a write by screen rule 1`,
    ],
  },
];

describe('screen rules (docs/rules.md), as a table', () => {
  it('has each case once', () => {
    expect(new Set(CASES.map((c) => c.case)).size).toBe(CASES.length);
  });

  it.each(CASES)('$case', ({ rules, answer, screen, ocr, expected: [classification, why] }) => {
    const verdict = checkAction(
      answer,
      { ...SCREEN, ...screen },
      loadRules({ screen_rules: rules }),
      ocr,
    );
    expect({ classification: verdict.classification, why: verdict.why }).toEqual({
      classification,
      why,
    });
  });
});

describe('stored rules whose patterns RE2 cannot run', () => {
  // Saved before Warden matched with RE2: refused if saved again, and failing closed meanwhile.
  const stored = (labels: Record<string, string>) =>
    loadRules(
      {
        screen_rules: [
          { title: `^${INITIAL}(?!x)`, keys: { Enter: 'read', Tab: 'write' } },
          { title: `^${INITIAL}$`, labels },
        ],
      },
      'stored',
    );
  const classify = (rules: ReturnType<typeof loadRules>, answer: unknown, outline = OUTLINE) =>
    checkAction(answer, { ...SCREEN, outline }, rules).classification;
  const defaults = loadRules();

  it('lets no read through: Enter stays a write, a Delete click is not made a read', () => {
    const rules = stored({ '^(Del)ete\\1?$': 'read' });
    expect(classify(rules, key('Enter'))).toBe('write');
    expect(classify(rules, click('delete'))).toBe('write');
  });

  it('keeps their writes, on every screen: Tab is a write, and any labelled click', () => {
    const rules = stored({ '(S)ave\\1?': 'write' });
    expect(classify(defaults, key('Tab'))).toBe('read');
    expect(classify(rules, key('Tab'))).toBe('write');
    expect(classify(rules, key('Tab'), retitled('Another screen'))).toBe('write');
    expect(classify(defaults, click('display'))).toBe('read');
    expect(classify(rules, click('display'))).toBe('write');
  });
});

describe('the title', () => {
  const rules = loadRules({ screen_rules: DEMO });

  it('is needed from OCR only for keys and clicks, with title rules, without an outline', () => {
    expect(needsTitle({ action: 'key', key: 'Enter' }, BLIND, rules)).toBe(true);
    expect(needsTitle({ action: 'click', x: 1, y: 1 }, BLIND, rules)).toBe(true);
    expect(needsTitle({ action: 'type', text: 'VA02' }, BLIND, rules)).toBe(false);
    expect(needsTitle({ action: 'key', key: 'Enter' }, SCREEN, rules)).toBe(false);
    const noTitles = loadRules({ screen_rules: [COMMAND_FIELD] });
    expect(needsTitle({ action: 'key', key: 'Enter' }, BLIND, noTitles)).toBe(false);
    expect(needsTitle({ action: 'key', key: 'Enter' }, BLIND, loadRules())).toBe(false);
  });

  it('comes from the outline, else from the title bar OCR read', () => {
    expect(screenTitle(SCREEN, rules)).toEqual({ text: INITIAL, source: 'outline' });
    expect(screenTitle({ ...BLIND, titleBar: read('SAP Easy Access') }, rules)).toEqual({
      text: 'SAP Easy Access',
      source: 'ocr',
    });
    expect(screenTitle({ ...BLIND, titleBar: read('SAP') }, rules)).toEqual({
      text: 'SAP',
      source: 'ocr',
    });
    expect(screenTitle({ ...BLIND, titleBar: read('H') }, rules)).toBeNull();
  });
});

describe('previousAction', () => {
  it('passes over steps that did not reach the screen', () => {
    const steps: EarlierStep[] = [
      typed('/nVA02'),
      { action: key('Alt+F4'), outcome: 'refused' },
      { action: key('Enter'), outcome: 'screen_changed' },
      { action: click('save'), outcome: 'rejected' },
      { action: click('save'), outcome: 'stale' },
    ];
    expect(previousAction(steps)).toBe(steps[0]);
    expect(
      previousAction([...steps, { action: { action: 'wait', seconds: 1 }, outcome: 'sent' }]),
    ).toEqual({ action: { action: 'wait', seconds: 1 }, outcome: 'sent' });
    expect(previousAction([])).toBeNull();
  });
});
