import type { OutlineElement, ScreenContext } from './action.types';
import { describeChange } from './change-text';
import { loadRules } from './rules';
import {
  changeList,
  stageEdit,
  type StagedEdit,
  type StagedField,
  type StagingStep,
} from './staging';

const rules = loadRules();
const date: OutlineElement = {
  id: 'date',
  role: 'textbox',
  name: 'Req. Deliv. Date',
  rect: { x: 200, y: 120, width: 100, height: 20 },
  value: '15.03.2026',
  focused: true,
  states: ['editable', 'changeable', 'focused'],
  area: 'input',
};
const command: OutlineElement = {
  id: 'okcode',
  role: 'textbox',
  name: 'Command field',
  rect: { x: 10, y: 40, width: 120, height: 20 },
  value: '',
  focused: true,
  states: ['editable', 'changeable', 'focused'],
  area: 'command_field',
};
const save: OutlineElement = {
  id: 'save',
  role: 'button',
  name: 'Save',
  rect: { x: 10, y: 10, width: 40, height: 20 },
};

function screen(
  outline: OutlineElement[] | null,
  extra: Partial<ScreenContext> = {},
): ScreenContext {
  return { width: 1024, height: 768, outline, ...extra };
}

const type = (text: string) => ({ action: 'type', text }) as const;

