/**
 * checkScript: every refusal with the exact message naming the step and field, what it accepts
 * and how it normalises, and properties over arbitrary JSON.
 */
import { ACTION_FIELDS } from '@warden/protocol';
import fc from 'fast-check';
import { ACTION_NAMES, checkShape } from '../actions';
import { checkScript } from './check-script';
import { SCRIPT_LIMITS } from './script.types';

const ok = (action: unknown) => ({ action });
const done = { action: 'done', summary: 'ok' };
const one = (step: unknown) => ({ steps: [step] });
const SHA = 'ab'.repeat(32);

const ACTIONS = ACTION_NAMES.join(', ');

/** [what, script, exact message] */
const INVALID: Array<[string, unknown, string]> = [
  // the script itself
  ['not an object', [], 'script (a list): an object {steps, patience?}'],
  ['a string', 'steps', 'script "steps": an object {steps, patience?}'],
  ['null', null, 'script null: an object {steps, patience?}'],
  [
    'an unknown field',
    { steps: [ok(done)], name: 'x' },
    'name: unknown field; a script has steps, patience, parameters and fallback',
  ],
  [
    'an odd unknown field',
    { steps: [ok(done)], 'a b': 1 },
    '["a b"]: unknown field; a script has steps, patience, parameters and fallback',
  ],
  ['no steps', {}, 'steps: missing; a list of 1 to 200 steps'],
  ['steps not a list', { steps: { 0: done } }, 'steps (an object): a list of 1 to 200 steps'],
  ['no step at all', { steps: [] }, 'steps: empty; a list of 1 to 200 steps'],
  [
    '201 steps',
    { steps: Array.from({ length: 201 }, () => ok(done)) },
    'steps: 201 steps; at most 200',
  ],
  [
    'patience negative',
    { steps: [ok(done)], patience: -1 },
    'patience -1: an integer from 0 to 600',
  ],
  [
    'patience a fraction',
    { steps: [ok(done)], patience: 1.5 },
    'patience 1.5: an integer from 0 to 600',
  ],
  [
    'patience too large',
    { steps: [ok(done)], patience: 601 },
    'patience 601: an integer from 0 to 600',
  ],
  // a step
  [
    'a step not an object',
    { steps: [ok(done), 'click'] },
    'steps[1] "click": a step {step?, when?, patience?, action}',
  ],
  [
    'a step with an unknown field',
    one({ action: done, wait: 1 }),
    'steps[0].wait: unknown field; a step has step, when, patience and action',
  ],
  [
    'a step without action',
    { steps: [ok(done), ok(done), { step: 'x' }] },
    'steps[2].action: missing; every step has an action',
  ],
  [
    'a label that is a boolean',
    one({ step: true, action: done }),
    'steps[0].step true: a label: a string of 1 to 100 characters, or an integer',
  ],
  [
    'a label that is blank',
    one({ step: '  ', action: done }),
    'steps[0].step: a label: a string of 1 to 100 characters, or an integer, not blank',
  ],
  [
    'a label too long',
    one({ step: 'x'.repeat(101), action: done }),
    'steps[0].step: 1 to 100 characters (it has 101)',
  ],
  [
    'a step patience as text',
    one({ patience: '3', action: done }),
    'steps[0].patience "3": an integer from 0 to 600',
  ],
  // when
  [
    'when not an object',
    one({ when: 'saved', action: done }),
    'steps[0].when "saved": one of {text}, {element} or {screen_sha256}',
  ],
  [
    'when empty',
    one({ when: {}, action: done }),
    'steps[0].when: empty; one of {text}, {element} or {screen_sha256}',
  ],
  [
    'when with two conditions',
    one({ when: { text: 'a', screen_sha256: SHA }, action: done }),
    'steps[0].when: only one of text, element, screen_sha256 (it has text and screen_sha256)',
  ],
  [
    'when with an unknown field',
    one({ when: { regex: 'a' }, action: done }),
    'steps[0].when.regex: unknown field; when has one of text, element, screen_sha256',
  ],
  [
    'when text that does not compile',
    { steps: [ok(done), ok(done), ok(done), { when: { text: '(saved' }, action: done }] },
    'steps[3].when.text "(saved": not a valid regular expression (Unterminated group)',
  ],
  [
    'when text with a lookahead, which RE2 cannot run',
    one({ when: { text: '^Order(?= saved)' }, action: done }),
    'steps[0].when.text "^Order(?= saved)": not a valid regular expression (a lookahead ((?=…) or (?!…)) cannot be used: Warden matches patterns with RE2, in time linear in the text, and RE2 has no such thing)',
  ],
  [
    'when text with a backreference, which RE2 cannot run',
    one({ when: { text: '(\\d)\\1' }, action: done }),
    'steps[0].when.text "(\\\\d)\\\\1": not a valid regular expression (a backreference (\\1) cannot be used: Warden matches patterns with RE2, in time linear in the text, and RE2 has no such thing)',
  ],
  [
    'when text that makes too large a program',
    one({ when: { text: '.{1000}.{1000}.{1000}' }, action: done }),
    'steps[0].when.text ".{1000}.{1000}.{1000}": too large to match cheaply (about 3003 steps per character of text, at most 2000; a repeat such as {50} copies what it repeats 50 times)',
  ],
  [
    'when text too long',
    one({ when: { text: 'a'.repeat(501) }, action: done }),
    'steps[0].when.text: 1 to 500 characters (it has 501)',
  ],
  [
    'when text empty',
    one({ when: { text: '' }, action: done }),
    'steps[0].when.text: 1 to 500 characters (it has 0)',
  ],
  [
    'when text not a string',
    one({ when: { text: 42 }, action: done }),
    'steps[0].when.text 42: a regular expression of 1 to 500 characters',
  ],
  [
    'when text a lone surrogate',
    one({ when: { text: 'a\ud800' }, action: done }),
    'steps[0].when.text: not valid Unicode (a lone surrogate)',
  ],
  [
    'when screen not a hash',
    one({ when: { screen_sha256: 'abc' }, action: done }),
    'steps[0].when.screen_sha256 "abc": 64 hexadecimal characters (the SHA-256 of the screenshot\'s PNG)',
  ],
  [
    'when element without name',
    one({ when: { element: { role: 'button' } }, action: done }),
    'steps[0].when.element.name: missing; an element {role, name}, as the outline names it',
  ],
  [
    'when element with an unknown field',
    one({ when: { element: { role: 'button', name: 'Save', id: 'b1' } }, action: done }),
    'steps[0].when.element.id: unknown field; an element has role and name',
  ],
  [
    'when element role blank',
    one({ when: { element: { role: ' ', name: 'Save' } }, action: done }),
    'steps[0].when.element.role: not blank',
  ],
  [
    'when element name with a NUL',
    one({ when: { element: { role: 'button', name: 'Sa\u0000ve' } }, action: done }),
    'steps[0].when.element.name: no control characters',
  ],
  // the action
  [
    'an unknown action',
    { steps: [ok(done), ok(done), ok(done), ok({ action: 'explode' })] },
    `steps[3].action.action "explode": one of ${ACTIONS}`,
  ],
  [
    'an action name that is a number',
    one(ok({ action: 3 })),
    `steps[0].action.action 3: one of ${ACTIONS}`,
  ],
  [
    'an action without its name',
    one(ok({ x: 1, y: 2 })),
    `steps[0].action.action: missing; one of ${ACTIONS}`,
  ],
  [
    'an action that is a string',
    one(ok('click')),
    'steps[0].action "click": an action object, such as {"action": "key", "key": "Enter"}',
  ],
  [
    'an unknown field of an action',
    one(ok({ action: 'key', key: 'Enter', times: 2 })),
    'steps[0].action.times: unknown field; key takes key',
  ],
  [
    'element on a type action',
    one(ok({ action: 'type', text: 'x', element: { role: 'textbox', name: 'Order' } })),
    'steps[0].action.element: unknown field; type takes text',
  ],
  [
    'a click without a point',
    one(ok({ action: 'click' })),
    'steps[0].action.x: missing; click needs x and y (or element)',
  ],
  [
    'a click with y only',
    one(ok({ action: 'double_click', x: 5 })),
    'steps[0].action.y: missing; double_click needs x and y (or element)',
  ],
  [
    'a click with a point and an element',
    one(ok({ action: 'click', x: 1, y: 2, element: { role: 'button', name: 'Save' } })),
    'steps[0].action: either x and y or element, not both',
  ],
  [
    'a click with a fractional x',
    one(ok({ action: 'click', x: 1.5, y: 2 })),
    'steps[0].action.x: must be an integer (screen pixels), not 1.5',
  ],
  [
    'a click with a negative y',
    one(ok({ action: 'click', x: 1, y: -2 })),
    'steps[0].action.y -2: 0 or more (screen pixels)',
  ],
  [
    'a click whose element is a string',
    one(ok({ action: 'click', element: 'Save' })),
    'steps[0].action.element "Save": an element {role, name}, as the outline names it',
  ],
  [
    'a click with a numeric target',
    one(ok({ action: 'click', x: 1, y: 2, target: 5 })),
    'steps[0].action.target: must be a string, not a number',
  ],
  [
    'a scroll without direction',
    one(ok({ action: 'scroll', element: { role: 'list', name: 'All Items' } })),
    'steps[0].action.direction: missing; scroll needs x and y (or element) and direction',
  ],
  [
    'a scroll sideways',
    one(
      ok({ action: 'scroll', element: { role: 'list', name: 'All Items' }, direction: 'sideways' }),
    ),
    'steps[0].action.direction: must be one of up, down, left, right',
  ],
  [
    'a scroll of 11',
    one(ok({ action: 'scroll', x: 1, y: 1, direction: 'down', amount: 11 })),
    'steps[0].action.amount: must be an integer from 1 to 10',
  ],
  [
    'a type without text',
    one(ok({ action: 'type' })),
    'steps[0].action.text: missing; type needs text',
  ],
  [
    'a type of nothing',
    one(ok({ action: 'type', text: '' })),
    'steps[0].action.text: must be 1 to 500 characters (it has 0)',
  ],
  [
    'a type of 501 characters',
    one(ok({ action: 'type', text: 'é'.repeat(501) })),
    'steps[0].action.text: must be 1 to 500 characters (it has 501)',
  ],
  [
    'a type of a card number',
    one(ok({ action: 'type', text: '4111 1111 1111 1111' })),
    'steps[0].action.text: the text looks like a card number (13–19 digits passing the Luhn check); Warden never types card numbers',
  ],
  [
    'a type with a control character',
    one(ok({ action: 'type', text: 'a\u0007' })),
    'steps[0].action.text: must not contain control characters or line breaks other than tab and newline (it has U+0007 BELL)',
  ],
  [
    'a type with a bidirectional override',
    one(ok({ action: 'type', text: 'Rechnung \u202e1174' })),
    'steps[0].action.text: must not contain bidirectional controls (it has U+202E RIGHT-TO-LEFT OVERRIDE): they change the order in which text is shown, so a person could read something other than what is typed',
  ],
  [
    'a type that goes on after a newline',
    one(ok({ action: 'type', text: '/nVA02\n4711' })),
    'steps[0].action.text: the text holds a newline (character 7) with more text after it, and Warden cannot tell which field that text reaches (it presses Enter: the application processes the screen, and the focus lands on a screen Warden has not seen); send Enter as its own key action, so that each text is judged for the field it goes into',
  ],
  [
    'a key Warden does not know',
    one(ok({ action: 'key', key: 'blorp' })),
    'steps[0].action.key: “blorp” is not a key Warden knows',
  ],
  [
    'a key that is not allowed',
    one(ok({ action: 'key', key: 'alt-f4' })),
    'steps[0].action.key: key Alt+F4 is not allowed; the allowed keys are the navigation keys (Tab, Shift+Tab, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, Escape, F1, F2, F3, F4, F12) and the commit keys (Enter, F8, F11, Ctrl+S, F5, Delete, Backspace)',
  ],
  [
    'a wait of 11 s',
    one(ok({ action: 'wait', seconds: 11 })),
    'steps[0].action.seconds: must be a number from 0.1 to 10',
  ],
  [
    'a done with a blank summary',
    one(ok({ action: 'done', summary: '  ' })),
    'steps[0].action.summary: must not be empty',
  ],
  [
    'a done with a NUL in it',
    one(ok({ action: 'done', summary: 'a\u0000b' })),
    'steps[0].action.summary: no control characters',
  ],
  [
    'a fail without reason',
    one(ok({ action: 'fail' })),
    'steps[0].action.reason: missing; fail needs reason',
  ],
];

