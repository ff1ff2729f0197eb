import { loadRules, type OutlineElement, type Verdict } from '../actions';
import { commitPoint } from './commit-point';

const rules = loadRules();
const date: OutlineElement = {
  id: 'date',
  role: 'textbox',
  name: 'Req. Deliv. Date',
  rect: { x: 200, y: 120, width: 100, height: 20 },
  value: '15.03.2026',
  focused: true,
  states: ['editable', 'changeable', 'focused', 'selected'],
  area: 'input',
};
const write = (action: Verdict['action']): Verdict => ({
  action,
  classification: 'write',
  why: 'a write',
});
const context = (outline: OutlineElement[]) => ({ width: 1024, height: 768, outline });
const typing = write({ action: 'type', text: '30.04.2026' });
const save = write({ action: 'click', x: 20, y: 20 });

describe('commit-point facts of a judged write', () => {
  it('under every_write, an edit says its field and value before, and nothing is staged', () => {
    const point = commitPoint('every_write', rules, typing, context([date]), [date], []);
    expect(point).toEqual({
      staged: null,
      notStaged: null,
      changes: null,
      edit: {
        field: { label: 'Req. Deliv. Date', id: 'date', rect: date.rect, at: null },
        before: '15.03.2026',
        text: '30.04.2026',
        selected: true,
      },
    });
  });

  it('under every_write, a commit lists the approved edits it stores, leaving its why alone', () => {
    const edit = commitPoint('every_write', rules, typing, context([date]), [date], []).edit!;
    const history = [
      {
        n: 4,
        action: typing.action,
        classification: 'write' as const,
        why: 'a write',
        outcome: 'sent_after_approval',
        error: null,
        screen_sha256: null,
        edit,
      },
    ];
    const after = {
      ...date,
      value: '30.04.2026',
      states: ['editable' as const, 'changeable' as const],
    };
    const point = commitPoint('every_write', rules, save, context([after]), [after], history);
    expect(point.changes).toBeNull();
    expect(point.stores).toEqual([
      expect.objectContaining({
        field: 'Req. Deliv. Date',
        before: '15.03.2026',
        after: '30.04.2026',
        read_back: '30.04.2026',
        read_back_check: 'same',
        step: 4,
      }),
    ]);
  });

  it('leaves reads alone, and under commit stages the edit as before', () => {
    const read = { ...typing, classification: 'read' } as Verdict;
    expect(commitPoint('every_write', rules, read, context([date]), [date], [])).toEqual({
      staged: null,
      notStaged: null,
      changes: null,
    });
    expect(commitPoint('commit', rules, typing, context([date]), [date], []).staged).toMatchObject({
      before: '15.03.2026',
      text: '30.04.2026',
    });
  });
});
