/**
 * The rules of docs/rules.md as a table: every rule and every refusal reason, each case with the
 * exact sentence (`why`) a step records. Runs the whole question as the engine asks it:
 * parse → validate → labels (outline, then OCR) → classify.
 */
import type { OcrReading, OutlineElement, ScreenContext } from './action.types';
import { checkAction } from './check-action';
import { loadRules, type AgentRules } from './rules';

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

/** An SAP-GUI-like screen: a titled window, a toolbar of named and unnamed buttons, a form. */
const OUTLINE: OutlineElement[] = [
  el('wnd', 'GuiMainWindow', 'Create Sales Order: Initial Screen', 0, 0, 1280, 800),
  el('tbar', 'GuiToolbar', 'Standard toolbar', 0, 40, 1280, 32),
  el('save', 'button', 'Save (Ctrl+S)', 10, 44, 24, 24),
  el('back', 'button', 'Back (F3)', 40, 44, 24, 24),
  el('disp', 'button', 'Display', 70, 44, 80, 24),
  el('post', 'button', 'Post', 160, 44, 60, 24),
  el('icon', 'button', '', 230, 44, 24, 24),
  el('sich', 'button', 'Sichern', 260, 44, 60, 24),
  el('buch', 'button', 'BUCHEN', 330, 44, 60, 24),
  el('lsch', 'button', 'Löschen', 400, 44, 60, 24),
  el('zwsp', 'button', '\u200b', 470, 44, 24, 24),
  el('amp', 'button', '&Save', 500, 44, 40, 24),
  el('camel', 'button', 'btnSave', 550, 44, 40, 24),
  el('saved', 'text', 'Saved', 600, 44, 60, 24),
  el('pdate-l', 'label', 'Posting Date', 10, 100, 120, 20),
  el('pdate', 'text', 'Posting Date', 140, 100, 120, 20),
  el('pwd', 'text', 'Password', 140, 130, 120, 20, { password: true }),
  el('group', 'GuiSimpleContainer', 'Delete Items', 10, 200, 400, 200),
  el('inner', 'button', 'Details', 20, 210, 80, 24),
  el('tbl', 'table', 'Items to approve', 10, 420, 600, 200),
  el('approve', 'button', 'Approve All', 620, 420, 100, 24),
  el('deny', 'button', 'Reject', 730, 420, 80, 24),
  el('ja', 'button', 'Ja', 820, 420, 40, 24),
  el('undelete', 'text', 'Undelete', 870, 420, 80, 24),
  el('posting', 'text', 'Posting', 960, 420, 80, 24),
  el('send', 'menuitem', 'Send Order…', 1050, 420, 120, 24),
  el('guardar', 'button', 'Guardar', 10, 640, 80, 24),
  el('enr', 'button', 'ENREGISTRER', 100, 640, 100, 24),
  el('best', 'button', 'Bestaetigen', 210, 640, 100, 24),
  el('ausf', 'button', 'Ausführen (F8)', 320, 640, 120, 24),
  el('elim', 'button', 'eliminar', 450, 640, 80, 24),
  el('pagar', 'button', 'Pagar', 540, 640, 80, 24),
  el('pay', 'button', 'PAY NOW', 630, 640, 80, 24),
  el('dbl', 'button', 'Book', 720, 640, 80, 24),
  el('weiter', 'button', 'Weiter', 810, 640, 80, 24),
  el('sichern-lc', 'button', 'sichern', 900, 640, 80, 24),
  el('loschen', 'button', 'Loschen', 990, 640, 80, 24),
  el('freig', 'button', 'Freigeben', 1080, 640, 80, 24),
  el('wrap', 'button', '  Release\n  order ', 1170, 640, 100, 24),
  // Text fields: SAP's GuiCTextField and GuiOkCodeField, an HTML-like textbox, a password box.
  el('order', 'textbox', 'Order', 10, 700, 100, 22),
  el('ctext', 'GuiCTextField', 'Sold-To Party', 120, 700, 100, 22),
  el('okcode', 'GuiOkCodeField', 'Command field', 230, 700, 100, 22),
  el('unnamed', 'textbox', '', 340, 700, 100, 22),
  el('pwdbox', 'textbox', 'Kennwort', 450, 700, 100, 22, { password: true }),
  el('delete-field', 'edit', 'Delete Indicator', 560, 700, 100, 22),
];

const SCREEN: ScreenContext = { width: 1280, height: 800, outline: OUTLINE };
const BLIND: ScreenContext = { width: 1280, height: 800, outline: null };

/** The centre of an element of OUTLINE. */
function at(id: string): { x: number; y: number } {
  const e = OUTLINE.find((o) => o.id === id);
  if (!e) throw new Error(`no element ${id}`);
  return {
    x: Math.floor(e.rect.x + e.rect.width / 2),
    y: Math.floor(e.rect.y + e.rect.height / 2),
  };
}

interface Context {
  screen?: ScreenContext;
  /** What OCR read around the point; a string is a sure reading (each word at confidence 90). */
  ocr?: string | OcrReading | null;
  agent?: AgentRules;
}

/** An OCR reading of these words, each at this confidence. */
const read = (text: string, confidence = 90): OcrReading => ({
  words: text.split(' ').map((w) => ({ text: w, confidence })),
});
const NOTHING = (where: string, why: string): Expected => [
  'write',
  `click at ${where}: nothing could read its label (${why}), so it is a write`,
];

type Expected = ['read' | 'write' | 'invalid', string];
type Case = [title: string, answer: unknown, context: Context, expected: Expected];

const SECRET = 'Warden never types into a password, PIN, TAN, one-time code, OTP or CVV field';
const CARD =
  'the text looks like a card number (13–19 digits passing the Luhn check); Warden never types card numbers';
const SPLIT_CARD =
  'with the text typed into this field before, the field would hold a card number (13–19 digits passing the Luhn check); Warden never types card numbers, not even in pieces';
const KEYS_ALLOWED =
  'the allowed keys are the navigation keys (Tab, Shift+Tab, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, Escape, F1, F2, F3, F4, F12) and the commit keys (Enter, F8, F11, Ctrl+S, F5, Delete, Backspace)';
/** How a refusal of text that moves the focus ends: what the planner does instead. */
const OWN = (k: string) =>
  `send ${k} as its own key action, so that each text is judged for the field it goes into`;
/** OUTLINE with the host's focus mark on one element. */
const focusOn = (id: string) => OUTLINE.map((e) => (e.id === id ? { ...e, focused: true } : e));
const notAllowed = (k: string): Expected => ['invalid', `key ${k} is not allowed; ${KEYS_ALLOWED}`];
const commits = (k: string): Expected => ['write', `key ${k} commits`];
const navigates = (k: string): Expected => ['read', `key ${k} navigates`];
const ACTIONS = 'click, double_click, type, key, scroll, wait, done, fail';
const key = (k: string) => ({ action: 'key', key: k });
const click = (id: string, extra: object = {}) => ({ action: 'click', ...at(id), ...extra });