describe('checkScript refuses, naming the step and the field', () => {
  it('has a good many cases', () => {
    expect(INVALID.length).toBeGreaterThanOrEqual(30);
  });

  it.each(INVALID)('%s', (_what, script, message) => {
    expect(checkScript(script)).toEqual({ ok: false, error: message });
  });

  it('refuses more than 64 KB of JSON', () => {
    const text = 'x'.repeat(490);
    const steps = Array.from({ length: 140 }, () => ({ action: { action: 'type', text } }));
    const bytes = Buffer.byteLength(JSON.stringify({ steps }));
    expect(bytes).toBeGreaterThan(SCRIPT_LIMITS.bytes);
    expect(checkScript({ steps })).toEqual({
      ok: false,
      error: `script: ${bytes} bytes of JSON; at most 65536`,
    });
  });

  it('refuses a script that only grows past 64 KB when its defaults are filled in', () => {
    // Scrolls without `amount` get `"amount":3` added; the input itself is exactly 64 KB.
    const steps: unknown[] = Array.from({ length: 100 }, () => ({
      action: { action: 'scroll', x: 1, y: 1, direction: 'down' },
    }));
    const size = () => Buffer.byteLength(JSON.stringify({ steps }));
    while (size() < SCRIPT_LIMITS.bytes - 1500) {
      steps.push({ action: { action: 'type', text: 'é'.repeat(500) } });
    }
    const last = { action: { action: 'done', summary: 'x' } };
    steps.push(last);
    last.action.summary = 'x'.repeat(SCRIPT_LIMITS.bytes - size() + 1);
    expect(size()).toBe(SCRIPT_LIMITS.bytes);
    expect(checkScript({ steps })).toEqual({
      ok: false,
      error: `script: ${SCRIPT_LIMITS.bytes + 100 * ',"amount":3'.length} bytes of JSON with defaults filled in; at most 65536`,
    });
  });

  it('quotes a long or odd value briefly and on one line', () => {
    const result = checkScript(one(ok({ action: `explode\n${'!'.repeat(80)}` })));
    expect(result).toEqual({
      ok: false,
      error: `steps[0].action.action "explode ${'!'.repeat(31)}…": one of ${ACTIONS}`,
    });
  });

  it('names the first problem only, in order', () => {
    const result = checkScript({
      steps: [ok(done), ok({ action: 'key', key: 'F99' }), ok({ action: 'explode' })],
    });
    expect(result).toEqual({
      ok: false,
      error: 'steps[1].action.key: “F99” is not a key Warden knows',
    });
  });
});

