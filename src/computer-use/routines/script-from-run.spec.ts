/**
 * A completed run as a script: which steps are kept, elements over points, a `when` per screen
 * title, typed values named as parameters (also in titles, names and the summary), secret fields
 * never saved, and what cannot be saved named.
 */
import { loadRules, type LabelEvidence } from '../actions';
import { checkScript } from '../planning/check-script';
import { type RecordedStep, scriptFromRun } from './script-from-run';

const rules = loadRules();
const field = (name: string): LabelEvidence => ({
  source: 'outline',
  element: { id: name, role: 'textbox', name },
  of: 'field',
});
const clicked = (role: string, name: string): LabelEvidence => ({
  source: 'outline',
  element: { id: name, role, name },
  of: 'click',
});
const INITIAL = 'Change Sales Order: Initial Screen';
const step = (n: number, fields: Partial<RecordedStep>): RecordedStep => ({
  n,
  action: null,
  outcome: 'sent',
  labelEvidence: null,
  screenTitle: INITIAL,
  ...fields,
});

const RUN: RecordedStep[] = [
  step(1, {
    action: { action: 'click', x: 250, y: 110 },
    labelEvidence: clicked('textbox', 'Order'),
  }),
  step(2, {
    action: { action: 'type', text: '4711' },
    outcome: 'sent_after_approval',
    labelEvidence: field('Order'),
  }),
  step(3, { action: { action: 'key', key: 'Enter' }, outcome: 'screen_changed' }),
  step(4, { action: { action: 'key', key: 'Enter' }, outcome: 'sent_after_approval' }),
  step(5, { action: { action: 'explode' }, outcome: 'refused' }),
  step(6, {
    action: { action: 'wait', seconds: 1 },
    screenTitle: 'Change Standard Order 4711: Overview',
  }),
  step(7, {
    action: { action: 'click', x: 640, y: 400 },
    labelEvidence: { source: 'none', why: 'OCR: no_text', of: 'click' },
    screenTitle: 'Change Standard Order 4711: Overview',
  }),
  step(8, { action: { action: 'type', text: '4711' }, outcome: 'rejected' }),
  step(9, {
    action: { action: 'done', summary: 'order 4711 saved' },
    outcome: 'ended',
    screenTitle: null,
  }),
];

describe('scriptFromRun', () => {
  it('keeps the sent actions, aims at elements, waits for each screen, names the parameters', () => {
    const built = scriptFromRun(RUN, { order: '4711' }, rules);
    expect(built).toEqual({
      ok: true,
      from: [1, 2, 4, 7, 9],
      script: {
        parameters: ['order'],
        steps: [
          {
            step: 'run step 1',
            when: { text: '^Change Sales Order: Initial Screen$' },
            action: { action: 'click', element: { role: 'textbox', name: 'Order' } },
          },
          {
            step: 'run step 2',
            when: { text: '^Change Sales Order: Initial Screen$' },
            action: { action: 'type', text: '{{order}}' },
          },
          {
            step: 'run step 4',
            when: { text: '^Change Sales Order: Initial Screen$' },
            action: { action: 'key', key: 'Enter' },
          },
          {
            step: 'run step 7',
            when: { text: '^Change Standard Order {{order}}: Overview$' },
            action: { action: 'click', x: 640, y: 400 },
          },
          { step: 'run step 9', action: { action: 'done', summary: 'order {{order}} saved' } },
        ],
      },
    });
    if (!built.ok) return;
    expect(checkScript(built.script)).toMatchObject({ ok: true });
  });

  it('escapes a title for its pattern', () => {
    const built = scriptFromRun(
      [
        step(1, { action: { action: 'key', key: 'Enter' }, screenTitle: 'Display (1.2) [x]' }),
        step(2, { action: { action: 'done', summary: 'ok' }, outcome: 'ended' }),
      ],
      {},
      rules,
    );
    expect(built.ok && built.script.steps[0].when).toEqual({
      text: '^Display \\(1\\.2\\) \\[x\\]$',
    });
  });

  it('never saves what was typed into a secret field, not even as a parameter', () => {
    const run = [
      step(1, { action: { action: 'type', text: 'hunter2' }, labelEvidence: field('Password') }),
      step(2, { action: { action: 'done', summary: 'ok' }, outcome: 'ended' }),
    ];
    for (const params of [{}, { pw: 'hunter2' }] as Array<Record<string, string>>) {
      expect(scriptFromRun(run, params, rules)).toEqual({
        ok: false,
        error: expect.stringMatching(/^step 1 typed into "Password", a field for a .*never saved/),
      });
    }
  });

  it('never saves typing that went on after a Tab where it could reach a secret field, or where nothing says', () => {
    const typed = (text: string, reached?: LabelEvidence['reached']) => [
      step(1, {
        action: { action: 'type', text },
        outcome: 'sent_after_approval',
        labelEvidence: { ...field('Command field'), ...(reached ? { reached } : {}) },
      }),
      step(2, { action: { action: 'done', summary: 'ok' }, outcome: 'ended' }),
    ];
    const cmd = { id: 'okcd', role: 'textbox', name: 'Command field' };
    const never = 'what is typed there is never saved, in a script or a parameter';
    // Recorded before Warden judged what text after a Tab reaches: nothing says where it went.
    expect(scriptFromRun(typed('\tOld-Pass-1\tNew-Pass-2'), {}, rules)).toEqual({
      ok: false,
      error: `step 1 typed text that goes on after a Tab (character 1), and the run did not record which fields that text could reach: it may be a secret, and ${never}`,
    });
    const password = {
      id: 'cur',
      role: 'textbox',
      name: 'Current Password',
      password: true as const,
    };
    expect(scriptFromRun(typed('\tx', [cmd, password]), {}, rules)).toEqual({
      ok: false,
      error: `step 1 typed text that goes on after a Tab (character 1), which could reach "Current Password", a password field: ${never}`,
    });
    const pin = { id: 'pin', role: 'textbox', name: 'PIN' };
    expect(scriptFromRun(typed('4711\t1234', [cmd, pin]), {}, rules)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^step 1 .*could reach "PIN", a field for a PIN: /),
    });
    // Text after a newline went to a screen nobody saw: never recorded, never saved.
    expect(scriptFromRun(typed('4711\nx', [cmd]), {}, rules)).toMatchObject({ ok: false });
    // Every field it could reach recorded, none secret; and a Tab with nothing after it.
    const date = { id: 'date', role: 'textbox', name: 'Req. Deliv. Date' };
    for (const [text, reached] of [
      ['4711\t30.04.2026', [cmd, date]],
      ['4711\t', undefined],
    ] as const) {
      const built = scriptFromRun(typed(text, reached && [...reached]), {}, rules);
      expect(built.ok && built.script.steps[0].action).toEqual({ action: 'type', text });
    }
  });

  it('refuses a value the run never typed, and a run without done', () => {
    expect(scriptFromRun(RUN, { order: '9999' }, rules)).toEqual({
      ok: false,
      error: 'parameter order: "9999" is not text the run typed',
    });
    expect(scriptFromRun(RUN.slice(0, 4), {}, rules)).toEqual({
      ok: false,
      error: 'the run has no done step: only a run that answered done is saved',
    });
  });
});