const parsing: Case[] = [
  ['JSON text is parsed', '{"action":"wait","seconds":2}', {}, ['read', 'waiting is a read']],
  [
    'a fenced JSON answer is parsed',
    '```json\n{"action":"wait","seconds":1}\n```',
    {},
    ['read', 'waiting is a read'],
  ],
  [
    'text that is not JSON',
    'click the save button',
    {},
    ['invalid', 'the answer is not valid JSON'],
  ],
  ['an empty answer', '', {}, ['invalid', 'the answer is not valid JSON']],
  [
    'an answer over 64 KiB',
    `"${'x'.repeat(70_000)}"`,
    {},
    ['invalid', 'the answer is too long (at most 65536 characters)'],
  ],
  [
    'a list',
    [{ action: 'wait', seconds: 1 }],
    {},
    ['invalid', 'an action must be a JSON object, not a list'],
  ],
  ['null', null, {}, ['invalid', 'an action must be a JSON object, not null']],
  ['a number', 42, {}, ['invalid', 'an action must be a JSON object, not a number']],
  ['a JSON string', '"click"', {}, ['invalid', 'an action must be a JSON object, not a string']],
  ['no action field', { x: 1, y: 2 }, {}, ['invalid', 'the field “action” is missing']],
  [
    'action not a string',
    { action: 3 },
    {},
    ['invalid', '“action” must be a string, not a number'],
  ],
  [
    'unknown action',
    { action: 'drag', x: 1, y: 1 },
    {},
    ['invalid', `unknown action “drag”; expected one of ${ACTIONS}`],
  ],
  [
    'action in the wrong case',
    { action: 'Click', x: 1, y: 1 },
    {},
    ['invalid', `unknown action “Click”; expected one of ${ACTIONS}`],
  ],
  [
    'an unknown field is refused, not ignored',
    { action: 'click', x: 1, y: 1, button: 'right' },
    {},
    ['invalid', 'click has no field “button”'],
  ],
  [
    'a field of another action',
    { action: 'type', text: 'a', x: 1 },
    {},
    ['invalid', 'type has no field “x”'],
  ],
  [
    '__proto__ is just an unknown field',
    JSON.parse('{"action":"wait","seconds":1,"__proto__":{"x":1}}'),
    {},
    ['invalid', 'wait has no field “__proto__”'],
  ],
  ['click without x', { action: 'click', y: 1 }, {}, ['invalid', 'click needs “x”']],
  ['click without y', { action: 'click', x: 1 }, {}, ['invalid', 'click needs “y”']],
  [
    'x as a string',
    { action: 'click', x: '10', y: 1 },
    {},
    ['invalid', '“x” must be an integer (screen pixels), not a string'],
  ],
  [
    'x with a fraction',
    { action: 'click', x: 10.5, y: 1 },
    {},
    ['invalid', '“x” must be an integer (screen pixels), not 10.5'],
  ],
  [
    'y null',
    { action: 'click', x: 1, y: null },
    {},
    ['invalid', '“y” must be an integer (screen pixels), not null'],
  ],
  [
    'x beyond safe integers',
    { action: 'click', x: 2 ** 60, y: 1 },
    {},
    ['invalid', `“x” must be an integer (screen pixels), not ${2 ** 60}`],
  ],
  [
    'target not a string',
    { action: 'click', x: 1, y: 1, target: 7 },
    {},
    ['invalid', '“target” must be a string, not a number'],
  ],
  [
    'target over 200 characters',
    { action: 'click', x: 1, y: 1, target: 'a'.repeat(201) },
    {},
    ['invalid', '“target” must be at most 200 characters'],
  ],
  ['type without text', { action: 'type' }, {}, ['invalid', 'type needs “text”']],
  [
    'text not a string',
    { action: 'type', text: 123 },
    {},
    ['invalid', '“text” must be a string, not a number'],
  ],
  [
    'empty text',
    { action: 'type', text: '' },
    {},
    ['invalid', '“text” must be 1 to 500 characters (it has 0)'],
  ],
  [
    'text of 501 code points',
    { action: 'type', text: 'é'.repeat(501) },
    {},
    ['invalid', '“text” must be 1 to 500 characters (it has 501)'],
  ],
  [
    'text with an escape character',
    { action: 'type', text: 'abc\u001b[2J' },
    {},
    [
      'invalid',
      '“text” must not contain control characters or line breaks other than tab and newline (it has U+001B ESCAPE)',
    ],
  ],
  [
    'text with a NUL',
    { action: 'type', text: 'a\u0000b' },
    {},
    [
      'invalid',
      '“text” must not contain control characters or line breaks other than tab and newline (it has U+0000 NULL)',
    ],
  ],
  [
    'text with a lone surrogate',
    { action: 'type', text: 'a\ud800b' },
    {},
    ['invalid', '“text” is not valid Unicode (a lone surrogate)'],
  ],
  [
    'key not a string',
    { action: 'key', key: ['ctrl', 's'] },
    {},
    ['invalid', '“key” must be a string, not a list'],
  ],
  ['empty key', { action: 'key', key: '' }, {}, ['invalid', '“key” must be 1 to 64 characters']],
  [
    'key over 64 characters',
    { action: 'key', key: 'a'.repeat(65) },
    {},
    ['invalid', '“key” must be 1 to 64 characters'],
  ],
  [
    'scroll without direction',
    { action: 'scroll', x: 1, y: 1 },
    {},
    ['invalid', 'scroll needs “direction”'],
  ],
  [
    'scroll in a diagonal',
    { action: 'scroll', x: 1, y: 1, direction: 'up-left' },
    {},
    ['invalid', '“direction” must be one of up, down, left, right'],
  ],
  [
    'scroll amount 0',
    { action: 'scroll', x: 1, y: 1, direction: 'up', amount: 0 },
    {},
    ['invalid', '“amount” must be an integer from 1 to 10'],
  ],
  [
    'scroll amount 11',
    { action: 'scroll', x: 1, y: 1, direction: 'up', amount: 11 },
    {},
    ['invalid', '“amount” must be an integer from 1 to 10'],
  ],
  [
    'scroll amount 2.5',
    { action: 'scroll', x: 1, y: 1, direction: 'up', amount: 2.5 },
    {},
    ['invalid', '“amount” must be an integer from 1 to 10'],
  ],
  [
    'wait 0 seconds',
    { action: 'wait', seconds: 0 },
    {},
    ['invalid', '“seconds” must be a number from 0.1 to 10'],
  ],
  [
    'wait 11 seconds',
    { action: 'wait', seconds: 11 },
    {},
    ['invalid', '“seconds” must be a number from 0.1 to 10'],
  ],
  [
    'wait "2"',
    { action: 'wait', seconds: '2' },
    {},
    ['invalid', '“seconds” must be a number from 0.1 to 10'],
  ],
  ['done without summary', { action: 'done' }, {}, ['invalid', 'done needs “summary”']],
  [
    'done with a blank summary',
    { action: 'done', summary: '   ' },
    {},
    ['invalid', '“summary” must not be empty'],
  ],
  [
    'fail with a number',
    { action: 'fail', reason: 404 },
    {},
    ['invalid', '“reason” must be a string, not a number'],
  ],
  [
    'done with a 2001-character summary',
    { action: 'done', summary: 'x'.repeat(2001) },
    {},
    ['invalid', '“summary” must be at most 2000 characters'],
  ],
];

const bounds: Case[] = [
  [
    'click at the top-left pixel',
    { action: 'click', x: 0, y: 0 },
    { screen: BLIND },
    NOTHING('(0, 0)', 'no text there'),
  ],
  [
    'click at the bottom-right pixel',
    { action: 'click', x: 1279, y: 799 },
    { screen: BLIND },
    NOTHING('(1279, 799)', 'no text there'),
  ],
  [
    'click at x = width',
    { action: 'click', x: 1280, y: 10 },
    {},
    ['invalid', 'the point (1280, 10) is outside the screenshot (1280×800)'],
  ],
  [
    'click at y = height',
    { action: 'click', x: 10, y: 800 },
    {},
    ['invalid', 'the point (10, 800) is outside the screenshot (1280×800)'],
  ],
  [
    'click at a negative x',
    { action: 'click', x: -1, y: 10 },
    {},
    ['invalid', 'the point (-1, 10) is outside the screenshot (1280×800)'],
  ],
  [
    'double-click outside',
    { action: 'double_click', x: 5000, y: 5000 },
    {},
    ['invalid', 'the point (5000, 5000) is outside the screenshot (1280×800)'],
  ],
  [
    'scroll outside',
    { action: 'scroll', x: 10, y: -5, direction: 'down' },
    {},
    ['invalid', 'the point (10, -5) is outside the screenshot (1280×800)'],
  ],
  [
    'a screen of unknown size',
    { action: 'wait', seconds: 1 },
    { screen: { width: 0, height: 0, outline: null } },
    ['invalid', 'the screen size is unknown, so no action can be checked'],
  ],
];

