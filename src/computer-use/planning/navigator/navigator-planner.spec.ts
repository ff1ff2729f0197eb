/**
 * The navigator at run time with vectors small enough to follow: the order it presses in, the
 * names it keeps, done after 8 presses or when nothing is left, never a field nor typing, no
 * outline, a press the frame rule stopped, and the energies in its notes.
 */
import fc from 'fast-check';
import { checkAction, loadRules, type OutlineElement } from '../../actions';
import type { ObservedScreen, PlanningContext, StepHistory } from '../../planner-contract/planner';
import { pressableControls } from './controls';
import type { WordVectors } from './word-vectors';
import {
  choose,
  NAVIGATOR_MAX_PRESSES,
  NAVIGATOR_PLANNER_ID,
  NavigatorPlanner,
  notesOf,
  pressedSoFar,
} from './navigator-planner';

const el = (
  role: string,
  name: string,
  x: number,
  y: number,
  extra: Partial<OutlineElement> = {},
): OutlineElement => ({
  id: `${role}-${name}`,
  role,
  name,
  rect: { x, y, width: 100, height: 20 },
  ...extra,
});

function tinyVectors(table: Record<string, number[]>): WordVectors {
  return { dimensions: 3, vector: (w) => (table[w] ? Float64Array.from(table[w]) : null) };
}

// Three directions: showing, changing, keeping.
const VECTORS = tinyVectors({
  open: [1, 0, 0],
  display: [1, 0, 0],
  show: [0.9, 0.1, 0],
  change: [0, 1, 0],
  edit: [0.1, 0.9, 0],
  save: [0, 0, 1],
  order: [0.3, 0.3, 0.3],
  sales: [0.3, 0.3, 0.3],
  the: [0.2, 0.2, 0.2],
  a: [0.2, 0.2, 0.2],
  help: [0.4, 0, 0.5],
});

const MENU: OutlineElement[] = [
  el('textbox', 'Command field', 40, 50),
  el('button', 'Save', 250, 50),
  el('button', 'Help', 480, 50),
  el('listitem', 'VA02 - Change Sales Order', 120, 310),
  el('listitem', 'VA03 - Display Sales Order', 120, 340),
  el('title', 'SAP Easy Access', 16, 90),
];

function screen(outline: OutlineElement[] | null): ObservedScreen {
  return {
    sha256: 'a'.repeat(64),
    pixelSha256: 'b'.repeat(64),
    width: 1280,
    height: 800,
    png: Buffer.from('png'),
    outline,
  };
}

function context(
  outline: OutlineElement[] | null,
  state: unknown = null,
  goal = 'open the display of a sales order',
  history: StepHistory[] = [],
): PlanningContext {
  return {
    tenant: 'acme',
    runId: 'run-1',
    agent: 'sap-orders',
    goal,
    system: 'SAP GUI',
    screenTokenEnv: null,
    step: history.length + 1,
    screen: screen(outline),
    history,
    state,
    look: () => Promise.reject(new Error('the navigator does not look again')),
    signal: new AbortController().signal,
  };
}

const rules = loadRules();
let loads = 0;
const planner = new NavigatorPlanner(() => {
  loads += 1;
  return Promise.resolve(VECTORS);
}, rules);

const centre = (e: OutlineElement) => ({
  x: Math.floor(e.rect.x + e.rect.width / 2),
  y: Math.floor(e.rect.y + e.rect.height / 2),
});

