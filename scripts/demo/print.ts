/** How the demo talks: headings, short indented lines and plain tables, nothing a newcomer must parse. */

export function heading(text: string): void {
  console.log(`\n== ${text}`);
}

export function line(text = ''): void {
  console.log(text === '' ? '' : `   ${text}`);
}

export function ok(text: string): void {
  console.log(` ✓ ${text}`);
}

export function bad(text: string): void {
  console.log(` ✗ ${text}`);
}

/**
 * Columns padded to their widest cell. A cell longer than `max` is cut with an ellipsis, except in
 * the column `wrapAt`, which wraps onto continuation lines of at most `width` characters.
 */
export function table(
  columns: string[],
  rows: Array<Array<string | number>>,
  { max = 30, wrapAt = -1, width = 40 } = {},
): void {
  const lines = rows.flatMap((r) => {
    const cells = r.map((c, i) => (i === wrapAt ? String(c) : cut(String(c), max)));
    const wrapped = wrapAt >= 0 ? wrap(cells[wrapAt], width) : [''];
    return wrapped.map((part, k) => cells.map((c, i) => (i === wrapAt ? part : k === 0 ? c : '')));
  });
  const widths = columns.map((c, i) => Math.max(c.length, ...lines.map((l) => l[i].length)));
  const render = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  line(render(columns));
  line(render(widths.map((w) => '-'.repeat(w))));
  for (const l of lines) line(render(l));
}

/** Splits text at spaces into lines of at most `width` characters (a longer word stays whole). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  return [...lines, current];
}

export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function shortSha(sha: unknown): string {
  return typeof sha === 'string' ? `${sha.slice(0, 12)}…` : '-';
}

/** An action of docs/rules.md in words: `type "4711"`, `press Enter`, `click "Save" at (612, 88)`. */
export function describeAction(recorded: object | null | undefined, { where = true } = {}): string {
  if (!recorded) return '-';
  const action = recorded as Record<string, unknown>;
  const at =
    where && typeof action.x === 'number' ? ` at (${String(action.x)}, ${String(action.y)})` : '';
  const target = typeof action.target === 'string' ? ` "${action.target}"` : '';
  switch (action.action) {
    case 'click':
      return `click${target}${at}`;
    case 'double_click':
      return `double-click${target}${at}`;
    case 'type':
      return `type "${String(action.text)}"`;
    case 'key':
      return `press ${String(action.key)}`;
    case 'scroll':
      return `scroll ${String(action.direction)} ${String(action.amount)}${at}`;
    case 'wait':
      return `wait ${String(action.seconds)} s`;
    case 'done':
      return `done: ${String(action.summary)}`;
    case 'fail':
      return `give up: ${String(action.reason)}`;
    default:
      return JSON.stringify(action);
  }
}