const keys: Case[] = [
  ['Enter commits', key('Enter'), {}, commits('Enter')],
  ['return commits as Enter', key('return'), {}, commits('Enter')],
  ['RETURN commits as Enter', key('RETURN'), {}, commits('Enter')],
  ['xdotool Return', key('Return'), {}, commits('Enter')],
  ['xdotool KP_Enter', key('KP_Enter'), {}, commits('Enter')],
  ['enter in lower case', key('enter'), {}, commits('Enter')],
  ['F8 commits', key('F8'), {}, commits('F8')],
  ['f11 commits', key('f11'), {}, commits('F11')],
  ['F5 commits', key('F5'), {}, commits('F5')],
  ['ctrl+s commits', key('ctrl+s'), {}, commits('Ctrl+S')],
  ['Ctrl-S commits', key('Ctrl-S'), {}, commits('Ctrl+S')],
  ['control+s commits', key('control+s'), {}, commits('Ctrl+S')],
  ['CTRL+s commits', key('CTRL+s'), {}, commits('Ctrl+S')],
  ['ctrl s with a space', key('ctrl s'), {}, commits('Ctrl+S')],
  ['Control_L+s (xdotool)', key('Control_L+s'), {}, commits('Ctrl+S')],
  ['Strg+S (German keyboards)', key('Strg+S'), {}, commits('Ctrl+S')],
  ['Del commits as Delete', key('Del'), {}, commits('Delete')],
  ['KP_Delete commits as Delete', key('KP_Delete'), {}, commits('Delete')],
  ['BackSpace (xdotool) commits', key('BackSpace'), {}, commits('Backspace')],
  ['Tab navigates', key('Tab'), {}, navigates('Tab')],
  ['shift+tab navigates', key('shift+tab'), {}, navigates('Shift+Tab')],
  ['ISO_Left_Tab is Shift+Tab', key('ISO_Left_Tab'), {}, navigates('Shift+Tab')],
  ['Up navigates as ArrowUp', key('Up'), {}, navigates('ArrowUp')],
  ['ArrowDown navigates', key('ArrowDown'), {}, navigates('ArrowDown')],
  ['left navigates', key('left'), {}, navigates('ArrowLeft')],
  ['KP_Right navigates', key('KP_Right'), {}, navigates('ArrowRight')],
  ['Home navigates', key('Home'), {}, navigates('Home')],
  ['End navigates', key('end'), {}, navigates('End')],
  ['Prior is PageUp', key('Prior'), {}, navigates('PageUp')],
  ['PgUp is PageUp', key('PgUp'), {}, navigates('PageUp')],
  ['Page_Up is PageUp', key('Page_Up'), {}, navigates('PageUp')],
  ['Next is PageDown', key('Next'), {}, navigates('PageDown')],
  ['page down with a space', key('page down'), {}, navigates('PageDown')],
  ['Esc navigates as Escape', key('Esc'), {}, navigates('Escape')],
  ['F1 navigates', key('F1'), {}, navigates('F1')],
  ['F2 navigates', key('F2'), {}, navigates('F2')],
  ['F3 navigates', key('F3'), {}, navigates('F3')],
  ['F4 navigates', key('F4'), {}, navigates('F4')],
  ['F12 navigates', key('F12'), {}, navigates('F12')],
  ['Alt+F4 is refused', key('alt+f4'), {}, notAllowed('Alt+F4')],
  ['Ctrl+V is refused', key('ctrl+v'), {}, notAllowed('Ctrl+V')],
  ['Ctrl+C is refused', key('Ctrl+C'), {}, notAllowed('Ctrl+C')],
  ['Win alone is refused', key('win'), {}, notAllowed('Meta')],
  ['super is refused', key('super'), {}, notAllowed('Meta')],
  ['cmd+s is Meta+S and refused', key('cmd+s'), {}, notAllowed('Meta+S')],
  ['super+l is refused', key('super+l'), {}, notAllowed('Meta+L')],
  ['Ctrl+Alt+Del is refused', key('ctrl+alt+del'), {}, notAllowed('Ctrl+Alt+Delete')],
  ['Alt+Tab is refused', key('Alt+Tab'), {}, notAllowed('Alt+Tab')],
  ['Shift+Ctrl+S: modifier order, refused', key('shift+ctrl+s'), {}, notAllowed('Ctrl+Shift+S')],
  ['a letter is refused', key('a'), {}, notAllowed('A')],
  ['Space is refused', key('space'), {}, notAllowed('Space')],
  ['F6 is refused', key('F6'), {}, notAllowed('F6')],
  ['Insert is refused', key('Insert'), {}, notAllowed('Insert')],
  ['Shift+Enter is not Enter', key('shift+Return'), {}, notAllowed('Shift+Enter')],
  ['a made-up key', key('Hyperdrive'), {}, ['invalid', '“Hyperdrive” is not a key Warden knows']],
  ['F25 does not exist', key('F25'), {}, ['invalid', '“F25” is not a key Warden knows']],
  [
    'a key with a trailing plus',
    key('ctrl+'),
    {},
    ['invalid', '“ctrl+” is not a key Warden knows'],
  ],
  ['a symbol', key('/'), {}, ['invalid', '“/” is not a key Warden knows']],
];