describe('staging an edit', () => {
  it('stages typing into the focused text field, with its label, id, rect and value before', () => {
    const staged = stageEdit(type('30.04.2026'), screen([save, date]), rules);
    expect(staged).toEqual({
      edit: {
        field: { label: 'Req. Deliv. Date', id: 'date', rect: date.rect, at: null },
        before: '15.03.2026',
        text: '30.04.2026',
      },
    });
  });

  it('says typing replaces the field where the outline marks its content selected', () => {
    const selected = { ...date, states: [...date.states!, 'selected' as const] };
    expect(stageEdit(type('30.04.2026'), screen([selected]), rules)).toMatchObject({
      edit: { before: '15.03.2026', text: '30.04.2026', selected: true },
    });
    const edit = stageEdit(type('30.04.2026'), screen([date]), rules) as { edit: StagedEdit };
    expect(edit.edit.selected).toBeUndefined();
  });

  it('stages a Backspace in the field as an edit', () => {
    const staged = stageEdit({ action: 'key', key: 'Backspace' }, screen([date]), rules);
    expect(staged).toMatchObject({ edit: { text: null, key: 'Backspace', before: '15.03.2026' } });
  });

  it.each([
    ['a newline', '30.04.2026\n', /newline/],
    ['a tab', '30.04\t2026', /newline, tab/],
    ['a carriage return', '30.04.2026\r', /control character/],
    ['a line separator', 'a\u2028b', /control character/],
  ])('never stages text holding %s', (_, text, why) => {
    const staged = stageEdit(type(text), screen([date]), rules);
    expect(staged).toEqual({ notStaged: expect.stringMatching(why) as unknown });
  });

  it('never stages a transaction code, wherever the focus seems to be', () => {
    for (const code of ['/nVA02', '/oFB50', ' /NVA03']) {
      expect(stageEdit(type(code), screen([date]), rules)).toEqual({
        notStaged: expect.stringMatching(/transaction code/) as unknown,
      });
    }
  });

  it('never stages a commit key or a click', () => {
    expect(stageEdit({ action: 'key', key: 'Enter' }, screen([date]), rules)).toHaveProperty(
      'notStaged',
    );
    expect(stageEdit({ action: 'click', x: 20, y: 20 }, screen([save]), rules)).toHaveProperty(
      'notStaged',
    );
  });

  it('never stages typing into the command field the host marks, by its area or its SAP id', () => {
    const sapId = { ...command, id: 'wnd[0]/tbar[0]/okcd', area: undefined };
    for (const field of [command, { ...command, name: 'Campo de comandos' }, sapId]) {
      const staged = stageEdit(type('SE16N'), screen([field]), rules);
      expect(staged).toEqual({
        notStaged: 'typing into the command field is never staged: a person decides',
      });
    }
  });

  it('stages only into a field the host places in the input area as changeable', () => {
    const cases: Array<[string, OutlineElement, RegExp]> = [
      // A command field the host does not mark, in a language no list knows: not staged either.
      ['no area', { ...date, name: 'Campo de comandos', area: undefined }, /input area/],
      ['the toolbar', { ...date, area: 'toolbar' }, /input area/],
      ['not changeable', { ...date, states: ['editable', 'focused'] }, /changeable/],
      ['no states', { ...date, states: undefined }, /changeable/],
    ];
    for (const [what, field, why] of cases) {
      const staged = stageEdit(type('SE16N'), screen([field]), rules);
      expect({ what, staged }).toEqual({
        what,
        staged: { notStaged: expect.stringMatching(why) as unknown },
      });
    }
  });

  it('fails closed where nothing locates one named text field that has the focus', () => {
    const unfocused = { ...date, focused: undefined };
    const cases: Array<[string, ScreenContext]> = [
      ['no focus marked', screen([unfocused])],
      ['the focus on a button', screen([{ ...save, focused: true }])],
      ['a password field', screen([{ ...date, password: true, value: undefined }])],
      ['an unnamed field', screen([{ ...date, name: '  ' }])],
      // The field last clicked is not the one the host marks: a dialog opened since the click.
      ['two fields', screen([date], { focus: { ...command, focused: undefined } })],
      // The host marks nothing and only the caller's belief says where the focus is.
      ['only a belief', screen([unfocused], { focus: unfocused })],
    ];
    for (const [what, context] of cases) {
      const staged = stageEdit(type('x'), context, rules);
      expect({ what, staged }).toEqual({
        what,
        staged: { notStaged: expect.any(String) as unknown },
      });
    }
  });

  it('keeps what it cannot read as unknown: a field the host gives no value has before null', () => {
    const staged = stageEdit(type('4711'), screen([{ ...date, value: undefined }]), rules);
    expect(staged).toMatchObject({ edit: { before: null } });
  });

  describe('a click that changes a value (a checkbox, an option)', () => {
    const block: OutlineElement = {
      id: 'wnd[0]/usr/chkVBAK-LIFSK',
      role: 'GuiCheckBox',
      name: 'Delivery block',
      rect: { x: 400, y: 300, width: 20, height: 20 },
      states: ['changeable'],
      area: 'input',
    };
    const click = { action: 'click', x: 410, y: 310 } as const;

    it('is staged with what the control held: checked or not, or its value', () => {
      expect(stageEdit(click, screen([block]), rules, true)).toEqual({
        edit: {
          field: { label: 'Delivery block', id: block.id, rect: block.rect, at: null },
          before: 'not checked',
          text: null,
          click: true,
        },
      });
      const combo = { ...block, role: 'combo box', name: 'Currency', value: 'EUR' };
      expect(stageEdit(click, screen([combo]), rules, true)).toMatchObject({
        edit: { before: 'EUR', click: true },
      });
    });

    it('is not staged unless the rules judged it an edit, or the host places it so', () => {
      expect(stageEdit(click, screen([block]), rules, false)).toHaveProperty('notStaged');
      for (const [what, outline] of [
        ['not changeable', [{ ...block, states: [] }]],
        ['not in the input area', [{ ...block, area: 'toolbar' }]],
        ['unnamed', [{ ...block, name: '' }]],
        ['the command field', [{ ...block, area: 'command_field' }]],
        ['nothing there', []],
      ] as Array<[string, OutlineElement[]]>) {
        expect({ what, staged: stageEdit(click, screen(outline), rules, true) }).toEqual({
          what,
          staged: { notStaged: expect.any(String) as unknown },
        });
      }
      expect(stageEdit(click, screen(null), rules, true)).toEqual({
        notStaged:
          'the screen host serves no outline, so nothing places the control: a person decides',
      });
    });

    it('lists the control once in the change list, read back on the held screen', () => {
      const staged = stageEdit(click, screen([block]), rules, true) as { edit: StagedEdit };
      const step = (n: number): StagingStep => ({
        n,
        classification: 'write',
        outcome: 'staged',
        staged: staged.edit,
      });
      const changes = changeList(
        [step(1), step(2), step(3)],
        [{ ...block, states: ['changeable', 'checked'] }],
      );
      expect(changes).toEqual([
        {
          field: 'Delivery block',
          before: 'not checked',
          after: null,
          read_back: 'checked',
          read_back_check: 'same',
          step: 3,
          rect: block.rect,
        },
      ]);
      expect(describeChange(changes[0])).toBe('Delivery block: “not checked” → “checked”');
    });
  });

  it('never stages on a host without an outline, whatever OCR reads beside the field', () => {
    const label = { words: [{ text: 'Order', confidence: 93 }] };
    expect(stageEdit(type('4711'), screen(null, { focusLabel: label }), rules)).toEqual({
      notStaged: 'the screen host serves no outline, so nothing places the field: a person decides',
    });
  });
});

