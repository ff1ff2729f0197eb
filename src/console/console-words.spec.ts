/**
 * What the approver sees is what is sent (docs/security.md): the console's words for typed text, from
 * the browser's own modules (browser/words.ts and its neighbours). The console e2e test shows the
 * same in a real browser.
 */
import fc from 'fast-check';
import { describeChange, type Change } from '../computer-use/actions';
import type { StepOutcome } from '../computer-use/runs/step.entity';
import {
  changeInWords,
  changesHeading,
  decisionSentence,
  isUnchanged,
  openedInWords,
  whyBesideChanges,
} from './browser/change-words';
import { eventInWords } from './browser/event-words';
import type { Change as ConsoleChange, StagedEdit } from './browser/api-types';
import type { Mark } from './browser/typed-words';
import {
  actionInWords,
  approvalInWords,
  charName,
  exactJson,
  marked,
  modelInWords,
  outcomeInWords,
  receiptInWords,
  saidNothingChanged,
  shown,
  stepOutcomeInWords,
  typedPieces,
} from './browser/words';

const marks = (text: string) => typedPieces(text).filter((p): p is Mark => typeof p !== 'string');

describe('typed text in the console', () => {
  it('keeps ordinary text as it is, in one piece', () => {
    expect(typedPieces('Müller & Söhne, 4711 שלום 😀')).toEqual(['Müller & Söhne, 4711 שלום 😀']);
    expect(typedPieces('')).toEqual([]);
  });

  it('shows tab, newline and carriage return as marks a reader knows', () => {
    expect(typedPieces('a\tb\r\nc')).toEqual([
      'a',
      { mark: '⇥', name: 'tab', char: '\t', newline: false },
      'b',
      { mark: '␍', name: 'carriage return', char: '\r', newline: false },
      { mark: '↵', name: 'newline', char: '\n', newline: true },
      'c',
    ]);
  });

  it.each([
    ['\u200b', '⟨U+200B ZERO WIDTH SPACE⟩'],
    ['\u200d', '⟨U+200D ZERO WIDTH JOINER⟩'],
    ['\u2060', '⟨U+2060 WORD JOINER⟩'],
    ['\ufeff', '⟨U+FEFF ZERO WIDTH NO-BREAK SPACE⟩'],
    ['\u202e', '⟨U+202E RIGHT-TO-LEFT OVERRIDE⟩'],
    ['\u2067', '⟨U+2067 RIGHT-TO-LEFT ISOLATE⟩'],
    ['\u200f', '⟨U+200F RIGHT-TO-LEFT MARK⟩'],
    ['\u061c', '⟨U+061C ARABIC LETTER MARK⟩'],
    ['\u0000', '⟨U+0000 NULL⟩'],
    ['\u001b', '⟨U+001B ESCAPE⟩'],
    ['\u007f', '⟨U+007F DELETE⟩'],
    ['\u0085', '⟨U+0085 NEXT LINE⟩'],
    ['\u0090', '⟨U+0090 CONTROL⟩'],
    ['\u2028', '⟨U+2028 LINE SEPARATOR⟩'],
    ['\u00a0', '⟨U+00A0 NO-BREAK SPACE⟩'],
    ['\u3000', '⟨U+3000 IDEOGRAPHIC SPACE⟩'],
    ['\u00ad', '⟨U+00AD SOFT HYPHEN⟩'],
    ['\u3164', '⟨U+3164 HANGUL FILLER⟩'],
    ['\ufe0f', '⟨U+FE0F VARIATION SELECTOR-16⟩'],
    ['\u{e0041}', '⟨U+E0041 TAG A⟩'],
    ['\u{e0020}', '⟨U+E0020 TAG SPACE⟩'],
    ['\ue000', '⟨U+E000⟩'],
    ['\ud800', '⟨U+D800⟩'],
  ])('names %j as %s', (char, mark) => {
    expect(typedPieces(`x${char}y`)).toEqual([
      'x',
      { mark, name: mark.slice(1, -1), char, newline: false },
      'y',
    ]);
  });

  it('names a character once per occurrence, keeping the order', () => {
    expect(marked('\u200b\u200ba\u202e')).toBe(
      '⟨U+200B ZERO WIDTH SPACE⟩⟨U+200B ZERO WIDTH SPACE⟩a⟨U+202E RIGHT-TO-LEFT OVERRIDE⟩',
    );
  });

  it('leaves out nothing and adds nothing but marks (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const pieces = typedPieces(text);
        // Every piece of text is the text's own; every mark stands for exactly one character.
        let rebuilt = '';
        for (const p of pieces) {
          if (typeof p === 'string') {
            expect(p).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u);
            rebuilt += p;
          } else {
            expect([...p.char]).toHaveLength(1);
            expect(p.mark).toMatch(/^(⇥|↵|␍|⟨U\+[0-9A-F]{4,6}( [^⟨⟩\s][^⟨⟩]*)?⟩)$/u);
            rebuilt += p.char;
          }
        }
        expect(rebuilt).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('says a type action in full, however long, with its marks', () => {
    const long = `${'Lieferung an Rampe 3, '.repeat(20)}\tEnde`;
    expect(actionInWords({ action: 'type', text: long })).toBe(`Type “${long.replace('\t', '⇥')}”`);
    expect(actionInWords({ action: 'type', text: 'a\nb' })).toBe('Type “a↵b”');
    // Labels and summaries are not typed: they may still be shortened.
    expect(shown('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('writes the exact action as JSON with nothing invisible in it', () => {
    const action = { action: 'type', text: 'a\u202eb\u200b\u00a0\u{e0041}\t' };
    const json = exactJson(action);
    expect(json).toBe('{"action":"type","text":"a\\u202eb\\u200b\\u00a0\\udb40\\udc41\\t"}');
    expect(JSON.parse(json)).toEqual(action);
    expect(charName('\u{e007f}')).toBe('U+E007F CANCEL TAG');
  });

  it('marks every character the protocol refuses, and no letter, digit or plain space', () => {
    expect(
      marks('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c'),
    ).toHaveLength(12);
    expect(marks('\u200b\u200c\u200d\u2060\ufeff')).toHaveLength(5);
    expect(marks('Aa0 ß€')).toEqual([]);
  });
});

describe('outcomes and change lists in the console', () => {
  /** Every outcome a step can have, in the console's words: the compiler keeps this list whole. */
  const OUTCOMES: Record<StepOutcome, string> = {
    sent: 'sent',
    held: 'held for approval',
    sent_after_approval: 'sent after approval',
    staged: 'staged until the commit',
    stale: 'not sent: the screen had changed',
    rejected: 'rejected: not sent',
    refused: 'refused as invalid: not sent',
    ended: 'ended with the run',
    screen_changed: 'not sent: the screen changed before it could act; planned again',
    refused_by_application: 'sent; the application refused it',
  };

  it.each(Object.entries(OUTCOMES))('says the outcome %s as “%s”', (outcome, words) => {
    expect(outcomeInWords(outcome)).toBe(words);
  });

  it('says the decision in one sentence, in the system’s words, without the point on the screen', () => {
    const save = { action: 'click', x: 266, y: 66, target: 'Save' };
    const change = (field: string, before: string | null, after: string, check: string) => ({
      field,
      before,
      after,
      read_back: check === 'same' ? after : null,
      read_back_check: check,
      step: 1,
      rect: null,
    });
    const date = change('Req. Deliv. Date', '15.03.2026', '30.04.2026', 'same');
    const order = change('Order', '', '4711', 'earlier');
    const say = (changes: unknown[]) =>
      decisionSentence({
        system: 'SAP GUI (sim)',
        action: save,
        why: 'click on “Save” (from the screen outline)',
        changes: changes as ConsoleChange[],
      });
    // The server told the order number apart as navigation: it is what the page opened with.
    expect(say([{ ...order, kind: 'navigation' }, date])).toBe(
      'SAP GUI (sim) · Click “Save” stores Req. Deliv. Date “15.03.2026” → “30.04.2026” (opened with Order “4711”)',
    );
    // Where it could not tell, a field typed on an earlier screen is a change the Save may store.
    expect(say([order, date])).toBe(
      'SAP GUI (sim) · Click “Save” stores Order “” → “4711”; Req. Deliv. Date “15.03.2026” → “30.04.2026”',
    );
    expect(decisionSentence({ system: null, action: save, why: null, changes: null })).toBe(
      'Click “Save”',
    );
    // The same value again stores nothing: said so, not as “30.04.2026” → “30.04.2026”.
    const same = change('Req. Deliv. Date', '30.04.2026', '30.04.2026', 'same');
    expect(isUnchanged(same as ConsoleChange)).toBe(true);
    expect(isUnchanged(date as ConsoleChange)).toBe(false);
    expect(say([{ ...order, kind: 'navigation' }, same])).toBe(
      'SAP GUI (sim) · Click “Save” stores Req. Deliv. Date “30.04.2026” (unchanged) (opened with Order “4711”)',
    );
    // A click on nothing labelled names no point on the screen either.
    expect(
      decisionSentence({ system: null, action: { action: 'click', x: 5, y: 6 }, why: null }),
    ).toBe('Click a point on the screen');
    expect(
      decisionSentence({
        system: 'GnuCash',
        action: { action: 'type', text: 'Coffee' },
        why: null,
      }),
    ).toBe('GnuCash · Type “Coffee”');
  });

  it('says what a held typing does to its field: replaces it, fills it, or is added to it', () => {
    const field = { label: 'Req. Deliv. Date', id: 'd', rect: null, at: null };
    const typing = { action: 'type', text: '30.04.2026' };
    const say = (edit: Record<string, unknown>) =>
      decisionSentence({
        system: 'SAP GUI (sim)',
        action: typing,
        why: null,
        edit: { field, text: '30.04.2026', ...edit } as StagedEdit,
      });
    expect(say({ before: '15.03.2026', selected: true })).toBe(
      'SAP GUI (sim) · Type into Req. Deliv. Date “15.03.2026” → “30.04.2026”',
    );
    expect(say({ before: '' })).toBe(
      'SAP GUI (sim) · Type into Req. Deliv. Date (empty) → “30.04.2026”',
    );
    // Nothing says the content is selected: the text goes in beside it, at the cursor.
    expect(say({ before: '15.03.2026' })).toBe(
      'SAP GUI (sim) · Type into Req. Deliv. Date “15.03.2026”, “30.04.2026” added at the cursor',
    );
    expect(say({ before: null })).toBe(
      'SAP GUI (sim) · Type into Req. Deliv. Date (its value not read): “30.04.2026” replaces or is added to it',
    );
  });

  it('names the people of a held write: who decided, the comment, who resumed', () => {
    const at = '2026-03-15T10:02:00.000Z';
    const base = { id: 'a1', decided_at: at, resumed_at: null, resumed_by: null, comment: null };
    expect(approvalInWords(undefined)).toBeNull();
    expect(
      approvalInWords({ ...base, status: 'pending', decided_by: null, decided_at: null }),
    ).toBe('waiting for a decision');
    expect(approvalInWords({ ...base, status: 'approved', decided_by: 'bob' })).toMatch(
      /^approved by bob at 2026-03-15 \d\d:02:00; not resumed yet$/,
    );
    expect(
      approvalInWords({
        ...base,
        status: 'spent',
        decided_by: 'bob',
        comment: 'checked',
        resumed_by: 'olga',
        resumed_at: at,
      }),
    ).toMatch(/^approved by bob at [\d-]+ [\d:]+ \(“checked”\); resumed by olga at [\d-]+ [\d:]+$/);
    expect(approvalInWords({ ...base, status: 'rejected', decided_by: 'eve' })).toMatch(
      /^rejected by eve at [\d-]+ [\d:]+$/,
    );
    expect(
      approvalInWords({ ...base, status: 'expired', decided_by: null, decided_at: null }),
    ).toBe('expired: nobody decided in time');
  });

  it('says on whose authority a write went in the audit view', () => {
    const write = (details: Record<string, unknown>) =>
      eventInWords({ type: 'computer_use.write', details });
    expect(write({ approved_by: 'bob', resumed_by: 'olga' })).toBe(
      'approved by bob, resumed by olga',
    );
    expect(write({ staged: true, without_approval: 'staged until the commit' })).toBe(
      'staged, no approval (commit-point approval)',
    );
    expect(write({ without_approval: 'require_write_approval is off for this agent' })).toBe(
      'no approval: require_write_approval is off for this agent',
    );
    // Other events are not given an authority they do not carry.
    expect(eventInWords({ type: 'approval.decided', details: { decision: 'approved' } })).toBe(
      'approved',
    );
  });

  it('says a decision was made in a chat, and why a chat press decided nothing', () => {
    expect(
      eventInWords({ type: 'approval.decided', details: { decision: 'approved', via: 'slack' } }),
    ).toBe('approved · in Slack');
    expect(
      eventInWords({ type: 'approval.decided', details: { decision: 'rejected', via: 'console' } }),
    ).toBe('rejected');
    expect(
      eventInWords({
        type: 'approval.chat_refused',
        details: {
          decision: 'approve',
          via: 'teams',
          refused: 'late',
          message: 'approval 1 is already approved',
        },
      }),
    ).toBe('approve · in Teams · not decided (late): approval 1 is already approved');
  });

  it('says what was weakened, whose token was made, and on which screen a decision was taken', () => {
    expect(
      eventInWords({
        type: 'governance.weaken',
        details: {
          agent: 'sap-orders',
          control: 'approve_at',
          from: 'every_write',
          to: 'commit',
          reason: 'one decision per change',
        },
      }),
    ).toBe('agent “sap-orders”: approve_at "every_write" → "commit" · one decision per change');
    expect(
      eventInWords({
        type: 'governance.weaken',
        details: {
          agent: 'a',
          control: 'screen_rules',
          from: [],
          to: [{ title: '^X$', keys: { Enter: 'read' } }],
          entries: ['now a read: key Enter on titles matching “^X$”'],
          reason: 'navigates',
        },
      }),
    ).toBe(
      'agent “a”: screen_rules [0 entries] → [1 entry] · now a read: key Enter on titles matching “^X$” · navigates',
    );
    expect(
      eventInWords({
        type: 'token.created',
        details: { token_id: 't1', subject: 'bob', permissions: ['agents.approve', 'audit.read'] },
      }),
    ).toBe('a token for “bob”, who may approve held writes, read the audit log');
    expect(
      eventInWords({
        type: 'approval.decided',
        details: { decision: 'approved', screen_sha256: 'ab'.repeat(32), comment: 'ok' },
      }),
    ).toBe('approved on screen abababababab… · comment “ok”');
  });

  it('says what the application answered a write, or why nothing was read', () => {
    const saved = {
      source: 'status' as const,
      type: 'S',
      text: 'Standard Order 4711 has been saved',
    };
    expect(receiptInWords({ before: null, message: saved, fresh: true })).toBe(
      'success (S) “Standard Order 4711 has been saved” in the status bar',
    );
    expect(receiptInWords({ before: saved, message: saved, fresh: false })).toBe(
      'the status bar still showed success (S) “Standard Order 4711 has been saved” from before',
    );
    expect(
      receiptInWords({
        before: null,
        message: { source: 'dialog', type: null, text: 'Save changes' },
        fresh: true,
      }),
    ).toBe('“Save changes” in a dialog');
    expect(receiptInWords({ before: null, none: 'the application showed no message' })).toBe(
      'none: the application showed no message',
    );
    expect(receiptInWords(undefined)).toBeNull();
    expect(
      eventInWords({
        type: 'computer_use.write.receipt',
        details: {
          receipt: {
            message: { source: 'status', type: 'E', text: 'Enter a valid date' },
            fresh: true,
          },
          why: 'the application answered with an error message: Enter a valid date',
        },
      }),
    ).toBe(
      'the application answered with an error message: Enter a valid date · the application said: error (E) “Enter a valid date” in the status bar',
    );
  });

  it('says a staged step is staged until the commit, and into which field', () => {
    const staged = {
      field: { label: 'Req. Deliv. Date', id: 'f1', rect: null, at: null },
      before: null,
      text: null,
    };
    expect(stepOutcomeInWords({ outcome: 'staged', staged })).toBe(
      'staged into “Req. Deliv. Date” until the commit',
    );
    expect(stepOutcomeInWords({ outcome: 'held' })).toBe('held for approval');
  });

  it('says a step that ended with no outcome (an action whose outcome is unknown) is not in progress', () => {
    const ended = '2026-03-15T10:00:00.000Z';
    expect(stepOutcomeInWords({ outcome: null, ended_at: ended })).toBe(
      'ended with no outcome: see its error',
    );
    expect(stepOutcomeInWords({ outcome: null, ended_at: null })).toBe('in progress');
    expect(stepOutcomeInWords({ outcome: 'ended', ended_at: ended })).toBe('ended with the run');
  });

  it('heads a change list with the commit and how many changes it stores', () => {
    const why = 'click on “Save” (from the screen outline); it commits 2 staged changes';
    expect(changesHeading({ action: 'click', x: 1, y: 2 }, why, 2)).toBe(
      'This Save stores 2 changes',
    );
    expect(changesHeading({ action: 'key', key: 'Enter' }, 'key «Enter» commits', 1)).toBe(
      'This Enter stores 1 change',
    );
    expect(changesHeading({ action: 'type', text: 'x\n' }, 'typing', 1)).toBe(
      'This write stores 1 change',
    );
    // Only navigation before it (the order number that opened the order): no typed change.
    expect(changesHeading({ action: 'click', x: 1, y: 2 }, why, 0)).toBe(
      'This Save stores no typed change',
    );
    // Every change leaves its field as it was.
    expect(changesHeading({ action: 'click', x: 1, y: 2 }, why, 0, 1)).toBe(
      'This Save stores no change: the values are as they were',
    );
    // Beside the list, the why does not count the changes again.
    expect(whyBesideChanges(why, [{} as ConsoleChange])).toBe(
      'click on “Save” (from the screen outline)',
    );
    expect(whyBesideChanges(why, [])).toBe(why);
  });

  it('tells an application’s “no data changed” from any other answer', () => {
    const said = (text: string, fresh = true) =>
      saidNothingChanged({
        before: null,
        message: { type: 'I', text, source: 'status' },
        fresh,
      });
    expect(said('No data was changed')).toBe(true);
    expect(said('Es wurden keine Daten geändert')).toBe(true);
    expect(said('Sales order 4711 has been saved')).toBe(false);
    // A message left from before the write is no answer to it.
    expect(said('No data was changed', false)).toBe(false);
    expect(saidNothingChanged({ before: null, none: 'no status bar' })).toBe(false);
  });

  it('says a navigation line as what it opened, in grey words', () => {
    const line = (field: string): Change => ({
      field,
      before: '',
      after: '4711',
      read_back: null,
      read_back_check: 'earlier',
      step: 5,
      rect: null,
      kind: 'navigation',
    });
    expect(openedInWords(line('Order'))).toBe('opened order 4711');
    expect(openedInWords(line('Sales Document'))).toBe('opened sales document 4711');
    expect(openedInWords(line('PO Number'))).toBe('opened PO number 4711');
  });

  const change = (c: Partial<Change>): Change => ({
    field: 'Req. Deliv. Date',
    before: '15.03.2026',
    after: '30.04.2026',
    read_back: '30.04.2026',
    read_back_check: 'same',
    step: 8,
    rect: null,
    ...c,
  });

  it.each([
    ['read back as typed', change({})],
    ['read back otherwise', change({ after: '300426', read_back_check: 'differs' })],
    [
      'not read back',
      change({ field: 'Order', before: '', read_back: null, read_back_check: 'unread' }),
    ],
    [
      'typed on an earlier screen',
      change({ field: 'Order', before: '', read_back: null, read_back_check: 'earlier' }),
    ],
    [
      'navigation',
      change({
        field: 'Order',
        before: '',
        read_back: null,
        read_back_check: 'earlier',
        kind: 'navigation',
      }),
    ],
    [
      'changed without a typed edit',
      change({ before: null, after: null, read_back: 'PO-999', read_back_check: 'unexplained' }),
    ],
    ['before not read', change({ before: null })],
    ['only Backspace', change({ after: null, read_back: '30.04.202' })],
  ])('says a change (%s) as the protocol does', (_, c) => {
    expect(changeInWords(c)).toBe(describeChange(c));
  });

  it('says a change in full, its invisible characters marked, where the protocol shortens', () => {
    const long = `${'x'.repeat(100)}\u00a0`;
    expect(changeInWords(change({ after: long, read_back: long }))).toBe(
      `Req. Deliv. Date: “15.03.2026” → “${'x'.repeat(100)}⟨U+00A0 NO-BREAK SPACE⟩”`,
    );
  });
});

describe('a step’s planner in the console', () => {
  it('gives a model’s tokens and time', () => {
    expect(
      modelInWords({
        provider: 'anthropic',
        model: 'claude-x',
        input_tokens: 1200,
        output_tokens: null,
        latency_ms: 1400,
        calls: 1,
      }),
    ).toBe('anthropic claude-x · 1200 in / unknown out tokens · 1.4 s');
  });

  it('gives a planner that asks no model its id, its time in ms and its notes', () => {
    expect(
      modelInWords({
        provider: 'navigator',
        model: 'navigator-2026-11-10-normal',
        input_tokens: 0,
        output_tokens: 0,
        latency_ms: 2,
        calls: 0,
        notes: 'energy … lowest first: 0.395 "VA03 - Display Sales Order"',
      }),
    ).toBe(
      'navigator-2026-11-10-normal, no model call · 2 ms · energy … lowest first: 0.395 "VA03 - Display Sales Order"',
    );
    expect(modelInWords(undefined)).toBe('no model call (scripted planner)');
  });
});
