/**
 * docs/rules.md shows the rules as tables for a compliance reader. This fails when the tables of
 * words, keys, roles and navigation words drift from config/classification.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import defaults from '../../../config/classification.json';
import { loadRules } from './rules';

const doc = readFileSync(join(__dirname, '../../../docs/rules.md'), 'utf8');
const cells = (l: string) =>
  l
    .slice(1, -1)
    .split(' | ')
    .map((c) => c.trim());
const rows = doc
  .split('\n')
  .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
  .map(cells);

/** The rows of the table whose header's second cell starts so, as {first cell: list}. */
function listTable(header: string): Record<string, string[]> {
  const lines = doc.split('\n');
  const at = lines.findIndex((l) => l.startsWith('| ') && cells(l)[1]?.startsWith(header));
  expect(at).toBeGreaterThanOrEqual(0);
  const out: Record<string, string[]> = {};
  for (const l of lines.slice(at + 2)) {
    if (!l.startsWith('| ')) break;
    const [key, list] = cells(l);
    out[key] = list.split(', ');
  }
  return out;
}

describe('docs/rules.md', () => {
  it('lists exactly the default committing verbs, by language', () => {
    expect(listTable('committing verbs')).toEqual(defaults.commit_words);
  });

  it('lists exactly the secret-field words, by language, and the OCR confidence', () => {
    expect(listTable('secret-field words')).toEqual(defaults.secret_field_words);
    expect(doc).toContain(`under ${defaults.ocr_min_confidence} (config \`ocr_min_confidence\`)`);
    expect(doc).toContain(`confidence «n», under ${defaults.ocr_min_confidence}`);
  });

  it('lists exactly the navigation and commit keys', () => {
    const rules = loadRules();
    const kinds = rows.filter(([, kind]) =>
      /^(navigation|commit) \((read|write)\)$/.test(kind ?? ''),
    );
    expect(kinds.filter(([, k]) => k.startsWith('navigation')).map(([key]) => key)).toEqual([
      ...rules.navigationKeys,
    ]);
    expect(kinds.filter(([, k]) => k.startsWith('commit')).map(([key]) => key)).toEqual([
      ...rules.commitKeys,
    ]);
  });

  it('lists exactly the container roles, text field roles, control roles and navigation words', () => {
    const list = (header: string) => {
      const i = rows.findIndex(([h]) => h.startsWith(header));
      expect(i).toBeGreaterThanOrEqual(0);
      return rows[i + 1][0].split(', ');
    };
    expect(list('container roles')).toEqual(defaults.container_roles);
    expect(list('text field roles')).toEqual(defaults.text_field_roles);
    const controls = rows.filter(([kind]) => ['value', 'command', 'navigation'].includes(kind));
    expect(Object.fromEntries(controls.map(([kind, roles]) => [kind, roles.split(', ')]))).toEqual(
      defaults.control_roles,
    );
    expect(listTable('navigation words')).toEqual(defaults.navigation_words);
  });

  it('lists every key spelling of the configuration', () => {
    const spellings = [
      ...Object.values(defaults.key_aliases).flat(),
      ...Object.values(defaults.modifier_aliases).flat(),
    ].filter((s) => !/^kp_(\d|f\d)$/.test(s)); // written as ranges: kp_0 … kp_9, kp_f1 … kp_f4
    for (const s of spellings) expect(doc).toContain(`\`${s}\``);
  });
});
