/**
 * Properties of the action rules over generated input (fast-check, 10,000 runs each).
 * A failure prints the smallest counterexample fast-check could find.
 */
import { BASE_KEYS, MODIFIERS } from '@warden/protocol';
import fc from 'fast-check';
import {
  ACTION_NAMES,
  type Action,
  type Labels,
  type OutlineElement,
  type OcrFailure,
  type OcrReading,
  type ScreenContext,
} from './action.types';
import { containsCardNumber, maskCardNumbers } from './card-number';
import { checkAction } from './check-action';
import { classify } from './classify';
import { findCommitWord, fold, words } from './commit-words';
import { normaliseKey } from './keys';
import { findNearMiss } from './near-miss';
import { parseAction } from './parse-action';
import { loadRules } from './rules';
import { type EarlierStep, typedSinceFocus } from './typed-field';
import { validate } from './validate';
import defaults from '../../../config/classification.json';

const RUNS = { numRuns: 10_000 };
const rules = loadRules();
const strict = loadRules({ unlabelled_clicks: 'write' });
/** The weakening: unlabelled clicks as reads (only where the host serves an outline). */
const lenient = loadRules({ unlabelled_clicks: 'read' });
const RULES = { default: rules, strict, lenient };
/** Any of the three, by name (so that a counterexample prints the name, not the rules). */
const anyRules = fc.constantFrom(...(Object.keys(RULES) as (keyof typeof RULES)[]));
const SCREEN: ScreenContext = { width: 1920, height: 1080, outline: null };

/** A Luhn-valid number of 13–19 digits: a card number. */
const card = fc
  .tuple(
    fc.integer({ min: 13, max: 19 }),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 19, maxLength: 19 }),
  )
  .map(([n, digits]) => {
    const body = digits.slice(0, n - 1);
    // The Luhn check digit that makes body + check valid.
    let sum = 0;
    for (let i = body.length - 1, dbl = true; i >= 0; i--, dbl = !dbl) {
      let d = body[i];
      if (dbl) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    return [...body, (10 - (sum % 10)) % 10].join('');
  });
/** A card number as people write it: in groups, with spaces or dashes, or none. */
const grouped = fc
  .tuple(card, fc.constantFrom('', ' ', '-', ' - ', '\u00a0'), fc.integer({ min: 1, max: 6 }))
  .map(([c, sep, size]) => c.match(new RegExp(`.{1,${size}}`, 'g'))!.join(sep));
/** A card number cut anywhere into 2–4 non-empty pieces. */
const split = grouped.chain((c) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: c.length - 1 }), { minLength: 1, maxLength: 3 })
    .map((cuts) => {
      const at = [0, ...cuts.sort((a, b) => a - b), c.length];
      return at.slice(1).map((end, i) => c.slice(at[i], end));
    }),
);

/** Four fields of a form, one under the other; a card field among them. */
const FIELDS: OutlineElement[] = [0, 1, 2, 3].map((i) => ({
  id: `f${i}`,
  role: 'textbox',
  name: `Field ${i}`,
  rect: { x: 100, y: 100 + 40 * i, width: 240, height: 22 },
}));
const FORM: ScreenContext = { width: 1920, height: 1080, outline: FIELDS };
/** A point inside field i, along its middle (as a planner clicks a field: with no outline to tell
 * fields apart, points more than SAME_LINE_PX apart up or down count as different fields). */
const inField = (i: number) =>
  fc.tuple(fc.integer({ min: 100, max: 339 }), fc.integer({ min: 3, max: 18 })).map(([x, dy]) => ({
    x,
    y: 100 + 40 * i + dy,
  }));
/** Steps that leave the focus where it is: reads, refusals, writes that were never sent. */
const harmless: fc.Arbitrary<EarlierStep> = fc.constantFrom<EarlierStep>(
  { action: { action: 'wait', seconds: 1 }, outcome: 'sent' },
  { action: { action: 'scroll', x: 5, y: 5, direction: 'down', amount: 3 }, outcome: 'sent' },
  { action: { action: 'key', key: 'End' }, outcome: 'sent' },
  { action: { action: 'key', key: 'Tab' }, outcome: 'refused' },
  { action: { action: 'click', x: 5, y: 900 }, outcome: 'rejected' },
  { action: { action: 'type', text: '0000' }, outcome: 'refused' },
);
const typed = (text: string): fc.Arbitrary<EarlierStep> =>
  fc.constantFrom('sent', 'sent_after_approval').map((outcome) => ({
    action: { action: 'type', text },
    outcome,
  }));
