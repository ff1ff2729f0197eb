/** The navigator's energy with vectors small enough to check by hand. */
import { centredCosine, energies, meanOf } from './energy';

const v = (...xs: number[]) => Float64Array.from(xs);
const close = (actual: number[], expected: number[]) =>
  actual.forEach((a, i) => expect(a).toBeCloseTo(expected[i], 12));

describe('meanOf', () => {
  it('is the component-wise mean', () => {
    expect([...meanOf([v(1, 2), v(3, 6)], 2)]).toEqual([2, 4]);
  });

  it('is the zero vector for no vectors', () => {
    expect([...meanOf([], 3)]).toEqual([0, 0, 0]);
  });
});

describe('centredCosine', () => {
  it('is the cosine of the differences from m', () => {
    // (1,0)−(0,0) and (1,1)−(0,0): 45 degrees.
    expect(centredCosine(v(1, 0), v(1, 1), v(0, 0))).toBeCloseTo(Math.SQRT1_2, 12);
    // Moving both points and m by the same vector changes nothing.
    expect(centredCosine(v(6, 5), v(6, 6), v(5, 5))).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it('is 0 when a difference is the zero vector (nothing tells it from the mean)', () => {
    expect(centredCosine(v(1, 2), v(3, 4), v(3, 4))).toBe(0);
    expect(centredCosine(v(3, 4), v(1, 2), v(3, 4))).toBe(0);
  });

  it('stays within [-1, 1] where rounding would pass it', () => {
    const a = v(0.1, 0.2, 0.3);
    const c = centredCosine(a, v(0.1, 0.2, 0.3), v(0, 0, 0));
    expect(c).toBeLessThanOrEqual(1);
    expect(c).toBeCloseTo(1, 12);
  });
});

describe('energies', () => {
  it('is 1 − cos(task − m, control − m) with m the mean of the controls', () => {
    // m = (1, 1): the controls become (1, 0), (−1, 0) and (0, 0) around it.
    const controls = [v(2, 1), v(0, 1), v(1, 1)];
    close(energies(v(2, 1), controls), [0, 2, 1]);
  });

  it('tells apart controls that the uncentred cosine would call the same', () => {
    // Both controls point roughly where the task does; only what sets them apart counts.
    const controls = [v(10, 1), v(10, -1)];
    const [near, far] = energies(v(10, 2), controls);
    expect(near).toBeCloseTo(0, 12);
    expect(far).toBeCloseTo(2, 12);
  });

  it('gives the only control of a screen energy 1', () => {
    close(energies(v(1, 0), [v(0, 1)]), [1]);
  });

  it('gives a task orthogonal to the centred controls energy 1 for each', () => {
    close(energies(v(0, 5), [v(1, 0), v(-1, 0)]), [1, 1]);
  });
});
