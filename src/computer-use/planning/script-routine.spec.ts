/**
 * Routine runs in the scripted planner: parameters filled in (texts, element names, patterns, as
 * values never as patterns), the run's parameters checked, and the fallback: asked only when a
 * step's `when` did not hold, told what the script expected, the cursor kept until the screen is
 * back, and never allowed to end the run as done while steps remain.
 */
import type { OutlineElement } from '../actions';
import type {
  ObservedScreen,
  Planner,
  PlanningContext,
  PlanResult,
} from '../planner-contract/planner';
import { checkScript } from './check-script';
import { checkRunParams, fillPattern, fillText, goalWithParams } from './script-params';
import type { Script } from './script.types';
import { ScriptedPlanner } from './scripted-planner';

const el = (role: string, name: string, x = 10, y = 10): OutlineElement => ({
  id: `${role}-${name}`,
  role,
  name,
  rect: { x, y, width: 100, height: 20 },
});
const INITIAL = [
  el('title', 'Change Sales Order: Initial Screen'),
  el('textbox', 'Order', 200, 100),
];
const OVERVIEW = (order: string) => [
  el('title', `Change Standard Order ${order}: Overview`),
  el('textbox', 'Req. Deliv. Date', 300, 200),
];
const POPUP = [el('title', 'Information'), el('button', 'Close', 400, 400)];

let shots = 0;
const screen = (outline: OutlineElement[]): ObservedScreen => ({
  sha256: (++shots).toString(16).padStart(64, '0'),
  pixelSha256: shots.toString(16).padStart(64, 'f'),
  width: 1280,
  height: 800,
  png: Buffer.from('png'),
  outline,
});

function script(value: unknown): Script {
  const checked = checkScript(value);
  if (!checked.ok) throw new Error(checked.error);
  return checked.script;
}

function context(
  first: ObservedScreen,
  options: { state?: unknown; params?: Record<string, string>; later?: ObservedScreen[] } = {},
): PlanningContext {
  let calls = 0;
  return {
    tenant: 'acme',
    runId: 'run-1',
    agent: 'sap-orders',
    goal: 'change the date (parameters: order = "4712")',
    system: 'SAP GUI',
    screenTokenEnv: null,
    step: 1,
    screen: first,
    history: [],
    state: options.state ?? null,
    params: options.params ?? null,
    look: async () => {
      const later = options.later ?? [];
      calls += 1;
      return later[Math.min(calls - 1, later.length - 1)] ?? first;
    },
    signal: new AbortController().signal,
  };
}

/** A fallback that answers `answer` and remembers what it was asked. */
function fallback(answer: unknown): Planner & { asked: PlanningContext[] } {
  const asked: PlanningContext[] = [];
  return {
    asked,
    plan: async (ctx): Promise<PlanResult> => {
      asked.push(ctx);
      return {
        action: answer,
        state: { model: 'kept' },
        model: {
          provider: 'anthropic',
          model: 'm',
          input_tokens: 10,
          output_tokens: 2,
          latency_ms: 5,
        },
      };
    },
  };
}

const ROUTINE = {
  parameters: ['order', 'date'],
  patience: 2,
  steps: [
    {
      step: 'order',
      when: { text: '^Change Sales Order: Initial Screen$' },
      action: { action: 'type', text: '{{order}}' },
    },
    {
      step: 'date',
      when: { text: '^Change Standard Order {{order}}: Overview$' },
      action: { action: 'click', element: { role: 'textbox', name: 'Req. Deliv. Date' } },
    },
    { action: { action: 'type', text: '{{date}}' } },
    { action: { action: 'done', summary: 'order {{order}} now {{date}}' } },
  ],
};
const PARAMS = { order: '4712', date: '15.05.2026' };

