import { jsonDepth } from './json-depth.interceptor';

describe('jsonDepth', () => {
  it.each([
    [1, 0],
    [null, 0],
    [{}, 1],
    [[], 1],
    [{ a: [1, { b: 'c' }] }, 3],
    [{ steps: [{ action: { action: 'click', element: { role: 'r', name: 'n' } } }] }, 5],
  ])('%j nests %d deep', (value, depth) => {
    expect(jsonDepth(value)).toBe(depth);
  });

  it('counts a very deep value without recursion, and stops early past the limit', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonDepth(deep)).toBe(200_000);
    expect(jsonDepth(deep, 32)).toBe(33);
  });
});
