/**
 * ScriptedPlanner at run time: the cursor, `done` at the end, elements resolved to their centre,
 * `when` re-checked through `look()`, patience, the screen decided on, and the abort signal.
 */
import { checkAction, loadRules, type OutlineElement } from '../actions';
import { checkScript } from './check-script';
import type { ObservedScreen, PlanningContext, PlanResult } from '../planner-contract/planner';
import type { Script } from './script.types';
import { centreOf, findElement, ScriptedPlanner } from './scripted-planner';

const el = (
  role: string,
  name: string,
  x: number,
  y: number,
  width = 100,
  height = 22,
): OutlineElement => ({ id: `${role}-${name}`, role, name, rect: { x, y, width, height } });

const MENU: OutlineElement[] = [
  el('textbox', 'Command field', 42, 55, 196, 22),
  el('button', 'Save', 252, 52, 28, 28),
  el('title', 'SAP Easy Access', 16, 90),
];
const ORDER: OutlineElement[] = [
  ...MENU.slice(0, 2),
  el('title', 'Change Sales Order: Initial Screen', 16, 90),
  el('label', 'Order', 24, 172),
  el('textbox', 'Order', 200, 172, 110, 22),
];
const SAVED: OutlineElement[] = [
  ...ORDER,
  el('statusbar', 'Sales order 4711 has been saved', 0, 772, 1280, 28),
];

let shotCounter = 0;
function screen(outline: OutlineElement[] | null, sha?: string): ObservedScreen {
  shotCounter += 1;
  return {
    sha256: sha ?? shotCounter.toString(16).padStart(64, '0'),
    pixelSha256: shotCounter.toString(16).padStart(64, 'f'),
    width: 1280,
    height: 800,
    png: Buffer.from('png'),
    outline,
  };
}

function script(value: unknown): Script {
  const result = checkScript(value);
  if (!result.ok) throw new Error(result.error);
  return result.script;
}

interface Harness {
  context: PlanningContext;
  looks: () => number;
  controller: AbortController;
}

/** A context whose `look()` answers the given screens in turn (the last one again when they run out). */
function harness(
  first: ObservedScreen,
  later: ObservedScreen[] = [],
  state: unknown = null,
): Harness {
  let calls = 0;
  const controller = new AbortController();
  const context: PlanningContext = {
    tenant: 'acme',
    runId: 'run-1',
    agent: 'sap-orders',
    goal: 'change 4711',
    system: 'SAP GUI',
    screenTokenEnv: null,
    step: 1,
    screen: first,
    history: [],
    state,
    look: async () => {
      calls += 1;
      return later[Math.min(calls - 1, later.length - 1)] ?? first;
    },
    signal: controller.signal,
  };
  return { context, looks: () => calls, controller };
}

const fast = { pollMs: 1 };