const typing: Case[] = [
  [
    'typing is a write',
    { action: 'type', text: 'VA01' },
    {},
    ['write', 'typing into a field is a write'],
  ],
  [
    'typing 500 code points',
    { action: 'type', text: '€'.repeat(500) },
    {},
    ['write', 'typing into a field is a write'],
  ],
  [
    'typing with a newline and more text after it',
    { action: 'type', text: 'line 1\nline 2' },
    {},
    [
      'invalid',
      `the text holds a newline (character 7) with more text after it, and Warden cannot tell which field that text reaches (it presses Enter: the application processes the screen, and the focus lands on a screen Warden has not seen); ${OWN('Enter')}`,
    ],
  ],
  [
    'typing that ends with a newline',
    { action: 'type', text: '/nVA02\n' },
    {},
    ['write', 'typing into a field is a write'],
  ],
  [
    'typing with a Tab on a host without an outline',
    { action: 'type', text: '4711\t30.04.2026' },
    { screen: BLIND },
    [
      'invalid',
      `the text holds a Tab (character 5) with more text after it, and Warden cannot tell which field that text reaches (the screen host serves no outline); ${OWN('Tab')}`,
    ],
  ],
  [
    'typing with a Tab where the outline marks no focus',
    { action: 'type', text: '4711\t30.04.2026' },
    {},
    [
      'invalid',
      `the text holds a Tab (character 5) with more text after it, and Warden cannot tell which field that text reaches (the screen host marks no field as focused); ${OWN('Tab')}`,
    ],
  ],
  [
    'typing through a Tab where a password field can be reached',
    { action: 'type', text: '\tOld-Pass-1\tNew-Pass-2' },
    { screen: { ...SCREEN, outline: focusOn('okcode') } },
    [
      'invalid',
      `the text holds a Tab (character 1) with more text after it, which can reach the field “Password”, a password field; Warden never types into password fields, wherever the keystrokes land: ${OWN('Tab')}`,
    ],
  ],
  [
    'typing through a Tab where a field named PIN can be reached',
    { action: 'type', text: '4711\t1234' },
    {
      screen: {
        ...BLIND,
        outline: [
          el('order', 'textbox', 'Order', 0, 0, 100, 20, { focused: true }),
          el('pin', 'textbox', 'PIN:', 0, 30, 100, 20),
        ],
      },
    },
    [
      'invalid',
      `the text holds a Tab (character 5) with more text after it, which can reach the field “PIN:”, which names “PIN”; ${SECRET}, wherever the keystrokes land: ${OWN('Tab')}`,
    ],
  ],
  [
    'typing through a Tab where a field it can reach has no name',
    { action: 'type', text: '4711\t30.04.2026' },
    {
      screen: {
        ...BLIND,
        outline: [
          el('order', 'textbox', 'Order', 0, 0, 100, 20, { focused: true }),
          el('blank', 'textbox', '', 0, 30, 100, 20),
        ],
      },
    },
    [
      'invalid',
      `the text holds a Tab (character 5) with more text after it, and Warden cannot tell which field that text reaches (a field it can reach has no name in the outline); ${OWN('Tab')}`,
    ],
  ],
  [
    'typing through a Tab where every field it can reach is named and none is secret',
    { action: 'type', text: '4711\t30.04.2026\t' },
    {
      screen: {
        ...BLIND,
        outline: [
          el('order', 'textbox', 'Order', 0, 0, 100, 20, { focused: true }),
          el('date', 'textbox', 'Req. Deliv. Date', 0, 30, 100, 20),
          el('save', 'button', 'Save', 0, 60, 40, 20),
        ],
      },
    },
    [
      'write',
      'typing into a field is a write; after a Tab (character 5) the text goes on into whichever field has the focus then, one of “Order”, “Req. Deliv. Date”',
    ],
  ],
  [
    'a trailing Tab after text into the focused field',
    { action: 'type', text: 'Kennwort\t' },
    { screen: BLIND },
    ['write', 'typing into a field is a write'],
  ],
  [
    'typing a 16-digit order number that fails Luhn',
    { action: 'type', text: '4111111111111112' },
    {},
    ['write', 'typing into a field is a write'],
  ],
  [
    'typing a 12-digit number',
    { action: 'type', text: '411111111111' },
    {},
    ['write', 'typing into a field is a write'],
  ],
  [
    'typing 20 digits in one run',
    { action: 'type', text: '41111111111111111111' },
    {},
    ['write', 'typing into a field is a write'],
  ],
  ['a Visa number', { action: 'type', text: '4111111111111111' }, {}, ['invalid', CARD]],
  ['a card with spaces', { action: 'type', text: '4111 1111 1111 1111' }, {}, ['invalid', CARD]],
  ['a card with dashes', { action: 'type', text: '5500-0000-0000-0004' }, {}, ['invalid', CARD]],
  [
    'an Amex in a sentence',
    { action: 'type', text: 'Card: 3782 822463 10005, exp 12/29' },
    {},
    ['invalid', CARD],
  ],
  ['a 13-digit card', { action: 'type', text: '4222222222222' }, {}, ['invalid', CARD]],
  ['a 19-digit card', { action: 'type', text: '6011 0000 0000 0000 001' }, {}, ['invalid', CARD]],
  [
    'a card followed by its CVV',
    { action: 'type', text: '4111 1111 1111 1111 123' },
    {},
    ['invalid', CARD],
  ],
  [
    'a card in full-width digits',
    { action: 'type', text: '４１１１１１１１１１１１１１１１' },
    {},
    ['invalid', CARD],
  ],
  ['a card with en dashes', { action: 'type', text: '4111–1111–1111–1111' }, {}, ['invalid', CARD]],
  [
    'a card split over two actions into one field',
    { action: 'type', text: '1111 1111' },
    { screen: { ...SCREEN, typed: ['4111 1111 '] } },
    ['invalid', SPLIT_CARD],
  ],
  [
    'the last digit of a card typed into a field that holds the rest',
    { action: 'type', text: '1' },
    { screen: { ...SCREEN, typed: ['4111 ', '1111 ', '1111 111'] } },
    ['invalid', SPLIT_CARD],
  ],
  [
    'digits after an order number typed before into the field',
    { action: 'type', text: '1111 1111' },
    { screen: { ...SCREEN, typed: ['Order 4711 '] } },
    ['write', 'typing into a field is a write'],
  ],
  [
    'text with a carriage return',
    { action: 'type', text: 'line 1\r\nline 2' },
    {},
    [
      'invalid',
      '“text” must not contain control characters or line breaks other than tab and newline (it has U+000D CARRIAGE RETURN); a line break is typed as a newline alone',
    ],
  ],
  [
    'text with a right-to-left override',
    { action: 'type', text: 'Invoice \u202e1174' },
    {},
    [
      'invalid',
      '“text” must not contain bidirectional controls (it has U+202E RIGHT-TO-LEFT OVERRIDE): they change the order in which text is shown, so a person could read something other than what is typed',
    ],
  ],
  [
    'text with a right-to-left mark',
    { action: 'type', text: '\u200fVA02' },
    {},
    [
      'invalid',
      '“text” must not contain bidirectional controls (it has U+200F RIGHT-TO-LEFT MARK): they change the order in which text is shown, so a person could read something other than what is typed',
    ],
  ],
  [
    'text with a zero-width space',
    { action: 'type', text: '41\u200b11' },
    {},
    [
      'invalid',
      '“text” must not contain invisible characters (it has U+200B ZERO WIDTH SPACE): a person cannot see them on the approval page or the screen',
    ],
  ],
  [
    'text with a soft hyphen',
    { action: 'type', text: 'Liefer\u00adtermin' },
    {},
    [
      'invalid',
      '“text” must not contain invisible characters (it has U+00AD SOFT HYPHEN): a person cannot see them on the approval page or the screen',
    ],
  ],
  [
    'text with an Arabic letter mark after a Tab',
    { action: 'type', text: '4711\t\u061c1174' },
    {},
    [
      'invalid',
      '“text” must not contain bidirectional controls (it has U+061C ARABIC LETTER MARK): they change the order in which text is shown, so a person could read something other than what is typed',
    ],
  ],
  [
    'text in Hebrew, without controls',
    { action: 'type', text: 'הזמנה 4711' },
    {},
    ['write', 'typing into a field is a write'],
  ],
  [
    'into the focused password field (outline)',
    { action: 'type', text: 'hunter2' },
    {
      screen: {
        ...SCREEN,
        outline: OUTLINE.map((e) => (e.id === 'pwd' ? { ...e, focused: true } : e)),
      },
    },
    [
      'invalid',
      'the focused field “Password” is a password field; Warden never types into password fields',
    ],
  ],
  [
    'into the password field the caller says has focus',
    { action: 'type', text: 'hunter2' },
    { screen: { ...SCREEN, focus: OUTLINE.find((e) => e.id === 'pwd') } },
    [
      'invalid',
      'the focused field “Password” is a password field; Warden never types into password fields',
    ],
  ],
  [
    'into an unnamed password field',
    { action: 'type', text: 'x' },
    { screen: { ...BLIND, focus: el('p', 'text', '', 0, 0, 10, 10, { password: true }) } },
    ['invalid', 'the focused field is a password field; Warden never types into password fields'],
  ],
  [
    'into a focused ordinary field',
    { action: 'type', text: '01.01.2027' },
    { screen: { ...SCREEN, focus: OUTLINE.find((e) => e.id === 'pdate') } },
    ['write', 'typing into a field is a write'],
  ],
  [
    'with a password field on screen but not focused',
    { action: 'type', text: 'x' },
    {},
    ['write', 'typing into a field is a write'],
  ],
  [
    'into a focused field the outline names Kennwort',
    { action: 'type', text: 'geheim' },
    { screen: { ...BLIND, focus: el('k', 'textbox', 'Altes Kennwort', 0, 0, 10, 10) } },
    ['invalid', `the focused field “Altes Kennwort” names “Kennwort”; ${SECRET}`],
  ],
  [
    'into a field the host marks focused, named PIN',
    { action: 'type', text: '1234' },
    {
      screen: {
        ...BLIND,
        outline: [el('pin', 'textbox', 'PIN:', 0, 0, 10, 10, { focused: true })],
      },
    },
    ['invalid', `the focused field “PIN:” names “PIN”; ${SECRET}`],
  ],
  [
    'into a field labelled as a compound (Benutzerkennwort)',
    { action: 'type', text: 'x' },
    { screen: { ...BLIND, focus: el('k', 'textbox', 'Benutzerkennwort', 0, 0, 10, 10) } },
    ['invalid', `the focused field “Benutzerkennwort” names “Kennwort”; ${SECRET}`],
  ],
  [
    'into a TAN field (mTAN)',
    { action: 'type', text: '123456' },
    { screen: { ...BLIND, focus: el('t', 'textbox', 'mTAN', 0, 0, 10, 10) } },
    ['invalid', `the focused field “mTAN” names “TAN”; ${SECRET}`],
  ],
  [
    'into a field whose label OCR read beside it: Einmalcode',
    { action: 'type', text: '123456' },
    { screen: { ...BLIND, focusLabel: read('Einmalcode:') } },
    [
      'invalid',
      `the focused field's label “Einmalcode:” (read from the screen by OCR) names “Einmalcode”; ${SECRET}`,
    ],
  ],
  [
    'into a field whose label OCR misread by one letter: Passwcrt',
    { action: 'type', text: 'x' },
    { screen: { ...BLIND, focusLabel: read('Neues Passwcrt', 40) } },
    [
      'invalid',
      `the focused field's label “Neues Passwcrt” (read from the screen by OCR) names “Passwort” (read as “passwcrt”); ${SECRET}`,
    ],
  ],
  [
    'into a field labelled CVV, read by OCR',
    { action: 'type', text: '123' },
    { screen: { ...BLIND, focusLabel: read('CVV') } },
    [
      'invalid',
      `the focused field's label “CVV” (read from the screen by OCR) names “CVV”; ${SECRET}`,
    ],
  ],
  [
    'into a field OCR read an ordinary label beside',
    { action: 'type', text: '30.04.2026' },
    { screen: { ...BLIND, focusLabel: read('Wunschlieferdat.') } },
    ['write', 'typing into a field is a write'],
  ],
  [
    'into a field whose label nothing could read: typing stays a write',
    { action: 'type', text: 'x' },
    { screen: { ...BLIND, focusLabel: { unreadable: 'failed' } } },
    ['write', 'typing into a field is a write'],
  ],
  [
    'a Company Code field is no secret',
    { action: 'type', text: '1000' },
    { screen: { ...BLIND, focus: el('c', 'textbox', 'Company Code', 0, 0, 10, 10) } },
    ['write', 'typing into a field is a write'],
  ],
];