describe('checkScript accepts and normalises', () => {
  it('accepts the shapes of docs/models.md and fills in what the actions module fills in', () => {
    const result = checkScript({
      patience: 4,
      steps: [
        {
          step: 'open',
          action: { action: 'click', element: { role: 'textbox', name: 'Command field' } },
        },
        { action: { action: 'type', text: '/nVA02' } },
        { step: 3, action: { action: 'key', key: 'return' } },
        {
          when: { element: { role: 'textbox', name: 'Order' } },
          patience: 0,
          action: { action: 'wait', seconds: 0.5 },
        },
        {
          when: { screen_sha256: SHA.toUpperCase() },
          action: {
            action: 'scroll',
            element: { role: 'list', name: 'All Items' },
            direction: 'Down',
          },
        },
        {
          when: { text: '^Sales order \\d+ has been saved$' },
          action: { action: 'double_click', x: 0, y: 10, target: '  Save  ' },
        },
        { action: { action: 'fail', reason: 'not expected' } },
      ],
    });
    expect(result).toEqual({
      ok: true,
      script: {
        patience: 4,
        steps: [
          {
            step: 'open',
            action: { action: 'click', element: { role: 'textbox', name: 'Command field' } },
          },
          { action: { action: 'type', text: '/nVA02' } },
          { step: 3, action: { action: 'key', key: 'Enter' } },
          {
            when: { element: { role: 'textbox', name: 'Order' } },
            patience: 0,
            action: { action: 'wait', seconds: 0.5 },
          },
          {
            when: { screen_sha256: SHA },
            action: {
              action: 'scroll',
              direction: 'down',
              amount: 3,
              element: { role: 'list', name: 'All Items' },
            },
          },
          {
            when: { text: '^Sales order \\d+ has been saved$' },
            action: { action: 'double_click', x: 0, y: 10, target: 'Save' },
          },
          { action: { action: 'fail', reason: 'not expected' } },
        ],
      },
    });
  });

  it('accepts typing through a Tab: where it lands is judged on the screen of each step', () => {
    for (const text of ['4711\t30.04.2026', '/nVA02\n', 'Coffee\t3.50\t']) {
      expect(checkScript({ steps: [ok({ action: 'type', text })] })).toMatchObject({ ok: true });
    }
  });

  it('accepts 200 steps', () => {
    const result = checkScript({ steps: Array.from({ length: 200 }, () => ok(done)) });
    expect(result.ok).toBe(true);
  });

  it('treats a field set to undefined as absent, as JSON would', () => {
    expect(
      checkScript({ steps: [{ action: done, when: undefined }], patience: undefined }),
    ).toEqual({ ok: true, script: { steps: [{ action: done }] } });
  });

  it("never returns the caller's objects", () => {
    const input = {
      steps: [{ action: { action: 'click', element: { role: 'button', name: 'Save' } } }],
    };
    const result = checkScript(input);
    expect(result.ok && result.script.steps[0].action).not.toBe(input.steps[0].action);
    expect(
      result.ok &&
        'element' in result.script.steps[0].action &&
        result.script.steps[0].action.element,
    ).not.toBe(input.steps[0].action.element);
  });
});