describe('ScriptedPlanner: the cursor', () => {
  const planner = new ScriptedPlanner(
    script({
      steps: [
        { action: { action: 'key', key: 'Enter' } },
        { action: { action: 'type', text: '4711' } },
        { action: { action: 'wait', seconds: 1 } },
      ],
    }),
    fast,
  );

  it('starts at the first step when the run has no state yet, and stores the next index', async () => {
    const { context } = harness(screen(MENU));
    expect(await planner.plan(context)).toEqual({
      action: { action: 'key', key: 'Enter' },
      state: { next: 1 },
      plannedBy: 'script',
    });
  });

  it('goes on from the state it stored', async () => {
    const { context } = harness(screen(MENU), [], { next: 1 });
    expect(await planner.plan(context)).toEqual({
      action: { action: 'type', text: '4711' },
      state: { next: 2 },
      plannedBy: 'script',
    });
  });

  it('does a step again when its action met a changed screen and was not sent', async () => {
    const { context } = harness(screen(MENU), [], { next: 2 });
    const earlier = { action: { action: 'type', text: '4711' }, classification: 'write' as const };
    const past = { why: null, error: null, screen_sha256: null };
    context.history = [{ n: 1, ...earlier, outcome: 'screen_changed', ...past }];
    expect(await planner.plan(context)).toEqual({
      action: { action: 'type', text: '4711' },
      state: { next: 2 },
      plannedBy: 'script',
    });
    context.history = [{ n: 1, ...earlier, outcome: 'sent', ...past }];
    expect(await planner.plan(context)).toEqual({
      action: { action: 'wait', seconds: 1 },
      state: { next: 3 },
      plannedBy: 'script',
    });
  });

  it("fails naming the step, and plans no further one, when Warden refused the script's last step", async () => {
    const labelled = new ScriptedPlanner(
      script({
        steps: [
          { action: { action: 'key', key: 'Enter' } },
          { step: 'the password', action: { action: 'type', text: '\tOld-Pass-1' } },
          { action: { action: 'key', key: 'Enter' } },
        ],
      }),
      fast,
    );
    const { context } = harness(screen(MENU), [], { next: 2 });
    context.history = [
      {
        n: 2,
        action: { action: 'type', text: '\t••••••••••' },
        classification: 'invalid',
        why: 'the text holds a Tab (character 1) with more text after it, …',
        outcome: 'refused',
        error: null,
        screen_sha256: null,
      },
    ];
    expect(await labelled.plan(context)).toEqual({
      action: {
        action: 'fail',
        reason:
          'steps[1] (step "the password") was refused by Warden\'s rules (the text holds a Tab (character 1) with more text after it, …), so the script stops there',
      },
      state: { next: 2 },
      plannedBy: 'script',
    });
    // A step the application refused (sent, then its E message) is no refusal of Warden's rules,
    // nor a write whose send the agent's changed config stopped.
    context.history[0] = { ...context.history[0], outcome: 'refused_by_application' };
    expect(await labelled.plan(context)).toMatchObject({ action: { action: 'key', key: 'Enter' } });
    context.history[0] = { ...context.history[0], classification: 'write', outcome: 'refused' };
    expect(await labelled.plan(context)).toMatchObject({ action: { action: 'key', key: 'Enter' } });
  });

  it('walks the whole script, then answers done "script finished" (and keeps answering it)', async () => {
    const answers: PlanResult[] = [];
    let state: unknown = null;
    for (let i = 0; i < 5; i++) {
      const result = await planner.plan(harness(screen(MENU), [], state).context);
      answers.push(result);
      state = result.state;
    }
    expect(answers.map((a) => a.action)).toEqual([
      { action: 'key', key: 'Enter' },
      { action: 'type', text: '4711' },
      { action: 'wait', seconds: 1 },
      { action: 'done', summary: 'script finished' },
      { action: 'done', summary: 'script finished' },
    ]);
    expect(answers.map((a) => a.state)).toEqual([
      { next: 1 },
      { next: 2 },
      { next: 3 },
      { next: 3 },
      { next: 3 },
    ]);
  });

  it.each([[{ next: -1 }], [{ next: 4 }], [{ next: 1.5 }], [{ next: '1' }], [[1]], ['x']])(
    'fails rather than guessing when the state is not one it stored: %j',
    async (state) => {
      const result = await planner.plan(harness(screen(MENU), [], state).context);
      expect(result.action).toEqual({
        action: 'fail',
        reason: 'the scripted planner lost its place: its state is not one it stored',
      });
    },
  );

  it('does not change the script it was given', async () => {
    const s = script({
      steps: [{ action: { action: 'click', element: { role: 'button', name: 'Save' } } }],
    });
    const before = JSON.stringify(s);
    await new ScriptedPlanner(s, fast).plan(harness(screen(MENU)).context);
    expect(JSON.stringify(s)).toBe(before);
  });
});