const clicks: Case[] = [
  [
    'Save from the outline',
    click('save'),
    {},
    ['write', 'click on “Save (Ctrl+S)” (from the screen outline)'],
  ],
  [
    'Post from the outline',
    click('post'),
    {},
    ['write', 'click on “Post” (from the screen outline)'],
  ],
  [
    'Sichern from the outline',
    click('sich'),
    {},
    ['write', 'click on “Sichern” (from the screen outline)'],
  ],
  [
    'sichern in lower case',
    click('sichern-lc'),
    {},
    ['write', 'click on “sichern” (from the screen outline)'],
  ],
  [
    'BUCHEN in upper case',
    click('buch'),
    {},
    ['write', 'click on “BUCHEN” (from the screen outline)'],
  ],
  [
    'Löschen with the umlaut',
    click('lsch'),
    {},
    ['write', 'click on “Löschen” (from the screen outline)'],
  ],
  [
    'Loschen without it',
    click('loschen'),
    {},
    ['write', 'click on “Loschen” (from the screen outline)'],
  ],
  [
    'Bestaetigen written out',
    click('best'),
    {},
    ['write', 'click on “Bestaetigen” (from the screen outline)'],
  ],
  [
    'Ausführen (F8)',
    click('ausf'),
    {},
    ['write', 'click on “Ausführen (F8)” (from the screen outline)'],
  ],
  ['Freigeben', click('freig'), {}, ['write', 'click on “Freigeben” (from the screen outline)']],
  ['Guardar', click('guardar'), {}, ['write', 'click on “Guardar” (from the screen outline)']],
  ['ENREGISTRER', click('enr'), {}, ['write', 'click on “ENREGISTRER” (from the screen outline)']],
  ['eliminar', click('elim'), {}, ['write', 'click on “eliminar” (from the screen outline)']],
  ['Pagar', click('pagar'), {}, ['write', 'click on “Pagar” (from the screen outline)']],
  ['PAY NOW', click('pay'), {}, ['write', 'click on “PAY NOW” (from the screen outline)']],
  [
    'Approve All',
    click('approve'),
    {},
    ['write', 'click on “Approve All” (from the screen outline)'],
  ],
  [
    'Reject (a decision is a write)',
    click('deny'),
    {},
    ['write', 'click on “Reject” (from the screen outline)'],
  ],
  ['Ja answers a question', click('ja'), {}, ['write', 'click on “Ja” (from the screen outline)']],
  [
    'Send Order… in a menu',
    click('send'),
    {},
    ['write', 'click on “Send Order…” (from the screen outline)'],
  ],
  ['&Save (a mnemonic)', click('amp'), {}, ['write', 'click on “&Save” (from the screen outline)']],
  [
    'btnSave (camel case)',
    click('camel'),
    {},
    ['write', 'click on “btnSave” (from the screen outline)'],
  ],
  [
    'a name on two lines is shown on one',
    click('wrap'),
    {},
    ['write', 'click on “Release order” (from the screen outline)'],
  ],
  [
    'Display has no committing verb',
    click('disp'),
    {},
    [
      'read',
      'click on “Display” (a button in the screen outline): its labels name only navigation',
    ],
  ],
  [
    'Back (F3)',
    click('back'),
    {},
    [
      'read',
      'click on “Back (F3)” (a button in the screen outline): its labels name only navigation',
    ],
  ],
  [
    'Saved is not Save',
    click('saved'),
    {},
    ['read', 'click on “Saved” (from the screen outline): no committing verb'],
  ],
  [
    'Posting is not Post',
    click('posting'),
    {},
    ['read', 'click on “Posting” (from the screen outline): no committing verb'],
  ],
  [
    'Posting Date',
    click('pdate'),
    {},
    ['read', 'click on “Posting Date” (from the screen outline): no committing verb'],
  ],
  [
    'Undelete is not Delete',
    click('undelete'),
    {},
    ['read', 'click on “Undelete” (from the screen outline): no committing verb'],
  ],
  [
    'Weiter confirms a dialog: a committing word',
    click('weiter'),
    {},
    ['write', 'click on “Weiter” (from the screen outline)'],
  ],
  [
    'Display added by the agent',
    click('disp'),
    { agent: { commit_words: ['Display'] } },
    ['write', 'click on “Display” (from the screen outline)'],
  ],
  [
    'an agent phrase of two words',
    click('wrap'),
    { agent: { commit_words: ['release order'] } },
    ['write', 'click on “Release order” (from the screen outline)'],
  ],
  [
    'the smallest element wins over its container',
    click('inner'),
    {},
    [
      'read',
      'click on “Details” (a button in the screen outline): its labels name only navigation',
    ],
  ],
  [
    'double-click on Book',
    { action: 'double_click', ...at('dbl') },
    {},
    ['write', 'double-click on “Book” (from the screen outline)'],
  ],
  [
    'double-click on Display',
    { action: 'double_click', ...at('disp') },
    {},
    [
      'read',
      'double-click on “Display” (a button in the screen outline): its labels name only navigation',
    ],
  ],
  // The model's target can only make a click stricter.
  [
    'target Delete over an outline Display',
    click('disp', { target: 'Delete' }),
    {},
    ['write', "click on “Delete” (the planner's target)"],
  ],
  [
    'target Display cannot loosen Save',
    click('save', { target: 'Display' }),
    {},
    ['write', 'click on “Save (Ctrl+S)” (from the screen outline)'],
  ],
  [
    'target with no verb over Display',
    click('disp', { target: 'Display button' }),
    {},
    [
      'read',
      'click on “Display” (a button in the screen outline): its labels name only navigation',
    ],
  ],
  [
    'a blank target is no target',
    click('disp', { target: '   ' }),
    {},
    [
      'read',
      'click on “Display” (a button in the screen outline): its labels name only navigation',
    ],
  ],
  [
    'a null target is no target',
    click('disp', { target: null }),
    {},
    [
      'read',
      'click on “Display” (a button in the screen outline): its labels name only navigation',
    ],
  ],
  // Where the outline has no name, the pixels are read.
  [
    'unnamed icon, OCR reads Save',
    click('icon'),
    { ocr: 'Save' },
    ['write', 'click on “Save” (read from the screen by OCR)'],
  ],
  [
    'unnamed icon, OCR reads Display',
    click('icon'),
    { ocr: 'Display' },
    [
      'read',
      'click on an unnamed button in the screen outline, “Display” (read from the screen by OCR): its labels name only navigation',
    ],
  ],
  [
    'zero-width name counts as none',
    click('zwsp'),
    { ocr: 'Buchen' },
    ['write', 'click on “Buchen” (read from the screen by OCR)'],
  ],
  [
    'in a toolbar gap, OCR reads Post',
    { action: 'click', x: 700, y: 50 },
    { ocr: 'Post' },
    ['write', 'click on “Post” (read from the screen by OCR)'],
  ],
  [
    'a container name is not a label (Delete Items group)',
    { action: 'click', x: 300, y: 300 },
    {},
    NOTHING('(300, 300)', 'no text there'),
  ],
  [
    'a window title is not a label (Create Sales Order)',
    { action: 'click', x: 900, y: 300 },
    {},
    NOTHING('(900, 300)', 'no text there'),
  ],
  [
    'a table name is not a label (Items to approve)',
    { action: 'click', x: 100, y: 500 },
    { ocr: 'Material' },
    ['read', 'click on “Material” (read from the screen by OCR): no committing verb'],
  ],
  [
    'no outline, OCR reads Sichern',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Sichern' },
    ['write', 'click on “Sichern” (read from the screen by OCR)'],
  ],
  [
    'no outline, OCR reads Posting Date',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Posting Date' },
    ['read', 'click on “Posting Date” (read from the screen by OCR): no committing verb'],
  ],
  [
    'no outline, OCR finds nothing, target Post',
    { action: 'click', x: 10, y: 10, target: 'Post' },
    { screen: BLIND },
    ['write', "click on “Post” (the planner's target)"],
  ],
  [
    'no outline, OCR nothing, target Display',
    { action: 'click', x: 10, y: 10, target: 'Display' },
    { screen: BLIND },
    NOTHING('(10, 10)', 'no text there'),
  ],
  [
    'OCR Display, target Approve',
    { action: 'click', x: 10, y: 10, target: 'Approve' },
    { screen: BLIND, ocr: 'Display' },
    ['write', "click on “Approve” (the planner's target)"],
  ],
  [
    'nothing read, default agent',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND },
    NOTHING('(10, 10)', 'no text there'),
  ],
  [
    'nothing read, agent says unlabelled clicks are writes',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, agent: { unlabelled_clicks: 'write' } },
    NOTHING('(10, 10)', 'no text there'),
  ],
  [
    'a target without a verb does not unhold an unlabelled click',
    { action: 'click', x: 10, y: 10, target: 'Display' },
    { screen: BLIND, agent: { unlabelled_clicks: 'write' } },
    NOTHING('(10, 10)', 'no text there'),
  ],
  [
    'an OCR label makes it labelled',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Display', agent: { unlabelled_clicks: 'write' } },
    ['read', 'click on “Display” (read from the screen by OCR): no committing verb'],
  ],
  [
    'double-click, nothing read',
    { action: 'double_click', x: 3, y: 4 },
    { screen: BLIND },
    [
      'write',
      'double-click at (3, 4): nothing could read its label (no text there), so it is a write',
    ],
  ],
  // Labels fail closed: what nothing could read is a write, and a misread verb is that verb.
  [
    'an icon OCR reads as “H” (the sim’s Save icon)',
    { action: 'click', x: 266, y: 66 },
    { screen: BLIND, ocr: read('H', 89) },
    NOTHING('(266, 66)', 'OCR read only “H”, fewer than three letters'),
  ],
  [
    'an icon OCR reads as “db”',
    { action: 'click', x: 450, y: 66 },
    { screen: BLIND, ocr: read('db', 78) },
    NOTHING('(450, 66)', 'OCR read only “db”, fewer than three letters'),
  ],
  [
    'a number is no label',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: '15.03.2026' },
    NOTHING('(10, 10)', 'OCR read only “15.03.2026”, fewer than three letters'),
  ],
  [
    'a blank spot',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: { unreadable: 'no_text' } },
    NOTHING('(10, 10)', 'no text there'),
  ],
  [
    'OCR failed',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: { unreadable: 'failed' } },
    NOTHING('(10, 10)', 'OCR failed'),
  ],
  [
    'OCR timed out',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: { unreadable: 'timed_out' } },
    NOTHING('(10, 10)', 'OCR timed out'),
  ],
  [
    'OCR unsure of a word',
    { action: 'click', x: 10, y: 10 },
    {
      screen: BLIND,
      ocr: {
        words: [
          { text: 'Fresgenen', confidence: 50 },
          { text: 'Display', confidence: 96 },
        ],
      },
    },
    NOTHING('(10, 10)', 'OCR was unsure of “Fresgenen”: confidence 50, under 60'),
  ],
  [
    'an unsure speck without letters does not matter',
    { action: 'click', x: 10, y: 10 },
    {
      screen: BLIND,
      ocr: {
        words: [
          { text: '[7', confidence: 46 },
          { text: 'Favoriten', confidence: 96 },
        ],
      },
    },
    ['read', 'click on “[7 Favoriten” (read from the screen by OCR): no committing verb'],
  ],
  [
    'a verb OCR was unsure of still counts',
    { action: 'click', x: 10, y: 10 },
    {
      screen: BLIND,
      ocr: {
        words: [
          { text: 'Post', confidence: 21 },
          { text: 'Document', confidence: 96 },
        ],
      },
    },
    ['write', 'click on “Post Document” (read from the screen by OCR)'],
  ],
  [
    'OCR reads Sichern as Sichem',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Sichem' },
    ['write', 'click on “Sichem” (read from the screen by OCR, taken as “Sichern”)'],
  ],
  [
    'OCR reads Speichern as Speichem',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Speichem' },
    ['write', 'click on “Speichem” (read from the screen by OCR, taken as “Speichern”)'],
  ],
  [
    'OCR reads Genehmigen with one letter wrong',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Genenmigen' },
    ['write', 'click on “Genenmigen” (read from the screen by OCR, taken as “Genehmigen”)'],
  ],
  [
    'OCR splits a verb in two',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Frei geben' },
    ['write', 'click on “Frei geben” (read from the screen by OCR, taken as “Freigeben”)'],
  ],
  [
    'a verb of four letters is not matched within one edit (Sane)',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Sane' },
    ['read', 'click on “Sane” (read from the screen by OCR): no committing verb'],
  ],
  [
    'two edits from a verb is not that verb (Sichten)',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Sichten' },
    ['read', 'click on “Sichten” (read from the screen by OCR): no committing verb'],
  ],
  [
    'one edit from a verb is that verb, even a real word (Suchen, Buchen)',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Suchen' },
    ['write', 'click on “Suchen” (read from the screen by OCR, taken as “Buchen”)'],
  ],
  [
    'an outline name is never taken as a near verb',
    { action: 'click', x: 10, y: 10 },
    {
      screen: { ...BLIND, outline: [el('s', 'label', 'Sichem', 0, 0, 50, 20)] },
    },
    ['read', 'click on “Sichem” (from the screen outline): no committing verb'],
  ],
  [
    'nor is the planner’s target',
    { action: 'click', x: 10, y: 10, target: 'Sichem' },
    { screen: BLIND, ocr: 'Anzeigen' },
    ['read', 'click on “Anzeigen” (read from the screen by OCR): no committing verb'],
  ],
  [
    'a dialog’s OK (outline)',
    { action: 'click', x: 10, y: 10 },
    { screen: { ...BLIND, outline: [el('ok', 'button', 'OK', 0, 0, 50, 20)] } },
    ['write', 'click on “OK” (from the screen outline)'],
  ],
  [
    'a dialog’s OK read by OCR, two letters',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'OK' },
    ['write', 'click on “OK” (read from the screen by OCR)'],
  ],
  [
    'Weiter (OCR)',
    { action: 'click', x: 10, y: 10 },
    { screen: BLIND, ocr: 'Weiter' },
    ['write', 'click on “Weiter” (read from the screen by OCR)'],
  ],
  [
    'Apply, Continue, Proceed (outline)',
    { action: 'click', x: 10, y: 10 },
    {
      screen: { ...BLIND, outline: [el('p', 'button', 'Apply and Continue', 0, 0, 50, 20)] },
    },
    ['write', 'click on “Apply and Continue” (from the screen outline)'],
  ],
  [
    'unlabelled_clicks "read" sends an unlabelled click where the host serves an outline',
    { action: 'click', x: 242, y: 56 },
    { ocr: read('H', 89), agent: { unlabelled_clicks: 'read' } },
    [
      'read',
      'click at (242, 56): nothing could read its label (OCR read only “H”, fewer than three letters); this agent sends such clicks (unlabelled_clicks: "read")',
    ],
  ],
  [
    'unlabelled_clicks "read" does nothing where the host serves no outline',
    { action: 'click', x: 242, y: 56 },
    { screen: BLIND, ocr: read('H', 89), agent: { unlabelled_clicks: 'read' } },
    [
      'write',
      'click at (242, 56): nothing could read its label (OCR read only “H”, fewer than three letters), so it is a write: unlabelled_clicks "read" applies only where the screen host serves an outline',
    ],
  ],
  [
    'unlabelled_clicks "read" never sends a misread verb',
    { action: 'click', x: 242, y: 56 },
    { ocr: read('Sichem', 30), agent: { unlabelled_clicks: 'read' } },
    ['write', 'click on “Sichem” (read from the screen by OCR, taken as “Sichern”)'],
  ],
  [
    'a long label is shortened in why',
    { action: 'click', x: 1, y: 1 },
    { screen: BLIND, ocr: `Save ${'and more '.repeat(10)}` },
    [
      'write',
      'click on “Save and more and more and more and more and more and more…” (read from the screen by OCR)',
    ],
  ],
  [
    'a bidi override in a label is dropped from why',
    { action: 'click', x: 1, y: 1 },
    { screen: BLIND, ocr: 'Sa\u202eve' },
    ['write', 'click on “Save” (read from the screen by OCR)'],
  ],
];

