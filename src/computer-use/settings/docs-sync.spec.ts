/**
 * docs/api.md shows an agent's fields and a model planner's as tables. This fails when a table
 * drifts from the field tables the code reads (agent-fields.ts, planner-fields.ts): a field
 * missing or extra, another default, other bounds of a whole number.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_FIELD_SPECS } from './agent-fields';
import type { FieldTable } from './field-table';
import { MODEL_PLANNER_FIELD_SPECS } from './planner-fields';

const doc = readFileSync(join(__dirname, '../../../docs/api.md'), 'utf8');
const cells = (l: string) =>
  l
    .slice(1, -1)
    .split(' | ')
    .map((c) => c.trim());

/** The rows of the table whose header starts with `header`: each field named in a first cell. */
function docTable(header: string): Map<string, { default: string; rule: string }> {
  const lines = doc.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`| ${header} |`));
  expect(at).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, { default: string; rule: string }>();
  for (const l of lines.slice(at + 2)) {
    if (!l.startsWith('| ')) break;
    const [names, dflt, rule] = cells(l);
    for (const [, name] of names.matchAll(/`([a-z0-9_]+)`/g))
      rows.set(name, { default: dflt, rule });
  }
  return rows;
}

/** How the docs write a field's default: `required`, a bare number, or the JSON in backticks. */
function shown(field: FieldTable[string]): string {
  if (field.required) return 'required';
  return typeof field.default === 'number'
    ? String(field.default)
    : `\`${JSON.stringify(field.default)}\``;
}

describe.each([
  ['AGENT field', AGENT_FIELD_SPECS],
  ['model planner field', MODEL_PLANNER_FIELD_SPECS],
] as const)('docs/api.md, the table of each %s', (header, fields: FieldTable) => {
  const rows = docTable(header);

  it('lists exactly the fields of the table', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(fields).sort());
  });

  it.each(Object.keys(fields))('says the default of %s', (name) => {
    const cell = rows.get(name)?.default ?? '';
    const expected = shown(fields[name]);
    // The default, then nothing or a colon and what it means (`null`: never).
    expect(cell === expected || cell.startsWith(`${expected}:`)).toBe(true);
  });

  it.each(
    Object.keys(fields).filter((name) => {
      const field = fields[name];
      return field.kind === 'int' && typeof field.default === 'number';
    }),
  )('says the bounds of %s', (name) => {
    const field = fields[name] as { min: number; max: number };
    expect(rows.get(name)?.rule).toMatch(new RegExp(`^integer ${field.min}-${field.max}\\b`));
  });
});