describe('ScriptedPlanner: elements', () => {
  it('computes the centre in integers: x + floor(width / 2), y + floor(height / 2)', () => {
    expect(centreOf(el('button', 'b', 10, 20, 7, 5))).toEqual({ x: 13, y: 22 });
    expect(centreOf(el('button', 'b', 0, 0, 1, 1))).toEqual({ x: 0, y: 0 });
    expect(centreOf(el('button', 'b', 252, 52, 28, 28))).toEqual({ x: 266, y: 66 });
  });

  it('matches role and name exactly and case-sensitively, first in outline order', () => {
    const outline = [
      el('label', 'Order', 1, 1),
      el('textbox', 'order', 2, 2),
      el('textbox', 'Order ', 3, 3),
      el('textbox', 'Order', 4, 4),
      el('textbox', 'Order', 5, 5),
    ];
    expect(findElement(outline, { role: 'textbox', name: 'Order' })?.rect.x).toBe(4);
    expect(findElement(outline, { role: 'Textbox', name: 'Order' })).toBeNull();
  });

  it('skips an element whose rect is unusable', () => {
    const broken = {
      id: 'b',
      role: 'button',
      name: 'Save',
      rect: { x: 'a' },
    } as unknown as OutlineElement;
    expect(
      findElement([broken, el('button', 'Save', 9, 9)], { role: 'button', name: 'Save' })?.rect.x,
    ).toBe(9);
  });

  it('clicks the centre of the element, with its name as the target', async () => {
    const planner = new ScriptedPlanner(
      script({
        steps: [{ action: { action: 'click', element: { role: 'textbox', name: 'Order' } } }],
      }),
      fast,
    );
    const { context, looks } = harness(screen(ORDER));
    const result = await planner.plan(context);
    expect(result).toEqual({
      action: { action: 'click', x: 255, y: 183, target: 'Order' },
      state: { next: 1 },
      plannedBy: 'script',
    });
    expect(looks()).toBe(0);
    // What it answers passes the same rules as a model's answer, on the screen it was chosen on.
    const verdict = checkAction(result.action, context.screen, loadRules());
    // A read: the outline marks "Order" a text field, and its name as the target says no more.
    expect(verdict.classification).toBe('read');
    expect(verdict.why).toBe(
      'click on “Order” (a text field in the screen outline): focusing a field is a read',
    );
    expect(verdict.action).toEqual({ action: 'click', x: 255, y: 183, target: 'Order' });
  });

  it('keeps a target the script gave, and scrolls with direction and amount', async () => {
    const planner = new ScriptedPlanner(
      script({
        steps: [
          {
            action: {
              action: 'double_click',
              element: { role: 'button', name: 'Save' },
              target: 'Sichern',
            },
          },
          {
            action: {
              action: 'scroll',
              element: { role: 'textbox', name: 'Order' },
              direction: 'down',
              amount: 2,
            },
          },
        ],
      }),
      fast,
    );
    const first = await planner.plan(harness(screen(ORDER)).context);
    expect(first.action).toEqual({ action: 'double_click', x: 266, y: 66, target: 'Sichern' });
    const second = await planner.plan(harness(screen(ORDER), [], first.state).context);
    expect(second.action).toEqual({
      action: 'scroll',
      x: 255,
      y: 183,
      direction: 'down',
      amount: 2,
    });
  });

  it('leaves the target out when the element name is too long to be one', async () => {
    const name = 'n'.repeat(201);
    const planner = new ScriptedPlanner(
      script({ steps: [{ action: { action: 'click', element: { role: 'listitem', name } } }] }),
      fast,
    );
    const result = await planner.plan(
      harness(screen([el('listitem', name, 0, 300, 900, 24)])).context,
    );
    expect(result.action).toEqual({ action: 'click', x: 450, y: 312 });
  });

  it('looks again until the element appears, and answers on the screen it found it on', async () => {
    const planner = new ScriptedPlanner(
      script({
        steps: [{ action: { action: 'click', element: { role: 'textbox', name: 'Order' } } }],
      }),
      fast,
    );
    const later = [screen(MENU), screen(MENU), screen(ORDER), screen(SAVED)];
    const { context, looks } = harness(screen(MENU), later);
    const result = await planner.plan(context);
    expect(looks()).toBe(3);
    expect(result.action).toEqual({ action: 'click', x: 255, y: 183, target: 'Order' });
    expect(result.screen).toBe(later[2]);
  });

  it('fails naming the step when the element never appears', async () => {
    const planner = new ScriptedPlanner(
      script({
        patience: 3,
        steps: [
          { action: { action: 'key', key: 'Enter' } },
          {
            step: 'order',
            action: { action: 'click', element: { role: 'textbox', name: 'Order' } },
          },
        ],
      }),
      fast,
    );
    const last = screen(MENU);
    const { context, looks } = harness(screen(MENU), [screen(MENU), screen(MENU), last], {
      next: 1,
    });
    const result = await planner.plan(context);
    expect(result).toEqual({
      action: {
        action: 'fail',
        reason: 'steps[1] (step "order") waited 3 times for element textbox "Order"',
      },
      state: { next: 2 },
      plannedBy: 'script',
      screen: last,
    });
    expect(looks()).toBe(3);
  });

  it('looks again while the host gives no outline, then fails naming the step', async () => {
    const planner = new ScriptedPlanner(
      script({
        steps: [
          { step: 7, action: { action: 'click', element: { role: 'button', name: 'Save' } } },
        ],
      }),
      fast,
    );
    const { context, looks } = harness(screen(null));
    expect((await planner.plan(context)).action).toEqual({
      action: 'fail',
      reason:
        "steps[0] (step 7) needs the screen host's element outline (GET /elements), and the host gave none in 11 looks",
    });
    expect(looks()).toBe(10);
  });

  it('acts once the outline is back: a host that had none for a moment', async () => {
    const planner = new ScriptedPlanner(
      script({
        steps: [{ action: { action: 'click', element: { role: 'button', name: 'Save' } } }],
      }),
      fast,
    );
    const { context, looks } = harness(screen(null), [
      screen(null),
      screen([el('button', 'Save', 10, 10, 20, 10)]),
    ]);
    expect((await planner.plan(context)).action).toMatchObject({ action: 'click', x: 20, y: 15 });
    expect(looks()).toBe(2);
  });
});