/** docs/rules.md: a click on an element the outline marks as a text field focuses it. */
const textFields: Case[] = [
  [
    'a click on the text field “Order” is a read: a field is not the verb',
    click('order'),
    {},
    ['read', 'click on “Order” (a text field in the screen outline): focusing a field is a read'],
  ],
  [
    'a double-click on the text field “Order” selects a word: a read',
    { action: 'double_click', ...at('order') },
    {},
    [
      'read',
      'double-click on “Order” (a text field in the screen outline): selecting a word in a field is a read',
    ],
  ],
  [
    'the planner naming the field it clicks (“Order”) does not make it a write',
    click('order', { target: 'Order' }),
    {},
    ['read', 'click on “Order” (a text field in the screen outline): focusing a field is a read'],
  ],
  [
    'the field’s own name in other case and spacing is still its name',
    click('order', { target: '  ORDER ' }),
    {},
    ['read', 'click on “Order” (a text field in the screen outline): focusing a field is a read'],
  ],
  [
    'a target naming another committing verb on a text field is a write',
    click('order', { target: 'Save' }),
    {},
    ['write', "click on “Save” (the planner's target)"],
  ],
  [
    'a target that is more than the field’s name and names a verb is a write',
    click('order', { target: 'Order field' }),
    {},
    ['write', "click on “Order field” (the planner's target)"],
  ],
  [
    'a target without a verb on a text field changes nothing',
    click('order', { target: 'the document number' }),
    {},
    ['read', 'click on “Order” (a text field in the screen outline): focusing a field is a read'],
  ],
  [
    'SAP’s GuiCTextField is a text field',
    click('ctext'),
    {},
    [
      'read',
      'click on “Sold-To Party” (a text field in the screen outline): focusing a field is a read',
    ],
  ],
  [
    'SAP’s command field (GuiOkCodeField) is a text field',
    click('okcode'),
    {},
    [
      'read',
      'click on “Command field” (a text field in the screen outline): focusing a field is a read',
    ],
  ],
  [
    'an edit control named with a verb is a text field',
    click('delete-field'),
    {},
    [
      'read',
      'click on “Delete Indicator” (a text field in the screen outline): focusing a field is a read',
    ],
  ],
  [
    'an unnamed text field is a read: nothing but its role is needed',
    click('unnamed'),
    {},
    [
      'read',
      'click at (390, 711) on an unnamed text field of the screen outline: focusing a field is a read',
    ],
  ],
  [
    'a click on a password field focuses it: a read (typing into it stays refused)',
    click('pwdbox'),
    {},
    [
      'read',
      'click on “Kennwort” (a text field in the screen outline): focusing a field is a read',
    ],
  ],
  [
    'the role “text” is not a text field: its label is judged',
    click('pdate'),
    {},
    ['read', 'click on “Posting Date” (from the screen outline): no committing verb'],
  ],
  [
    'without an outline nothing tells a field from a button: “Order” read by OCR is a write',
    click('order'),
    { screen: BLIND, ocr: 'Order' },
    ['write', 'click on “Order” (read from the screen by OCR)'],
  ],
];

