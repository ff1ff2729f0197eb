/**
 * Regular expressions an admin or a script writes, matched against text from the screen (outline
 * names, titles, labels): shared by scripted planners and screen rules.
 */

/**
 * Cheap defence against catastrophic backtracking: a group that contains an unbounded quantifier
 * and is itself repeated (`(a+)+`, `(x*y)*`, `(\d+,?){2,}`). It cannot catch every slow pattern
 * (overlapping alternatives such as `(a|a)*` pass); the length limit and short outline names bound
 * the rest.
 */
export function nestedQuantifier(source: string): boolean {
  const groups: boolean[] = []; // per open group: does it contain a repeating quantifier?
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      groups.push(false);
      if (source[i + 1] === '?') i++; // (?: (?= (?! (?<name> (?<= (?<!: not a quantifier
    } else if (c === ')') {
      const inner = groups.pop() ?? false;
      const repeated = repeats(source, i + 1);
      if (inner && repeated) return true;
      if ((inner || repeated) && groups.length > 0) groups[groups.length - 1] = true;
    } else if (repeats(source, i) && groups.length > 0) {
      groups[groups.length - 1] = true;
    }
  }
  return false;
}

/** True when a quantifier that repeats (`*`, `+`, `{n,}`, `{n,m}` with m ≥ 2, `{n}` with n ≥ 2) starts at i. */
function repeats(source: string, i: number): boolean {
  const c = source[i];
  if (c === '*' || c === '+') return true;
  if (c !== '{') return false;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
  if (!m) return false;
  if (m[2] === undefined) return Number(m[1]) >= 2;
  return m[3] === '' || Number(m[3]) >= 2;
}

/**
 * Why `source` cannot be a pattern, or null: it must compile (with the `u` flag, as it is matched)
 * and have no repeated group with a repeating quantifier inside. Completes "… is not" or "… can".
 */
export function patternProblem(source: string): string | null {
  try {
    new RegExp(source, 'u');
  } catch (error) {
    const prefix = `Invalid regular expression: /${source}/u: `;
    const message = error instanceof Error ? error.message : String(error);
    const why = message.startsWith(prefix) ? message.slice(prefix.length) : message;
    return `is not a valid regular expression: ${why}`;
  }
  if (nestedQuantifier(source)) {
    return 'can take exponential time: a repeated group with a repeating quantifier inside, as in (a+)+; write it without the nesting';
  }
  return null;
}