describe('the action fields table agrees with the actions module', () => {
  const sample: Record<string, unknown> = {
    x: 1,
    y: 2,
    target: 'Save',
    text: 'abc',
    key: 'Enter',
    direction: 'up',
    amount: 2,
    seconds: 1,
    summary: 's',
    reason: 'r',
  };
  it.each(ACTION_NAMES.map((name) => [name]))('%s', (name) => {
    const spec = ACTION_FIELDS[name];
    const full = Object.fromEntries(
      [...spec.required, ...spec.optional].map((k) => [k, sample[k]]),
    );
    expect(checkShape({ action: name, ...full }).ok).toBe(true);
    for (const k of spec.required) {
      const missing = { action: name, ...full };
      delete (missing as Record<string, unknown>)[k];
      expect(checkShape(missing).ok).toBe(false);
    }
    for (const k of Object.keys(sample).filter((k) => !(k in full))) {
      expect(checkShape({ action: name, ...full, [k]: sample[k] }).ok).toBe(false);
    }
  });
});

describe('checkScript and when.text patterns run by RE2', () => {
  it.each(['^(a+)+$', '(a|aa)*c', '(\\w|\\d)*x', 'a*a*a*a*a*a*b', '(?<n>\\d+)-(\\w+)'])(
    'accepts %s: RE2 matches it in linear time',
    (source) => {
      expect(checkScript(one({ when: { text: source }, action: done })).ok).toBe(true);
    },
  );

  it('refuses a lookbehind', () => {
    const result = checkScript(one({ when: { text: '(?<!not )saved' }, action: done }));
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^steps\[0\]\.when\.text "\(\?<!not \)saved": not a valid regular expression \(a lookbehind/,
      ),
    });
  });

  it('refuses the patterns of one script together past their limit, naming the step', () => {
    const step = { when: { text: '.{1000}.{900}' }, action: done };
    const steps = Array.from({ length: 60 }, () => step);
    const result = checkScript({ steps });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(
      /^steps\[52\]\.when\.text "\.\{1000\}\.\{900\}": too large to match cheaply \(with the patterns before it, over 100000 steps/,
    );
  });
});