/** One element of a kind under the point, on a screen of its own. */
const alone = (role: string, name: string, extra: Partial<OutlineElement> = {}): Context => ({
  screen: { ...BLIND, outline: [el('c', role, name, 0, 0, 100, 24, extra)] },
});
const at5 = { action: 'click', x: 5, y: 5 };
const ONLY_NAV = 'its labels name only navigation';
const COMMAND =
  'a command control is a write unless its labels name only navigation (Back, Cancel …)';

/** docs/rules.md, "Controls by kind": what the outline says an element is decides first. */
const controls: Case[] = [
  // Command controls: a write unless every label names only navigation.
  [
    'a button that names no verb is a write',
    at5,
    alone('button', 'Simulate'),
    ['write', `click on “Simulate” (a button in the screen outline): ${COMMAND}`],
  ],
  [
    'a button named Back is a read',
    at5,
    alone('button', 'Back'),
    ['read', `click on “Back” (a button in the screen outline): ${ONLY_NAV}`],
  ],
  [
    'a German Abbrechen button is a read',
    at5,
    alone('push button', 'Abbrechen'),
    ['read', `click on “Abbrechen” (a push button in the screen outline): ${ONLY_NAV}`],
  ],
  [
    'a navigation word with a non-commit shortcut is a read',
    at5,
    alone('button', 'Exit (Shift+F3)'),
    ['read', `click on “Exit (Shift+F3)” (a button in the screen outline): ${ONLY_NAV}`],
  ],
  [
    'a navigation word beside another word is a write',
    at5,
    alone('button', 'Back to list and archive'),
    ['write', `click on “Back to list and archive” (a button in the screen outline): ${COMMAND}`],
  ],
  [
    'a shortcut alone names no navigation',
    at5,
    alone('button', 'F3'),
    ['write', `click on “F3” (a button in the screen outline): ${COMMAND}`],
  ],
  [
    'a toolbar button is a command control',
    at5,
    alone('toolbar button', 'Print (Ctrl+P)'),
    ['write', `click on “Print (Ctrl+P)” (a toolbar button in the screen outline): ${COMMAND}`],
  ],
  [
    'a menu item is a command control',
    at5,
    alone('menu item', 'Duplicate'),
    ['write', `click on “Duplicate” (a menu item in the screen outline): ${COMMAND}`],
  ],
  [
    'a menu item named Close is a read',
    at5,
    alone('menu item', 'Close'),
    ['read', `click on “Close” (a menu item in the screen outline): ${ONLY_NAV}`],
  ],
  [
    'a link that acts is a write',
    at5,
    alone('link', 'Resend invoice'),
    ['write', `click on “Resend invoice” (a link in the screen outline): ${COMMAND}`],
  ],
  [
    'a navigation word the agent added makes a button a read',
    at5,
    { ...alone('button', 'Weiterblättern'), agent: { navigation_words: ['Weiterblättern'] } },
    [
      'read',
      `click on “Weiterblättern” (a button in the screen outline): ${ONLY_NAV} (this agent's navigation_words)`,
    ],
  ],
  [
    'without the agent’s word the same button is a write',
    at5,
    alone('button', 'Weiterblättern'),
    ['write', `click on “Weiterblättern” (a button in the screen outline): ${COMMAND}`],
  ],
  // The description (tooltip) is a label too.
  [
    'GnuCash’s Enter: the name names a commit key',
    at5,
    alone('push button', 'Enter', { description: 'Record the current transaction' }),
    [
      'write',
      'click on “Enter” (from the screen outline, which names the commit key Enter: a control does what its key does)',
    ],
  ],
  [
    'a description naming a committing verb',
    at5,
    alone('push button', 'Go', { description: 'Record the current transaction' }),
    ['write', 'click on “Go” described “Record the current transaction” (from the screen outline)'],
  ],
  [
    'a navigation name with a description that says more is a write',
    at5,
    alone('button', 'Back', { description: 'Back to the list, keeping the draft' }),
    [
      'write',
      `click on “Back” (a button in the screen outline) described “Back to the list, keeping the draft”: ${COMMAND}`,
    ],
  ],
  [
    'a navigation name and description is a read',
    at5,
    alone('button', 'Back', { description: 'Back (F3)' }),
    ['read', `click on “Back” (a button in the screen outline): ${ONLY_NAV}`],
  ],
  [
    'an icon button named only by its tooltip',
    at5,
    alone('button', '', { description: 'Save (Ctrl+S)' }),
    ['write', 'click on an unnamed button described “Save (Ctrl+S)” (from the screen outline)'],
  ],
  [
    'an icon button whose tooltip only navigates',
    at5,
    alone('button', '', { description: 'Cancel (F12)' }),
    ['read', `click on an unnamed button in the screen outline: ${ONLY_NAV}`],
  ],
  // A window over the screen's where the host has no element (a tooltip, a menu's separator).
  [
    'a popup the host cannot describe, OCR reads a sentence without a verb',
    at5,
    { ...alone('popup', ''), ocr: 'Open an existing file' },
    [
      'write',
      `click on an unnamed popup in the screen outline, “Open an existing file” (read from the screen by OCR): ${COMMAND}`,
    ],
  ],
  ['a popup where OCR reads nothing', at5, alone('popup', ''), NOTHING('(5, 5)', 'no text there')],
  [
    'a popup where OCR reads only navigation',
    at5,
    { ...alone('popup', ''), ocr: 'Cancel' },
    [
      'read',
      `click on an unnamed popup in the screen outline, “Cancel” (read from the screen by OCR): ${ONLY_NAV}`,
    ],
  ],
  // A label naming a commit key is a committing verb.
  [
    'the sim’s toolbar Enter (SAP’s green check)',
    at5,
    alone('button', 'Enter', { description: 'Enter (Enter)', area: 'toolbar' }),
    [
      'write',
      'click on “Enter” (from the screen outline, which names the commit key Enter: a control does what its key does)',
    ],
  ],
  [
    'a label naming F8',
    at5,
    alone('label', 'Run report (F8)'),
    [
      'write',
      'click on “Run report (F8)” (from the screen outline, which names the commit key F8: a control does what its key does)',
    ],
  ],
  [
    'a label naming Strg+S',
    at5,
    alone('label', 'Daten (Strg+S)'),
    [
      'write',
      'click on “Daten (Strg+S)” (from the screen outline, which names the commit key Ctrl+S: a control does what its key does)',
    ],
  ],
  [
    'a label naming Return',
    at5,
    alone('label', 'Return'),
    [
      'write',
      'click on “Return” (from the screen outline, which names the commit key Enter: a control does what its key does)',
    ],
  ],
  [
    'OCR reads Enter on a screen without an outline',
    at5,
    { screen: BLIND, ocr: 'Enter' },
    ['write', 'click on “Enter” (read from the screen by OCR, which names the commit key Enter)'],
  ],
  [
    'a label naming a navigation key is no verb',
    at5,
    alone('label', 'Next page (PageDown)'),
    ['read', 'click on “Next page (PageDown)” (from the screen outline): no committing verb'],
  ],
  // Controls that change a value: an edit, a write.
  [
    'a checkbox is an edit',
    at5,
    alone('check box', 'Delivery block'),
    [
      'write',
      'click on “Delivery block” (a check box in the screen outline): it changes a value, an edit',
    ],
  ],
  [
    'a radio button is an edit, whatever its name',
    at5,
    alone('radio button', 'Display'),
    [
      'write',
      'click on “Display” (a radio button in the screen outline): it changes a value, an edit',
    ],
  ],
  [
    'SAP’s GuiCheckBox',
    at5,
    alone('GuiCheckBox', ''),
    ['write', 'click on an unnamed GuiCheckBox in the screen outline: it changes a value, an edit'],
  ],
  [
    'a combo box is an edit',
    at5,
    alone('combo box', 'Currency'),
    [
      'write',
      'click on “Currency” (a combo box in the screen outline): it changes a value, an edit',
    ],
  ],
  [
    'a toggle button is an edit',
    at5,
    alone('toggle button', 'Bold'),
    [
      'write',
      'click on “Bold” (a toggle button in the screen outline): it changes a value, an edit',
    ],
  ],
  // Tabs, menus that open, scroll bars: reads, unless a label names a committing verb.
  [
    'a tab is a read',
    at5,
    alone('page tab', 'Shipping'),
    [
      'read',
      'click on “Shipping” (a page tab in the screen outline): opening or moving to it is a read',
    ],
  ],
  [
    'an unnamed scroll bar is a read',
    at5,
    alone('scroll bar', ''),
    [
      'read',
      'click on an unnamed scroll bar in the screen outline: opening or moving to it is a read',
    ],
  ],
  [
    'a menu that opens is a read',
    at5,
    alone('menu', 'Goto'),
    ['read', 'click on “Goto” (a menu in the screen outline): opening or moving to it is a read'],
  ],
  [
    'a tab named with a committing verb is still a write',
    at5,
    alone('tab', 'Post'),
    ['write', 'click on “Post” (from the screen outline)'],
  ],
  [
    'a role the rules do not place keeps the label rules',
    at5,
    alone('list item', 'Sales and Distribution'),
    ['read', 'click on “Sales and Distribution” (from the screen outline): no committing verb'],
  ],
];