const clicked = (at: { x: number; y: number }): EarlierStep => ({
  action: { action: 'click', ...at },
  outcome: 'sent',
});

/** Something that often is an action and often is almost one. */
const field = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -10, max: 2500 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const keySpelling = fc.oneof(
  fc.constantFrom(
    ...Object.values(defaults.key_aliases).flat(),
    ...Object.values(defaults.modifier_aliases).flat(),
    ...BASE_KEYS,
    ...MODIFIERS,
  ),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const keyString = fc
  .tuple(
    fc.array(fc.mixedCase(keySpelling), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('+', '-', ' ', ' + ', '_', ''),
  )
  .map(([parts, sep]) => parts.join(sep));
const coordinate = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -10, max: 2500 }) },
  { weight: 1, arbitrary: field },
);
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
/** One generator per action, mostly well-formed, sometimes with a wrong value or a stray field. */
const perAction: fc.Arbitrary<Record<string, unknown>>[] = [
  fc.record({
    action: fc.constantFrom('click', 'double_click'),
    x: coordinate,
    y: coordinate,
    target: optional(fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null), field)),
  }),
  fc.record({
    action: fc.constant('type'),
    text: fc.oneof(fc.string({ unit: 'binary', maxLength: 600 }), field),
  }),
  fc.record({
    action: fc.constant('key'),
    key: fc.oneof({ weight: 5, arbitrary: keyString }, field),
  }),
  fc.record({
    action: fc.constant('scroll'),
    x: coordinate,
    y: coordinate,
    direction: fc.oneof(fc.constantFrom('up', 'down', 'left', 'right', 'UP', ' Left '), field),
    amount: optional(fc.oneof(fc.integer({ min: 0, max: 11 }), field)),
  }),
  fc.record({
    action: fc.constant('wait'),
    seconds: fc.oneof(fc.double({ min: 0, max: 12, noNaN: true }), field),
  }),
  fc.record({
    action: fc.constant('done'),
    summary: fc.oneof(fc.string({ maxLength: 50 }), field),
  }),
  fc.record({ action: fc.constant('fail'), reason: fc.oneof(fc.string({ maxLength: 50 }), field) }),
];
const actionish = fc.oneof(
  { weight: 10, arbitrary: fc.oneof(...perAction) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.oneof(...perAction), fc.string({ maxLength: 8 }), field)
      .map(([a, k, v]) => ({ ...a, [k]: v })),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        action: fc.oneof(fc.constantFrom(...ACTION_NAMES), fc.jsonValue({ maxDepth: 1 })),
        x: field,
        text: field,
        key: field,
      },
      { requiredKeys: [] },
    ),
  },
);

/** A word as OCR reads one: letters, digits, punctuation, any confidence. */
const ocrWord = fc.record({
  text: fc.oneof(
    fc.stringMatching(/^[A-Za-zÄÖÜäöüß0-9.,:()[\]|©-]{1,12}$/),
    fc.string({ maxLength: 8 }),
  ),
  confidence: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100 })),
});
/** What OCR may answer: words, or why it has none. */
const reading: fc.Arbitrary<OcrReading> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ words: fc.array(ocrWord, { maxLength: 5 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      unreadable: fc.constantFrom<OcrFailure>('no_text', 'failed', 'timed_out'),
    }),
  },
);
const LETTER = /\p{L}/u;