describe('NavigatorPlanner', () => {
  it('presses the control of lowest energy first, at its centre, and keeps its name', async () => {
    const result = await planner.plan(context(MENU));
    expect(result.action).toEqual({
      action: 'click',
      ...centre(MENU[4]),
      target: 'VA03 - Display Sales Order',
    });
    expect(result.state).toEqual({ pressed: ['VA03 - Display Sales Order'] });
  });

  it('goes down the energies, skipping what the run pressed, then answers done', async () => {
    const pressed: string[] = [];
    let state: unknown = null;
    for (let step = 0; step < 10; step++) {
      const result = await planner.plan(context(MENU, state));
      state = result.state;
      const action = result.action as { action: string; target?: string; summary?: string };
      if (action.action === 'done') {
        expect(action.summary).toBe(
          'every control on this screen that it can read has been pressed in this run',
        );
        break;
      }
      pressed.push(action.target!);
    }
    // m = (0.283, 0.183, 0.475): the screen leans to keeping, so what is least like Save comes
    // first. 1 − cos is 0.012 for VA03, 0.643 for VA02, 0.750 for Help, 1.935 for Save.
    expect(pressed).toEqual([
      'VA03 - Display Sales Order',
      'VA02 - Change Sales Order',
      'Help',
      'Save',
    ]);
    expect(state).toEqual({ pressed });
  });

  it('follows the task: changing an order presses VA02 first', async () => {
    const result = await planner.plan(context(MENU, null, 'change a sales order'));
    expect(result.action).toMatchObject({ target: 'VA02 - Change Sales Order' });
  });

  it(`answers done after ${NAVIGATOR_MAX_PRESSES} presses, without reading its vectors`, async () => {
    const before = loads;
    const eight = Array.from({ length: NAVIGATOR_MAX_PRESSES }, (_, i) => `control ${i}`);
    const result = await planner.plan(context(MENU, { pressed: eight }));
    expect(result.action).toEqual({
      action: 'done',
      summary: 'pressed 8 controls, as many as it presses in a run',
    });
    expect(result.state).toEqual({ pressed: eight });
    expect(loads).toBe(before);
    // Seven pressed: one more press.
    const seven = await planner.plan(context(MENU, { pressed: eight.slice(0, 7) }));
    expect(seven.action).toMatchObject({ action: 'click' });
  });

  it('answers done with why when the host serves no outline: it cannot see controls', async () => {
    const result = await planner.plan(context(null));
    expect(result.action).toEqual({
      action: 'done',
      summary:
        'the navigator cannot see controls: the screen host serves no element outline (GET /elements)',
    });
    expect(result.model?.notes).toMatch(/^done: the navigator cannot see controls/);
  });

  it('answers done when the screen has no control it may press', async () => {
    const fields = [el('textbox', 'Order', 200, 170), el('checkbox', 'Display only', 200, 200)];
    const result = await planner.plan(context(fields));
    expect(result.action).toEqual({
      action: 'done',
      summary: 'no control on this screen can be pressed',
    });
  });

  it('answers done when it knows no word of the task', async () => {
    const result = await planner.plan(context(MENU, null, 'VA03 4711'));
    expect(result.action).toMatchObject({ action: 'done' });
    expect((result.action as { summary: string }).summary).toMatch(/knows no word of the task/);
  });

  it('never types and never presses a field or a value control, whatever the screen', async () => {
    const roles = [
      'button',
      'textbox',
      'checkbox',
      'combobox',
      'listitem',
      'tab',
      'label',
      'menuitem',
      'link',
      'radiobutton',
    ];
    const names = ['Save', 'Display order', 'Change', 'Help', 'open', 'Order', 'VA03'];
    const element = fc.record({
      role: fc.constantFrom(...roles),
      name: fc.constantFrom(...names),
      x: fc.integer({ min: 0, max: 1270 }),
      y: fc.integer({ min: 0, max: 790 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(element, { maxLength: 12 }),
        fc.array(fc.constantFrom(...names), { maxLength: 3 }),
        async (els, pressed) => {
          const outline = els.map((e, i) => ({ ...el(e.role, e.name, e.x, e.y), id: `e${i}` }));
          const result = await planner.plan(context(outline, { pressed }));
          const action = result.action as {
            action: string;
            x?: number;
            y?: number;
            target?: string;
          };
          expect(['click', 'done']).toContain(action.action);
          if (action.action !== 'click') return;
          // The element pressed: of that name, with its centre at the point.
          const hit = outline.find((e) => {
            const c = centre(e);
            return e.name === action.target && c.x === action.x && c.y === action.y;
          })!;
          expect(['button', 'listitem', 'tab', 'menuitem', 'link']).toContain(hit.role);
          expect(pressed).not.toContain(action.target);
          // A valid action on this screen, judged by Warden's rules like any planner's.
          const verdict = checkAction(action, { width: 1280, height: 800, outline }, rules);
          expect(verdict.classification).not.toBe('invalid');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('presses again what the frame rule stopped (screen_changed: the host did not press it)', async () => {
    const history: StepHistory[] = [
      {
        n: 1,
        action: { action: 'click', ...centre(MENU[4]) },
        classification: 'write',
        why: 'x',
        outcome: 'screen_changed',
        error: null,
        screen_sha256: null,
      },
    ];
    const state = { pressed: ['VA03 - Display Sales Order'] };
    const result = await planner.plan(context(MENU, state, undefined, history));
    expect(result.action).toMatchObject({ target: 'VA03 - Display Sales Order' });
    expect(result.state).toEqual(state);
  });

  it('fails rather than start over when its state is not one it stores', async () => {
    for (const state of [{ next: 2 }, { pressed: 'Save' }, [1], 'x', { pressed: [1] }]) {
      const result = await planner.plan(context(MENU, state));
      expect(result.action).toEqual({
        action: 'fail',
        reason: 'the navigator lost its place: its state is not one it stored',
      });
    }
  });

  it('thinks aloud: the energies of its five best controls, as a planner that asks no model', async () => {
    const outline = [
      ...MENU,
      el('button', 'Show', 600, 50),
      el('button', 'Edit', 650, 50),
      el('button', 'VA01', 700, 50),
    ];
    const result = await planner.plan(context(outline, { pressed: ['Show'] }));
    expect(result.model).toEqual({
      provider: 'navigator',
      model: NAVIGATOR_PLANNER_ID,
      input_tokens: 0,
      output_tokens: 0,
      latency_ms: expect.any(Number),
      cost_usd: 0,
      calls: 0,
      notes: expect.any(String),
    });
    const notes = result.model!.notes!;
    expect(notes).toMatch(
      /^energy 1 − cos\(task − m, control − m\) over 6 controls, lowest first: (-?\d\.\d{3} "[^"]+"(?: \(pressed\))?, ){4}-?\d\.\d{3} "[^"]+"; no known word in "VA01"; presses "VA03 - Display Sales Order" \(press 2 of 8\)$/,
    );
    expect(notes).toContain('"Show" (pressed)');
    expect(notes).not.toContain('"Save"'); // the sixth
  });

  it('stops waiting when the step is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('killed'));
    await expect(planner.plan({ ...context(MENU), signal: controller.signal })).rejects.toThrow(
      'killed',
    );
  });
});

describe('pressableControls', () => {
  it('keeps command controls, tabs and menu entries that are named, enabled and on the screen', () => {
    const outline = [
      el('button', 'Save', 10, 10),
      el('GuiButton', 'Back', 10, 40),
      el('tab', 'Sales', 10, 70),
      el('treeitem', 'Order', 10, 100),
      el('button', '', 10, 130),
      el('button', 'Off', 10, 160, { states: ['disabled'] }),
      el('button', 'Away', 1275, 10),
      el('textbox', 'Order', 10, 190),
      el('menu', 'Edit', 10, 220),
      el('checkbox', 'Only', 10, 250),
    ];
    const names = pressableControls(outline, { width: 1280, height: 800 }, rules).map(
      (c) => c.name,
    );
    expect(names).toEqual(['Save', 'Back', 'Sales', 'Order']);
  });

  it('keeps only the controls of an open modal dialog', () => {
    const outline = [
      el('button', 'Save', 10, 10),
      {
        ...el('dialog', 'Save changes?', 400, 300),
        rect: { x: 400, y: 300, width: 400, height: 200 },
        states: ['modal' as const],
      },
      el('button', 'Yes', 450, 450),
      el('button', 'No', 600, 450),
    ];
    const names = pressableControls(outline, { width: 1280, height: 800 }, rules).map(
      (c) => c.name,
    );
    expect(names).toEqual(['Yes', 'No']);
  });
});

describe('choose and its notes', () => {
  it('breaks ties in outline order and lists a name once', () => {
    const controls = [
      { name: 'Help', role: 'menu', x: 1, y: 1 },
      { name: 'Help', role: 'button', x: 2, y: 2 },
      { name: 'Save', role: 'button', x: 3, y: 3 },
    ];
    const choice = choose('help', controls, new Set(), VECTORS);
    expect(choice).toMatchObject({ kind: 'press', control: { name: 'Help', x: 1 } });
    expect(choice.ranked.map((r) => r.name)).toEqual(['Help', 'Save']);
    expect(notesOf(choice, 0)).toMatch(/presses "Help" \(press 1 of 8\)$/);
  });

  it('masks a card number in a control’s name', () => {
    const controls = [
      { name: 'Pay 4111 1111 1111 1111', role: 'button', x: 1, y: 1 },
      { name: 'Help', role: 'button', x: 2, y: 2 },
    ];
    const notes = notesOf(choose('help', controls, new Set(), VECTORS), 0);
    expect(notes).toContain('"Help"');
    expect(notes).not.toContain('4111 1111 1111 1111');
  });

  it('reads the names it pressed from its state', () => {
    expect(pressedSoFar(null, null)).toEqual([]);
    expect(pressedSoFar({ pressed: ['a', 'b'] }, 'sent')).toEqual(['a', 'b']);
    expect(pressedSoFar({ pressed: ['a', 'b'] }, 'screen_changed')).toEqual(['a']);
    expect(pressedSoFar({ pressed: Array(9).fill('a') }, null)).toBeNull();
  });
});