/** Steps built from pieces that are mostly valid, so that many generated scripts are accepted. */
const elementArb = fc.record({
  role: fc.constantFrom('button', 'textbox', 'list', ' ', ''),
  name: fc.oneof(fc.constantFrom('Save', 'Order', 'Req. Deliv. Date'), fc.string({ maxLength: 8 })),
});
const pointArb = fc.oneof(
  fc.record({ x: fc.integer({ min: -2, max: 2000 }), y: fc.integer({ min: -2, max: 2000 }) }),
  fc.record({ element: elementArb }),
);
const actionArb = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('click', 'double_click'),
      pointArb,
      fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    )
    .map(([action, point, target]) => ({
      action,
      ...point,
      ...(target === undefined ? {} : { target }),
    })),
  fc.record({
    action: fc.constant('type'),
    text: fc.string({ minLength: 0, maxLength: 20, unit: 'grapheme' }),
  }),
  fc.record({
    action: fc.constant('key'),
    key: fc.constantFrom(
      'Enter',
      'enter',
      'ctrl-s',
      'Tab',
      'shift tab',
      'PgUp',
      'Esc',
      'F8',
      'Alt+F4',
      'x',
    ),
  }),
  fc
    .tuple(
      pointArb,
      fc.constantFrom('up', 'DOWN', ' left ', 'sideways'),
      fc.option(fc.integer({ min: 0, max: 11 }), { nil: undefined }),
    )
    .map(([point, direction, amount]) => ({
      action: 'scroll',
      ...point,
      direction,
      ...(amount === undefined ? {} : { amount }),
    })),
  fc.record({ action: fc.constant('wait'), seconds: fc.double({ min: 0, max: 12, noNaN: true }) }),
  fc.record({ action: fc.constant('done'), summary: fc.string({ maxLength: 10 }) }),
  fc.record({ action: fc.constant('fail'), reason: fc.string({ maxLength: 10 }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const whenArb = fc.oneof(
  fc.record({ text: fc.constantFrom('saved', '^Order$', '(', '(a+)+', '\\d{2,}', '[') }),
  fc.record({ element: elementArb }),
  fc.record({
    screen_sha256: fc.oneof(
      fc.constant(SHA),
      fc.constant(SHA.toUpperCase()),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 64 }),
    ),
  }),
);
const stepArb = fc.record(
  {
    step: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean()),
    when: whenArb,
    patience: fc.integer({ min: -1, max: 700 }),
    action: actionArb,
  },
  { requiredKeys: ['action'] },
);
const scriptArb = fc.record(
  {
    steps: fc.array(stepArb, { minLength: 0, maxLength: 6 }),
    patience: fc.integer({ min: -1, max: 700 }),
  },
  { requiredKeys: ['steps'] },
);