const others: Case[] = [
  [
    'scroll is a read',
    { action: 'scroll', x: 100, y: 100, direction: 'down', amount: 5 },
    {},
    ['read', 'scrolling is a read'],
  ],
  [
    'scroll direction in upper case',
    { action: 'scroll', x: 100, y: 100, direction: 'UP' },
    {},
    ['read', 'scrolling is a read'],
  ],
  [
    'scroll over a Delete button is still a read',
    { action: 'scroll', ...at('lsch'), direction: 'down' },
    {},
    ['read', 'scrolling is a read'],
  ],
  ['wait is a read', { action: 'wait', seconds: 0.1 }, {}, ['read', 'waiting is a read']],
  ['wait 10 seconds', { action: 'wait', seconds: 10 }, {}, ['read', 'waiting is a read']],
  [
    'done ends the run',
    { action: 'done', summary: 'Order 4711 displayed' },
    {},
    ['read', 'done ends the run; nothing is sent'],
  ],
  [
    'fail ends the run',
    { action: 'fail', reason: 'the order does not exist' },
    {},
    ['read', 'fail ends the run; nothing is sent'],
  ],
  [
    'done may mention a card number: it is not typed',
    { action: 'done', summary: 'card 4111 1111 1111 1111 is blocked' },
    {},
    ['read', 'done ends the run; nothing is sent'],
  ],
];

const TABLE = [
  ...parsing,
  ...bounds,
  ...keys,
  ...typing,
  ...clicks,
  ...textFields,
  ...controls,
  ...others,
];

describe('the action rules, as a table (docs/rules.md)', () => {
  it('has at least 150 cases, each with a distinct title', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(150);
    expect(new Set(TABLE.map((c) => c[0])).size).toBe(TABLE.length);
  });

  it.each(TABLE)('%s', (_title, answer, context, [classification, why]) => {
    const rules = loadRules(context.agent);
    const ocr = typeof context.ocr === 'string' ? read(context.ocr) : context.ocr;
    const verdict = checkAction(answer, context.screen ?? SCREEN, rules, ocr);
    expect({ classification: verdict.classification, why: verdict.why }).toEqual({
      classification,
      why,
    });
    expect(verdict.action === null).toBe(classification === 'invalid');
  });
});
