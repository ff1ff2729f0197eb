/**
 * The navigator's energy (docs/models.md): how far a control's name is from the task, on one screen.
 * energy = 1 − cos(task − m, control − m), with m the mean of the screen's control vectors: taking
 * out what every control of the screen shares leaves what tells one from another. 0 is the same
 * direction as the task, 1 unrelated (or nothing left to compare), 2 the opposite. Pure.
 */

/** The component-wise mean; a zero vector of `dimensions` for none. */
export function meanOf(vectors: readonly Float64Array[], dimensions: number): Float64Array {
  const m = new Float64Array(dimensions);
  if (vectors.length === 0) return m;
  for (const v of vectors) for (let i = 0; i < dimensions; i++) m[i] += v[i];
  for (let i = 0; i < dimensions; i++) m[i] /= vectors.length;
  return m;
}

/**
 * cos(a − m, b − m). 0 when either difference is the zero vector (a control that is the mean of
 * the screen, as the only control of a screen is): nothing tells it apart, so it is unrelated.
 */
export function centredCosine(a: Float64Array, b: Float64Array, m: Float64Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < m.length; i++) {
    const x = a[i] - m[i];
    const y = b[i] - m[i];
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  if (aa === 0 || bb === 0) return 0;
  // Rounding can push |cos| a hair past 1.
  return Math.max(-1, Math.min(1, dot / Math.sqrt(aa * bb)));
}

/** The energy of each control for the task, in the controls' order, m taken over these controls. */
export function energies(task: Float64Array, controls: readonly Float64Array[]): number[] {
  const m = meanOf(controls, task.length);
  return controls.map((c) => 1 - centredCosine(task, c, m));
}