describe('properties', () => {
  it('never throws on any JSON, and always answers ok or an error naming where', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = checkScript(value);
        if (!result.ok) expect(result.error).toMatch(/^(script|steps|patience|\[|[a-zA-Z_])/);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on anything at all (undefined, functions, cycles, throwing getters)', () => {
    const cyclic: Record<string, unknown> = { steps: [] };
    (cyclic.steps as unknown[]).push(cyclic);
    const hostile = {
      get steps(): unknown {
        throw new Error('boom');
      },
    };
    for (const value of [
      undefined,
      () => 1,
      Symbol('s'),
      10n,
      cyclic,
      hostile,
      new Proxy({}, {}),
    ]) {
      expect(() => checkScript(value)).not.toThrow();
      expect(checkScript(value).ok).toBe(false);
    }
    fc.assert(fc.property(fc.anything(), (value) => void checkScript(value)));
  });

  it('refuses or accepts generated scripts without throwing, and what it accepts round-trips', () => {
    let accepted = 0;
    fc.assert(
      fc.property(scriptArb, (value) => {
        const result = checkScript(value);
        if (!result.ok) {
          expect(result.error).toMatch(/^(script|steps|patience)/);
          return;
        }
        accepted += 1;
        const json = JSON.stringify(result.script);
        expect(JSON.parse(json)).toEqual(result.script);
        expect(Buffer.byteLength(json)).toBeLessThanOrEqual(SCRIPT_LIMITS.bytes);
        expect(checkScript(JSON.parse(json))).toEqual(result);
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