describe('script parameters', () => {
  it('fills texts with the value, and patterns with the value escaped', () => {
    expect(fillText('order {{order}}, {{missing}}', { order: '4712' })).toBe(
      'order 4712, {{missing}}',
    );
    expect(fillPattern('^Order {{order}}$', { order: '1.2*(3)' })).toBe('^Order 1\\.2\\*\\(3\\)$');
  });

  it('checks a run’s parameters: each given, no other, plain values, naming the parameter', () => {
    expect(checkRunParams(['order', 'date'], PARAMS)).toEqual({ ok: true, params: PARAMS });
    expect(checkRunParams(['order', 'date'], { order: '1' })).toEqual({
      ok: false,
      error: 'parameter date is missing: the script needs order, date',
    });
    expect(checkRunParams(['order'], { order: '1', plant: '2' })).toMatchObject({
      ok: false,
      error: 'parameter plant is not a parameter of the script: it has order',
    });
    expect(checkRunParams(['order'], { order: 'a\u202eb' })).toMatchObject({ ok: false });
    expect(checkRunParams(['order'], { order: '' })).toMatchObject({ ok: false });
    expect(checkRunParams(['order'], { order: 'x'.repeat(501) })).toMatchObject({ ok: false });
    expect(checkRunParams(['order'], { order: 4711 })).toMatchObject({ ok: false });
    expect(checkRunParams([], undefined)).toEqual({ ok: true, params: {} });
  });

  // Every format character (Unicode Cf) and every bidi control, as in typed text and goals.
  it.each([
    ['\u061c', 'the Arabic letter mark'],
    ['\u00ad', 'the soft hyphen'],
    ['\u200e', 'the left-to-right mark'],
    ['\u2066', 'a bidi isolate'],
    ['\u202e', 'the right-to-left override'],
    ['\u200b', 'the zero-width space'],
    ['\u2063', 'the invisible separator'],
    ['\u{e0041}', 'a tag character'],
    ['\ufeff', 'the byte order mark'],
    ['\t', 'a tab'],
    ['\u0085', 'next line'],
  ])('refuses a value holding %j (%s), naming it', (char) => {
    const checked = checkRunParams(['order'], { order: `47${char}12` });
    expect(checked).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^parameter order must not contain control, invisible or bidirectional characters \(it has .+\)$/,
      ),
    });
  });

  it('takes letters of any script, spaces and punctuation', () => {
    const order = 'Müller & Söhne – طلب ٤٧١٢ (№ 7)';
    expect(checkRunParams(['order'], { order })).toEqual({ ok: true, params: { order } });
  });

  it('names the values in the goal', () => {
    expect(goalWithParams('change it', PARAMS)).toBe(
      'change it (parameters: order = "4712", date = "15.05.2026")',
    );
    expect(goalWithParams('change it', {})).toBe('change it');
  });

  it('checks a script’s parameters and placeholders, naming the step', () => {
    expect(checkScript(ROUTINE)).toMatchObject({ ok: true });
    expect(
      checkScript({
        parameters: ['order'],
        steps: [{ action: { action: 'type', text: '{{plant}}' } }],
      }),
    ).toEqual({
      ok: false,
      error: 'steps[0]: {{plant}} is not a parameter of the script (parameters: order)',
    });
    expect(checkScript({ parameters: ['Order'], steps: ROUTINE.steps })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^parameters\[0\] "Order": /),
    });
    expect(checkScript({ parameters: ['a', 'a'], steps: ROUTINE.steps })).toMatchObject({
      ok: false,
      error: 'parameters[1] "a": named twice',
    });
    // A script without parameters types braces as they are.
    expect(checkScript({ steps: [{ action: { action: 'type', text: '{{x}}' } }] })).toMatchObject({
      ok: true,
    });
  });

  it('checks a fallback: a model planner, never a script or the navigator', () => {
    const { steps, parameters } = ROUTINE;
    expect(
      checkScript({ steps, parameters, fallback: 'anthropic-claude-sonnet-4.5-normal' }),
    ).toMatchObject({
      ok: true,
      script: { fallback: 'anthropic-claude-sonnet-4.5-normal' },
    });
    expect(
      checkScript({ steps, parameters, fallback: 'scripted-6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c' }),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/not a script$/) });
    expect(
      checkScript({ steps, parameters, fallback: 'navigator-2026-11-10-normal' }),
    ).toMatchObject({
      ok: false,
    });
    expect(
      checkScript({ steps, parameters, fallback: { provider: 'anthropic', model: 'x' } }),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^fallback/),
    });
  });
});

