import { turnsOf } from './batching-model';

describe('the batched planner', () => {
  it('serves a recording in turns ending at each Enter, done and fail alone', () => {
    const click = (x: number) => ({
      tool: 'computer',
      input: { action: 'left_click', coordinate: [x, 1] },
    });
    const turns = turnsOf([
      click(1),
      { tool: 'computer', input: { action: 'type', text: '/nVA02' } },
      { tool: 'computer', input: { action: 'key', text: 'Return' } },
      click(2),
      { tool: 'computer', input: { action: 'type', text: '4711' } },
      { tool: 'done', input: { summary: 'ok' } },
    ]);
    expect(turns).toEqual([
      [
        { name: 'left_click', input: { coordinate: [1, 1] } },
        { name: 'type', input: { text: '/nVA02' } },
        { name: 'key', input: { text: 'Return' } },
      ],
      [
        { name: 'left_click', input: { coordinate: [2, 1] } },
        { name: 'type', input: { text: '4711' } },
      ],
      [{ tool: 'done', input: { summary: 'ok' } }],
    ]);
  });
});