describe('the change list', () => {
  const field = (id: string | null, label: string, at: StagedField['at'] = null): StagedField => ({
    label,
    id,
    rect: id ? { x: 1, y: 2, width: 3, height: 4 } : null,
    at,
  });
  const staged = (
    n: number,
    f: StagedField,
    before: string | null,
    text: string | null,
  ): StagingStep => {
    const edit: StagedEdit = { field: f, before, text };
    if (text === null) edit.key = 'Backspace';
    return { n, classification: 'write', outcome: 'staged', staged: edit };
  };
  const read = (n: number): StagingStep => ({
    n,
    classification: 'read',
    outcome: 'sent',
    staged: null,
  });
  const commit = (n: number, outcome = 'sent_after_approval'): StagingStep => ({
    n,
    classification: 'write',
    outcome,
    staged: null,
  });
  const approvedEdit = (n: number, f: StagedField, before: string | null, text: string) => ({
    ...commit(n),
    edit: { field: f, before, text } as StagedEdit,
  });
  const dateField = field('date', 'Req. Deliv. Date');
  const orderField = field('order', 'Order');
  const onScreen = (id: string, value: string | undefined): OutlineElement => ({
    id,
    role: 'textbox',
    name: id,
    rect: { x: 10, y: 20, width: 30, height: 40 },
    value,
  });

  it('lists edits a person approved one by one (every_write): the commit stores them', () => {
    const history = [
      commit(1),
      approvedEdit(2, orderField, '', '4711'),
      read(3),
      approvedEdit(4, dateField, '15.03.2026', '30.04.2026'),
    ];
    const changes = changeList(history, [onScreen('date', '30.04.2026')]);
    expect(changes.map((c) => [c.field, c.before, c.after, c.step])).toEqual([
      ['Order', '', '4711', 2],
      ['Req. Deliv. Date', '15.03.2026', '30.04.2026', 4],
    ]);
    // An approved write that is no edit (a Save) is a commit: nothing before it is listed again.
    expect(changeList([...history, commit(5)], null)).toEqual([]);
    // An edit held and not sent (rejected, stale) stores nothing.
    const rejected = { ...approvedEdit(2, orderField, '', '4711'), outcome: 'rejected' };
    expect(changeList([rejected], null)).toEqual([]);
  });

  describe('where the host reports field state (the application’s own word)', () => {
    const withState = (
      id: string,
      value: string,
      states: OutlineElement['states'] = ['editable', 'changeable'],
    ): OutlineElement => ({ ...onScreen(id, value), states });

    it('a staged field not on the held screen was typed on an earlier screen, not "not read back"', () => {
      const history = [
        staged(1, orderField, '', '4711'),
        read(2),
        staged(3, dateField, '15.03.2026', '30.04.2026'),
      ];
      const changes = changeList(history, [
        withState('date', '30.04.2026', ['editable', 'changeable', 'modified']),
      ]);
      expect(changes.map((c) => [c.field, c.read_back_check])).toEqual([
        ['Order', 'earlier'],
        ['Req. Deliv. Date', 'same'],
      ]);
      expect(describeChange(changes[0])).toBe('Order: “” → “4711” (typed on an earlier screen)');
    });

    it('lists a field the application marks modified that no staged edit explains', () => {
      const history = [staged(1, dateField, '15.03.2026', '30.04.2026')];
      const changes = changeList(history, [
        withState('date', '30.04.2026', ['changeable', 'modified']),
        { ...withState('ref', 'PO-999', ['changeable', 'modified']), name: 'Customer Reference' },
        withState('sold', '1000'),
        // Never the command field or a password field's, whatever the host says.
        { ...withState('cmd', '/nVA03', ['changeable', 'modified']), area: 'command_field' },
        { ...withState('pwd', '', ['changeable', 'modified']), password: true, value: undefined },
      ]);
      expect(changes.slice(1)).toEqual([
        {
          field: 'Customer Reference',
          before: null,
          after: null,
          read_back: 'PO-999',
          read_back_check: 'unexplained',
          step: 2,
          rect: { x: 10, y: 20, width: 30, height: 40 },
        },
      ]);
      expect(describeChange(changes[1])).toBe(
        'Customer Reference: (not read) → “PO-999” (changed without a typed edit)',
      );
    });

    describe('navigation is not a change', () => {
      const enter = (n: number, over: Partial<StagingStep> = {}): StagingStep => ({
        n,
        classification: 'read',
        outcome: 'sent',
        staged: null,
        action: { action: 'key', key: 'Enter' },
        loosened_by: {
          screen_rules: [
            { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
          ],
        },
        ...over,
      });
      const held = [withState('date', '30.04.2026')];
      const kinds = (history: StagingStep[]) =>
        changeList(history, held).map((c) => [c.field, c.read_back_check, c.kind ?? 'change']);

      it('the order number that a screen rule’s Enter left (typed on VA02’s first screen) opened the order', () => {
        const history = [
          approvedEdit(1, orderField, '', '4711'),
          enter(2),
          approvedEdit(3, dateField, '15.03.2026', '30.04.2026'),
        ];
        expect(kinds(history)).toEqual([
          ['Order', 'earlier', 'navigation'],
          ['Req. Deliv. Date', 'same', 'change'],
        ]);
        const [order] = changeList(history, held);
        expect(describeChange(order)).toBe(
          'Order: opened with “4711” (navigation, not a stored change)',
        );
        // Other fields typed on the same screen before that Enter were left by it too.
        const two = [
          staged(1, orderField, '', '4711'),
          staged(2, field('s', 'Sales Org.'), '', '1000'),
          enter(3),
        ];
        expect(kinds(two).map((k) => k[2])).toEqual(['navigation', 'navigation']);
        // A step that reached nothing (refused, the screen changed) does not leave the screen.
        const refused = { ...commit(2, 'refused'), action: { action: 'key', key: 'F11' } };
        expect(kinds([staged(1, orderField, '', '4711'), refused, enter(3)])[0][2]).toBe(
          'navigation',
        );
      });

      it('fails closed where Warden cannot tell it was navigation: the line stays a change', () => {
        const typed = staged(1, orderField, '', '4711');
        const cases: Array<[string, StagingStep]> = [
          // A key the default rules make a read (Page Down on a long form): no admin's word.
          [
            'a default read',
            enter(2, { loosened_by: null, action: { action: 'key', key: 'PageDown' } }),
          ],
          // A click that left the screen (a tab of a multi-screen form, whose fields Save stores).
          ['a click', enter(2, { action: { action: 'click', x: 1, y: 2 } })],
          // A read that the agent's unlabelled_clicks made, not a screen rule.
          ['another weakening', enter(2, { loosened_by: { unlabelled_clicks: 'read' } })],
          // A write that was refused by the application stored nothing, yet left no navigation.
          ['a write', enter(2, { classification: 'write', outcome: 'refused_by_application' })],
          // No history of the step that left (records from before loosened_by was read).
          ['unknown', enter(2, { loosened_by: undefined })],
        ];
        for (const [what, leaving] of cases) {
          expect({ what, kinds: kinds([typed, leaving]) }).toEqual({
            what,
            kinds: [['Order', 'earlier', 'change']],
          });
        }
        // Nothing left the screen after it: the field is merely off the held screen.
        expect(kinds([typed])).toEqual([['Order', 'earlier', 'change']]);
        // A field on the held screen is never navigation, whatever left an earlier one.
        const onIt = changeList([typed, enter(2)], [withState('order', '4711')]);
        expect(onIt[0]).toMatchObject({ read_back_check: 'same' });
        expect(onIt[0].kind).toBeUndefined();
      });
    });

    it('without field state, a field not on the held screen is not read back, as before', () => {
      const changes = changeList([staged(1, orderField, '', '4711')], [onScreen('date', 'x')]);
      expect(changes[0].read_back_check).toBe('unread');
    });
  });

  it('lists each field once, in the order first edited, read back on the held screen', () => {
    const history = [
      staged(1, orderField, '', '4711'),
      read(2),
      staged(3, dateField, '15.03.2026', '30.04.2026'),
    ];
    const changes = changeList(history, [
      onScreen('order', '4711'),
      onScreen('date', '30.04.2026'),
    ]);
    expect(changes).toEqual([
      {
        field: 'Order',
        before: '',
        after: '4711',
        read_back: '4711',
        read_back_check: 'same',
        step: 1,
        rect: { x: 10, y: 20, width: 30, height: 40 },
      },
      {
        field: 'Req. Deliv. Date',
        before: '15.03.2026',
        after: '30.04.2026',
        read_back: '30.04.2026',
        read_back_check: 'same',
        step: 3,
        rect: { x: 10, y: 20, width: 30, height: 40 },
      },
    ]);
    expect(describeChange(changes[1])).toBe('Req. Deliv. Date: “15.03.2026” → “30.04.2026”');
  });

  it('a second edit of a field keeps its first before and replaces its after; a click elsewhere does not clear it', () => {
    const click: StagingStep = { n: 2, classification: 'read', outcome: 'sent', staged: null };
    const history = [
      staged(1, dateField, '15.03.2026', '31.04.2026'),
      click,
      staged(3, dateField, '31.04.2026', '30.04.2026'),
      staged(4, dateField, '30.04.2026', null),
    ];
    const [line] = changeList(history, [onScreen('date', '30.04.202')]);
    expect(line).toMatchObject({ before: '15.03.2026', after: '30.04.202', step: 4 });
    expect(line.read_back_check).toBe('same');
  });

  it('starts after the last commit: a write that reached the screen unstaged', () => {
    const history = [
      staged(1, orderField, '', '4711'),
      commit(2, 'sent'),
      staged(3, dateField, 'a', 'b'),
    ];
    expect(changeList(history, null).map((c) => c.field)).toEqual(['Req. Deliv. Date']);
    // A write that did not reach the screen is no commit.
    const refused = [staged(1, orderField, '', '4711'), commit(2, 'screen_changed')];
    expect(changeList(refused, null).map((c) => c.field)).toEqual(['Order']);
  });

  it('flags a read-back that differs from what was typed, and one nothing could read', () => {
    const history = [
      staged(1, dateField, '15.03.2026', '300426'),
      staged(2, orderField, '', '4711'),
    ];
    const changes = changeList(history, [
      onScreen('date', '30.04.2026'),
      onScreen('order', undefined),
    ]);
    expect(changes.map((c) => c.read_back_check)).toEqual(['differs', 'unread']);
    expect(describeChange(changes[0])).toBe(
      'Req. Deliv. Date: “15.03.2026” → “30.04.2026” (typed “300426”)',
    );
    expect(describeChange(changes[1])).toBe('Order: “” → “4711” (not read back)');
    // A field no longer on the held screen keeps the rect it had, and is not read back.
    expect(changeList(history, [])[0]).toMatchObject({ read_back: null, rect: dateField.rect });
  });

  it('tells fields apart without an outline by the line of the click that focused them', () => {
    const upper = field(null, 'Order', { x: 300, y: 200 });
    const sameLine = field(null, 'Order', { x: 320, y: 210 });
    const below = field(null, 'Sold-to', { x: 300, y: 240 });
    const history = [
      staged(1, upper, null, '1'),
      staged(2, sameLine, null, '2'),
      staged(3, below, null, '3'),
    ];
    expect(changeList(history, null).map((c) => [c.field, c.after, c.read_back_check])).toEqual([
      ['Order', '2', 'unread'],
      ['Sold-to', '3', 'unread'],
    ]);
  });
});