describe('ScriptedPlanner: when', () => {
  const saveWhenSaved = (patience?: number, stepPatience?: number) =>
    new ScriptedPlanner(
      script({
        ...(patience === undefined ? {} : { patience }),
        steps: [
          { action: { action: 'key', key: 'Enter' } },
          { action: { action: 'key', key: 'Enter' } },
          { action: { action: 'key', key: 'Enter' } },
          {
            when: { text: 'saved' },
            ...(stepPatience === undefined ? {} : { patience: stepPatience }),
            action: { action: 'done', summary: 'saved' },
          },
        ],
      }),
      fast,
    );

  it('acts at once when the condition already holds, without looking again', async () => {
    const { context, looks } = harness(screen(SAVED), [], { next: 3 });
    const result = await saveWhenSaved().plan(context);
    expect(result).toEqual({
      action: { action: 'done', summary: 'saved' },
      state: { next: 4 },
      plannedBy: 'script',
    });
    expect(result.screen).toBeUndefined();
    expect(looks()).toBe(0);
  });

  it('polls through look() until the outline changes after N calls, and returns that screen', async () => {
    const changed = screen(SAVED);
    const { context, looks } = harness(
      screen(ORDER),
      [screen(ORDER), screen(ORDER), screen(ORDER), screen(ORDER), changed],
      { next: 3 },
    );
    const result = await saveWhenSaved().plan(context);
    expect(looks()).toBe(5);
    expect(result).toEqual({
      action: { action: 'done', summary: 'saved' },
      state: { next: 4 },
      plannedBy: 'script',
      screen: changed,
    });
  });

  it('gives up after the default patience of 10 looks, naming the step and what it waited for', async () => {
    const last = screen(ORDER);
    const { context, looks } = harness(
      screen(ORDER),
      [...Array.from({ length: 9 }, () => screen(ORDER)), last],
      {
        next: 3,
      },
    );
    const result = await saveWhenSaved().plan(context);
    expect(result).toEqual({
      action: { action: 'fail', reason: 'steps[3] waited 10 times for text /saved/' },
      state: { next: 4 },
      plannedBy: 'script',
      screen: last,
    });
    expect(looks()).toBe(10);
  });

  it("uses the script's patience, and a step's own over it", async () => {
    const a = harness(screen(ORDER), [], { next: 3 });
    expect((await saveWhenSaved(2).plan(a.context)).action).toEqual({
      action: 'fail',
      reason: 'steps[3] waited 2 times for text /saved/',
    });
    expect(a.looks()).toBe(2);
    const b = harness(screen(ORDER), [], { next: 3 });
    expect((await saveWhenSaved(2, 4).plan(b.context)).action).toEqual({
      action: 'fail',
      reason: 'steps[3] waited 4 times for text /saved/',
    });
    expect(b.looks()).toBe(4);
  });

  it('with patience 0 checks only the screen it was given', async () => {
    const { context, looks } = harness(screen(ORDER), [], { next: 3 });
    expect((await saveWhenSaved(0).plan(context)).action).toEqual({
      action: 'fail',
      reason: 'steps[3] did not see text /saved/ and has patience 0',
    });
    expect(looks()).toBe(0);
  });

  it('tests the regular expression against each name on its own', async () => {
    const planner = new ScriptedPlanner(
      script({
        steps: [
          { when: { text: '^Order$' }, patience: 0, action: { action: 'done', summary: 'ok' } },
        ],
      }),
      fast,
    );
    expect((await planner.plan(harness(screen(ORDER)).context)).action).toEqual({
      action: 'done',
      summary: 'ok',
    });
    expect((await planner.plan(harness(screen(MENU)).context)).action).toMatchObject({
      action: 'fail',
    });
  });

  it('matches patterns that backtrack catastrophically in JavaScript against a hostile screen', async () => {
    const hostile = [
      el('statusbar', 'a'.repeat(5000), 0, 772, 1280, 28),
      el('label', '1'.repeat(5000), 0, 700),
    ];
    for (const text of ['(a|aa)*c', '(a+)+$', '(\\w|\\d)*x', 'a*a*a*a*a*a*b']) {
      const planner = new ScriptedPlanner(
        script({
          steps: [{ when: { text }, patience: 0, action: { action: 'done', summary: 'ok' } }],
        }),
        fast,
      );
      const { action } = await planner.plan(harness(screen(hostile)).context);
      expect(action).toEqual(
        text === '(a+)+$'
          ? { action: 'done', summary: 'ok' }
          : { action: 'fail', reason: `steps[0] did not see text /${text}/ and has patience 0` },
      );
    }
  });

  it('fails the step, never acting, on a stored pattern RE2 cannot run', async () => {
    // Saved before Warden matched with RE2: checkScript refuses it now, so the script is built by hand.
    const stored: Script = {
      steps: [
        { action: { action: 'key', key: 'Tab' } },
        { when: { text: 'Order(?! saved)' }, action: { action: 'key', key: 'Enter' } },
      ],
    };
    const planner = new ScriptedPlanner(stored, fast);
    const { context, looks } = harness(screen(ORDER), [], { next: 1 });
    expect(await planner.plan(context)).toEqual({
      action: {
        action: 'fail',
        reason: expect.stringMatching(
          /^steps\[1\] cannot match when\.text "Order\(\?! saved\)": a lookahead \(\(\?=…\) or \(\?!…\)\) cannot be used: Warden matches patterns with RE2/,
        ),
      },
      state: { next: 2 },
      plannedBy: 'script',
    });
    expect(looks()).toBe(0);
  });

  it('waits for an element, then for the action element, on the same screen', async () => {
    const planner = new ScriptedPlanner(
      script({
        steps: [
          {
            when: { element: { role: 'statusbar', name: 'Sales order 4711 has been saved' } },
            action: { action: 'click', element: { role: 'textbox', name: 'Order' } },
          },
        ],
      }),
      fast,
    );
    const { context, looks } = harness(screen(MENU), [screen(ORDER), screen(SAVED)]);
    const result = await planner.plan(context);
    expect(looks()).toBe(2);
    expect(result.action).toEqual({ action: 'click', x: 255, y: 183, target: 'Order' });
  });

  it('waits for a screen by its SHA-256, without needing an outline', async () => {
    const target = 'c'.repeat(64);
    const planner = new ScriptedPlanner(
      script({
        steps: [
          { when: { screen_sha256: target.toUpperCase() }, action: { action: 'key', key: 'F3' } },
        ],
      }),
      fast,
    );
    const seen = screen(null, target);
    const { context, looks } = harness(screen(null), [screen(null), seen]);
    const result = await planner.plan(context);
    expect(result).toEqual({
      action: { action: 'key', key: 'F3' },
      state: { next: 1 },
      plannedBy: 'script',
      screen: seen,
    });
    expect(looks()).toBe(2);
    const patient = harness(screen(null), [], null);
    const failing = new ScriptedPlanner(
      script({
        patience: 1,
        steps: [{ when: { screen_sha256: target }, action: { action: 'key', key: 'F3' } }],
      }),
      fast,
    );
    expect((await failing.plan(patient.context)).action).toEqual({
      action: 'fail',
      reason: `steps[0] waited 1 times for screen ${target}`,
    });
  });

  it('looks every 500 ms by default', async () => {
    jest.useFakeTimers();
    try {
      const planner = new ScriptedPlanner(
        script({
          steps: [{ when: { text: 'saved' }, action: { action: 'done', summary: 'saved' } }],
        }),
      );
      const { context, looks } = harness(screen(ORDER), [screen(ORDER), screen(SAVED)]);
      const answer = planner.plan(context);
      await jest.advanceTimersByTimeAsync(499);
      expect(looks()).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(looks()).toBe(1);
      await jest.advanceTimersByTimeAsync(500);
      expect(looks()).toBe(2);
      expect((await answer).action).toEqual({ action: 'done', summary: 'saved' });
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('ScriptedPlanner: the abort signal', () => {
  const waiting = () =>
    new ScriptedPlanner(
      script({ steps: [{ when: { text: 'never' }, action: { action: 'done', summary: 'x' } }] }),
      { pollMs: 20 },
    );

  it('rejects at once with the reason when the signal is already aborted, without looking', async () => {
    const { context, controller, looks } = harness(screen(ORDER));
    const reason = new Error('run cancelled');
    controller.abort(reason);
    await expect(waiting().plan(context)).rejects.toBe(reason);
    expect(looks()).toBe(0);
  });

  it('stops waiting between looks when the signal aborts', async () => {
    const { context, controller, looks } = harness(screen(ORDER));
    const reason = new Error('kill switch');
    const answer = waiting().plan(context);
    setTimeout(() => controller.abort(reason), 50);
    await expect(answer).rejects.toBe(reason);
    const seen = looks();
    expect(seen).toBeGreaterThanOrEqual(1);
    expect(seen).toBeLessThan(10);
    await new Promise((r) => setTimeout(r, 60));
    expect(looks()).toBe(seen);
  });

  it('stops waiting for a slow look when the signal aborts', async () => {
    const { context, controller } = harness(screen(ORDER));
    let timer: NodeJS.Timeout | undefined;
    context.look = () =>
      new Promise<ObservedScreen>((resolve) => {
        timer = setTimeout(() => resolve(screen(SAVED)), 5000);
      });
    const answer = waiting().plan(context);
    setTimeout(() => controller.abort(), 40);
    try {
      await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      clearTimeout(timer);
    }
  });

  it('passes on an error from look()', async () => {
    const { context } = harness(screen(ORDER));
    const failure = new Error('screen host down');
    context.look = () => Promise.reject(failure);
    await expect(waiting().plan(context)).rejects.toBe(failure);
  });
});

describe('ScriptedPlanner: the content it plans by', () => {
  const va02 = script({
    parameters: ['order'],
    steps: [
      { when: { text: '^SAP Easy Access$' }, action: { action: 'type', text: '/nVA02' } },
      { action: { action: 'type', text: '{{order}}' }, patience: 2 },
    ],
  });

  it('is the hash of its script, whatever the key order, and the same after a JSON round trip', () => {
    const planner = new ScriptedPlanner(va02);
    expect(planner.scriptSha256).toMatch(/^[0-9a-f]{64}$/);
    const reordered = JSON.parse(JSON.stringify({ steps: va02.steps, parameters: ['order'] }));
    expect(new ScriptedPlanner(reordered).scriptSha256).toBe(planner.scriptSha256);
  });

  it('is another hash for other steps', () => {
    const other = script({
      ...va02,
      steps: [...va02.steps, { action: { action: 'key', key: 'F11' } }],
    });
    expect(new ScriptedPlanner(other).scriptSha256).not.toBe(
      new ScriptedPlanner(va02).scriptSha256,
    );
  });
});