describe('ScriptedPlanner with parameters', () => {
  const planner = new ScriptedPlanner(script(ROUTINE), { pollMs: 1 });

  it('types the value and waits for the screen the value names', async () => {
    const first = await planner.plan(context(screen(INITIAL), { params: PARAMS }));
    expect(first.action).toEqual({ action: 'type', text: '4712' });
    const second = await planner.plan(
      context(screen(OVERVIEW('4711')), {
        params: PARAMS,
        state: first.state,
        later: [screen(OVERVIEW('4712'))],
      }),
    );
    expect(second.action).toMatchObject({ action: 'click', target: 'Req. Deliv. Date' });
    expect(second.screen?.outline?.[0].name).toBe('Change Standard Order 4712: Overview');
  });

  it('does not take a value for a pattern: 4.12 does not match 4712', async () => {
    const dotted = await planner.plan(
      context(screen(OVERVIEW('4712')), {
        params: { order: '4.12', date: 'x' },
        state: { next: 1 },
      }),
    );
    expect(dotted.action).toMatchObject({ action: 'fail' });
  });
});

describe('ScriptedPlanner with a fallback', () => {
  it('asks the fallback only when the step’s when did not hold within its patience', async () => {
    const model = fallback({ action: 'click', x: 450, y: 410 });
    const planner = new ScriptedPlanner(script(ROUTINE), { pollMs: 1, fallback: model });
    const ready = await planner.plan(context(screen(INITIAL), { params: PARAMS }));
    expect(ready).toMatchObject({ plannedBy: 'script', state: { next: 1 } });
    expect(model.asked).toHaveLength(0);

    const popup = screen(POPUP);
    const asked = await planner.plan(context(popup, { params: PARAMS, state: { next: 1 } }));
    expect(asked).toMatchObject({
      action: { action: 'click', x: 450, y: 410 },
      plannedBy: 'fallback',
      state: { next: 1, fallback: true, model: { model: 'kept' } },
      model: { input_tokens: 10 },
    });
    expect(model.asked).toHaveLength(1);
    const told = model.asked[0];
    expect(told.goal).toContain('change the date (parameters: order = "4712")');
    expect(told.goal).toContain(
      'steps[1] (step "date") waited for text /^Change Standard Order 4712: Overview$/',
    );
    expect(told.goal).toContain('2. type "15.05.2026"');
    expect(told.goal).toContain('3. done: order 4712 now 15.05.2026');
    expect(told.state).toBeNull();

    // Still not the screen: the fallback again at once, given what it kept.
    const again = await planner.plan(
      context(screen(POPUP), { params: PARAMS, state: asked.state }),
    );
    expect(again.plannedBy).toBe('fallback');
    expect(model.asked[1].state).toEqual({ model: 'kept' });

    // The screen is back: the script takes the step it waited at.
    const back = await planner.plan(
      context(screen(OVERVIEW('4712')), { params: PARAMS, state: asked.state }),
    );
    expect(back).toMatchObject({
      plannedBy: 'script',
      state: { next: 2 },
      action: { action: 'click' },
    });
    expect(model.asked).toHaveLength(2);
  });

  it('asks the fallback again after Warden refused its answer: the model is told why and tries again', async () => {
    const model = fallback({ action: 'click', x: 450, y: 410 });
    const planner = new ScriptedPlanner(script(ROUTINE), { pollMs: 1, fallback: model });
    const ctx = context(screen(POPUP), {
      params: PARAMS,
      state: { next: 1, fallback: true, model: { model: 'kept' } },
    });
    ctx.history = [
      {
        n: 1,
        action: { action: 'key', key: 'Alt+F4' },
        classification: 'invalid',
        why: 'key Alt+F4 is not allowed',
        outcome: 'refused',
        error: null,
        screen_sha256: null,
      },
    ];
    expect(await planner.plan(ctx)).toMatchObject({ plannedBy: 'fallback' });
    expect(model.asked).toHaveLength(1);
  });

  it('turns a fallback’s done into a fail: the script still has steps to take', async () => {
    const planner = new ScriptedPlanner(script(ROUTINE), {
      pollMs: 1,
      fallback: fallback({ action: 'done', summary: 'all done' }),
    });
    const result = await planner.plan(context(screen(POPUP), { params: PARAMS }));
    expect(result).toMatchObject({
      plannedBy: 'fallback',
      action: {
        action: 'fail',
        reason: expect.stringMatching(
          /^the fallback answered done while the script waited at steps\[0\]/,
        ),
      },
    });
  });

  it('without a fallback, fails naming the step, as before', async () => {
    const planner = new ScriptedPlanner(script(ROUTINE), { pollMs: 1 });
    const result = await planner.plan(context(screen(POPUP), { params: PARAMS }));
    expect(result.action).toEqual({
      action: 'fail',
      reason:
        'steps[0] (step "order") waited 2 times for text /^Change Sales Order: Initial Screen$/',
    });
  });
});