describe('properties of the action rules', () => {
  it('the parser never throws, whatever JSON value it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), actionish), (value) => {
        const r = parseAction(value);
        expect(typeof r.ok).toBe('boolean');
        if (!r.ok) expect(r.reason.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('the parser never throws on any text, JSON or not', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string({ unit: 'binary' }),
          actionish.map((a) => JSON.stringify(a)),
        ),
        (text) => {
          const r = parseAction(text);
          expect(typeof r.ok).toBe('boolean');
        },
      ),
      RUNS,
    );
  });

  it('checkAction never throws, even on values JSON cannot hold', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withNullPrototype: true }),
        (v) => {
          expect(['read', 'write', 'invalid']).toContain(
            checkAction(v, SCREEN, rules).classification,
          );
        },
      ),
      RUNS,
    );
  });

  it('every action the parser accepts parses again to itself, and validation is idempotent', () => {
    let accepted = 0;
    fc.assert(
      fc.property(actionish, (value) => {
        const parsed = parseAction(value);
        if (!parsed.ok) return;
        accepted++;
        const again = parseAction(JSON.parse(JSON.stringify(parsed.action)));
        expect(again).toEqual(parsed);
        const valid = validate(parsed.action, SCREEN, rules);
        if (!valid.ok) return;
        expect(validate(valid.action, SCREEN, rules)).toEqual(valid);
        expect(['read', 'write']).toContain(classify(valid.action, {}, rules).kind);
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(RUNS.numRuns / 10);
  });

  it('a click whose label contains a committing verb is never a read', () => {
    const separator = fc.constantFrom(
      ' ',
      '(',
      ') ',
      ': ',
      ' - ',
      '/',
      '…',
      '\n',
      '_',
      '"',
      '[',
      '.',
      '!',
    );
    const affix = fc.option(fc.string({ unit: 'grapheme', maxLength: 20 }), { nil: '' });
    const verb = fc
      .tuple(fc.constantFrom(...rules.commitWords), fc.boolean())
      .map(([w, plain]) => (plain ? w.normalize('NFD').replace(/\p{M}/gu, '') : w));
    const label = fc
      .tuple(affix, separator, fc.mixedCase(verb), separator, affix)
      .map(([a, s1, v, s2, b]) => `${a}${s1}${v}${s2}${b}`);
    const other = fc.option(fc.string({ maxLength: 20 }), { nil: null });
    fc.assert(
      fc.property(
        label,
        fc.constantFrom<keyof Labels>('outline', 'ocr', 'target'),
        fc.record({ outline: other, ocr: fc.option(reading, { nil: null }), target: other }),
        fc.constantFrom('click' as const, 'double_click' as const),
        anyRules,
        fc.boolean(),
        fc.integer({ min: 0, max: 100 }),
        (l, source, labels, name, rulesName, outlineServed, confidence) => {
          const r = RULES[rulesName];
          const action: Action = { action: name, x: 1, y: 1 };
          // However unsure OCR was of it, a verb it read counts.
          const value = source === 'ocr' ? { words: [{ text: l, confidence }] } : l;
          const c = classify(action, { ...labels, outlineServed, [source]: value }, r);
          expect(c.kind).toBe('write');
        },
      ),
      RUNS,
    );
  });

  it('without an outline, a click is a read only on a sure OCR label of three letters or more, naming no verb', () => {
    fc.assert(
      fc.property(
        reading,
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        anyRules,
        (ocr, target, rulesName) => {
          const r = RULES[rulesName];
          const action: Action = { action: 'click', x: 1, y: 1, target };
          const c = classify(action, { ocr }, r);
          if (c.kind !== 'read') return;
          // Every condition of docs/rules.md, checked here from the reading itself.
          expect('words' in ocr).toBe(true);
          const ws = (ocr as { words: { text: string; confidence: number }[] }).words;
          const text = ws.map((w) => w.text).join(' ');
          for (const w of ws) {
            if (LETTER.test(w.text))
              expect(w.confidence).toBeGreaterThanOrEqual(r.ocrMinConfidence);
          }
          expect(text.match(/\p{L}/gu)?.length ?? 0).toBeGreaterThanOrEqual(3);
          expect(findCommitWord(text, r.commitIndex)).toBeNull();
          expect(findNearMiss(text, r.commitNear)).toBeNull();
          if (target) expect(findCommitWord(target, r.commitIndex)).toBeNull();
          expect(c.why).toMatch(/\(read from the screen by OCR\): no committing verb$/);
        },
      ),
      RUNS,
    );
  });

  it('what OCR could not read is never a read, unless the agent weakened it and the host serves an outline', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('no_text', 'failed', 'timed_out'),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        anyRules,
        fc.boolean(),
        (failure, target, rulesName, outlineServed) => {
          const r = RULES[rulesName];
          const action: Action = { action: 'click', x: 1, y: 1, target };
          const ocr = { unreadable: failure } as OcrReading;
          const c = classify(action, { ocr, outlineServed }, r);
          const verb = findCommitWord(target ?? '', r.commitIndex) !== null;
          expect(c.kind).toBe(r === lenient && outlineServed && !verb ? 'read' : 'write');
          if (!verb) expect(c.why).toContain('nothing could read its label');
        },
      ),
      RUNS,
    );
  });

  it('a committing verb of five letters or more that OCR misread by one edit is still a write', () => {
    // Edits with letters that cannot fold into something else (ae, oe, ue become a, o, u).
    const letter = fc.constantFrom(...'bdfghjklmnpqrstvwxyz');
    const edited = fc
      .tuple(
        fc.constantFrom(
          // A chord (`Ctrl+S`) is a key's name, not a word OCR misreads by a letter.
          ...rules.commitWords.filter(
            (w) => words(w).join(' ').replace(/ /g, '').length >= 5 && !w.includes('+'),
          ),
        ),
        fc.constantFrom('insert', 'delete', 'replace', 'rn', 'split'),
        fc.nat(),
        letter,
      )
      .map(([verb, edit, at, c]) => {
        const w = words(verb).join(' ');
        const i = at % w.length;
        const out =
          edit === 'insert'
            ? w.slice(0, i) + c + w.slice(i)
            : edit === 'delete'
              ? w.slice(0, i) + w.slice(i + 1)
              : edit === 'replace'
                ? w.slice(0, i) + c + w.slice(i + 1)
                : edit === 'rn'
                  ? w.replace('m', 'rn')
                  : w.slice(0, i) + ' ' + w.slice(i);
        return { verb, out };
      })
      .filter(({ out }) => fold(out) === out && words(out).length > 0);
    const affix = fc.constantFrom('', 'Button ', '[7 ', '© ', 'Bitte ');
    fc.assert(
      fc.property(
        edited,
        affix,
        fc.integer({ min: 0, max: 100 }),
        anyRules,
        ({ out }, before, confidence, rulesName) => {
          const r = RULES[rulesName];
          const ocr = { words: `${before}${out}`.split(' ').map((text) => ({ text, confidence })) };
          expect(classify({ action: 'click', x: 1, y: 1 }, { ocr }, r).kind).toBe('write');
          // The outline and the target are never misread: there only whole words count.
          if (findCommitWord(out, r.commitIndex) === null) {
            const outline = classify({ action: 'click', x: 1, y: 1 }, { outline: out }, r);
            expect(outline.kind).toBe('read');
          }
        },
      ),
      RUNS,
    );
  });

  it("the model's target only ever makes a click stricter", () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ maxLength: 20 }), { nil: null }),
        fc.option(reading, { nil: null }),
        fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...rules.commitWords)),
        anyRules,
        fc.boolean(),
        (outline, ocr, target, rulesName, outlineServed) => {
          const r = RULES[rulesName];
          const bare: Action = { action: 'click', x: 1, y: 1 };
          const without = classify(bare, { outline, ocr, outlineServed }, r);
          const given = classify(bare, { outline, ocr, outlineServed, target }, r);
          const own = classify({ ...bare, target }, { outline, ocr, outlineServed }, r);
          for (const c of [given, own]) {
            if (without.kind === 'write') expect(c.kind).toBe('write');
            if (findCommitWord(target, r.commitIndex) === null) expect(c).toEqual(without);
          }
        },
      ),
      RUNS,
    );
  });

  it('text is never typed into a field whose label names a password, PIN, TAN, code, OTP or CVV', () => {
    const separator = fc.constantFrom(' ', '', ': ', '(', ') ', ' - ', '*', '\n');
    const secret = fc
      .tuple(fc.constantFrom(...rules.secretFields.list), fc.boolean())
      .map(([w, plain]) => (plain ? w.normalize('NFD').replace(/\p{M}/gu, '') : w));
    const label = fc
      .tuple(
        fc.constantFrom('', 'Neues', 'Your', 'SMS'),
        separator,
        fc.mixedCase(secret),
        separator,
      )
      .map(([a, s1, w, s2]) => `${a}${a ? ' ' : ''}${s1}${w}${s2}`);
    fc.assert(
      fc.property(
        label,
        fc.constantFrom('focus', 'marked', 'ocr'),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 100 }),
        (l, where, text, confidence) => {
          const field = {
            id: 'f',
            role: 'textbox',
            name: l,
            rect: { x: 0, y: 0, width: 9, height: 9 },
          };
          const screen: ScreenContext =
            where === 'focus'
              ? { ...SCREEN, focus: field }
              : where === 'marked'
                ? { ...SCREEN, outline: [{ ...field, focused: true }] }
                : { ...SCREEN, focusLabel: { words: [{ text: l, confidence }] } };
          const verdict = checkAction({ action: 'type', text }, screen, rules);
          expect(verdict.classification).toBe('invalid');
        },
      ),
      RUNS,
    );
  });

  it('a type is never a read', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), fc.boolean(), (text, isStrict) => {
        const r = isStrict ? strict : rules;
        expect(classify({ action: 'type', text }, {}, r).kind).toBe('write');
        expect(checkAction({ action: 'type', text }, SCREEN, r).classification).not.toBe('read');
      }),
      RUNS,
    );
  });

  it('no key outside the navigation and commit lists is ever accepted', () => {
    const allowed = new Set([...rules.navigationKeys, ...rules.commitKeys]);
    fc.assert(
      fc.property(fc.oneof(keyString, fc.string({ unit: 'binary', maxLength: 20 })), (key) => {
        const v = validate({ action: 'key', key }, SCREEN, rules);
        if (v.ok && v.action.action === 'key') expect(allowed.has(v.action.key)).toBe(true);
        const verdict = checkAction({ action: 'key', key }, SCREEN, rules);
        if (verdict.action?.action === 'key') expect(allowed.has(verdict.action.key)).toBe(true);
      }),
      RUNS,
    );
  });

  it('key normalisation is idempotent and canonical', () => {
    const canonical = new RegExp(
      `^(Ctrl\\+)?(Alt\\+)?(Shift\\+)?(Meta\\+)?(${BASE_KEYS.join('|')})$|^(${MODIFIERS.join('|')})$`,
    );
    fc.assert(
      fc.property(fc.oneof(keyString, fc.string({ unit: 'binary', maxLength: 20 })), (input) => {
        const k = normaliseKey(input, rules);
        if (k === null) return;
        expect(k).toMatch(canonical);
        expect(normaliseKey(k, rules)).toBe(k);
      }),
      RUNS,
    );
  });

  it('a card number in typed text is always refused, and masking hides it', () => {
    const words = fc.stringMatching(/^[A-Za-zäöü .,:;]{0,30}$/);
    fc.assert(
      fc.property(words, grouped, words, (before, c, after) => {
        const verdict = checkAction(
          { action: 'type', text: `${before} ${c} ${after}` },
          SCREEN,
          rules,
        );
        expect(verdict.classification).toBe('invalid');
        expect(verdict.why).toContain('card number');
        expect(containsCardNumber(maskCardNumbers(`${before} ${c} ${after}`))).toBe(false);
      }),
      RUNS,
    );
  });

  it('a card number split into 2–4 pieces typed into one field is refused at the last piece', () => {
    const run = split.chain((pieces) =>
      fc.record({
        pieces: fc.constant(pieces),
        // Each piece after a click somewhere in the same field, or after none; reads in between.
        steps: fc.tuple(
          ...pieces.map((p) =>
            fc.tuple(
              fc.option(inField(0), { nil: null }),
              fc.array(harmless, { maxLength: 2 }),
              typed(p),
            ),
          ),
        ),
        first: inField(0),
        outline: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(run, ({ pieces, steps, first, outline }) => {
        const history: EarlierStep[] = [clicked(first)];
        steps.forEach(([click, reads, step], i) => {
          if (click) history.push(clicked(click));
          history.push(...reads);
          if (i < pieces.length - 1) history.push(step);
        });
        const screen = outline ? FORM : { ...FORM, outline: null };
        const before = typedSinceFocus(history, screen.outline);
        const last = pieces[pieces.length - 1];
        const verdict = checkAction(
          { action: 'type', text: last },
          { ...screen, typed: before },
          rules,
        );
        expect(verdict.classification).toBe('invalid');
        expect(verdict.why).toContain('card number');
        // Recorded masked: the piece adds no digit to the ones recorded before.
        const recorded = (verdict.recorded as { text: string }).text;
        expect(recorded).toBe(last.replace(/\d/g, '•'));
      }),
      RUNS,
    );
  });

  it('the same pieces typed into different fields are judged each on its own', () => {
    const run = split.chain((pieces) =>
      fc.record({
        pieces: fc.constant(pieces),
        points: fc.tuple(...pieces.map((_, i) => inField(i))),
        reads: fc.array(harmless, { maxLength: 2 }),
        outline: fc.boolean(),
        byTab: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(run, ({ pieces, points, reads, outline, byTab }) => {
        const screen = outline ? FORM : { ...FORM, outline: null };
        const history: EarlierStep[] = [];
        pieces.forEach((piece, i) => {
          // The focus moves to the next field: by a click on it, or (after the first) by Tab.
          if (byTab && i > 0)
            history.push({ action: { action: 'key', key: 'Tab' }, outcome: 'sent' });
          else history.push(clicked(points[i]));
          history.push(...reads);
          const before = typedSinceFocus(history, screen.outline);
          const alone = checkAction({ action: 'type', text: piece }, screen, rules);
          const verdict = checkAction(
            { action: 'type', text: piece },
            { ...screen, typed: before },
            rules,
          );
          expect(verdict).toEqual(alone);
          history.push({ action: { action: 'type', text: piece }, outcome: 'sent' });
        });
      }),
      RUNS,
    );
  });
});
