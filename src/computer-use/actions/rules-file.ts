/**
 * config/classification.json as the rules read it: its shape, checked once when loaded (every
 * problem named), and the key spellings it declares, which the commit-key lists and the labels
 * that name a key are read with. Pure.
 */
import {
  canonicalKey,
  isCanonicalKey,
  type KeySpellings,
  type Modifier,
  MODIFIERS,
  squash,
} from '@warden/protocol';
import { words } from './commit-words';

export class RulesError extends Error {
  readonly code = 'rules_invalid';

  /** Each problem on its own, starting with the field it is about (`screen_rules[1].title …`). */
  readonly problems: readonly string[];

  constructor(problems: readonly string[] | string) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('; '));
    this.problems = list;
  }
}

export interface RulesFile {
  commit_words: Record<string, string[]>;
  secret_field_words: Record<string, string[]>;
  ocr_min_confidence: number;
  container_roles: string[];
  text_field_roles: string[];
  control_roles: { command: string[]; value: string[]; navigation: string[] };
  navigation_words: Record<string, string[]>;
  navigation_keys: string[];
  commit_keys: string[];
  modifier_aliases: Record<string, string[]>;
  key_aliases: Record<string, string[]>;
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function isStringArrayRecord(v: unknown): v is Record<string, string[]> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every(isStringArray)
  );
}

export function checkFile(raw: unknown): RulesFile {
  const f = raw as Partial<RulesFile> | null;
  const problems: string[] = [];
  if (!f || typeof f !== 'object') throw new RulesError('classification.json is not an object');
  if (!isStringArrayRecord(f.commit_words))
    problems.push('commit_words must map languages to lists');
  if (!isStringArrayRecord(f.secret_field_words))
    problems.push('secret_field_words must map languages to lists');
  const confidence = f.ocr_min_confidence;
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence <= 100))
    problems.push('ocr_min_confidence must be a number above 0 and at most 100');
  if (!isStringArray(f.container_roles)) problems.push('container_roles must be a list');
  if (!isStringArray(f.text_field_roles)) problems.push('text_field_roles must be a list');
  const control = f.control_roles as Record<string, unknown> | undefined;
  if (
    !control ||
    typeof control !== 'object' ||
    !['command', 'value', 'navigation'].every((k) => isStringArray(control[k]))
  )
    problems.push('control_roles must have command, value and navigation lists');
  if (!isStringArrayRecord(f.navigation_words))
    problems.push('navigation_words must map languages to lists');
  if (!isStringArray(f.navigation_keys)) problems.push('navigation_keys must be a list');
  if (!isStringArray(f.commit_keys)) problems.push('commit_keys must be a list');
  if (!isStringArrayRecord(f.modifier_aliases)) problems.push('modifier_aliases must map to lists');
  if (!isStringArrayRecord(f.key_aliases)) problems.push('key_aliases must map to lists');
  if (problems.length) throw new RulesError(`classification.json: ${problems.join('; ')}`);
  return f as RulesFile;
}

export function buildSpellings(file: RulesFile): KeySpellings {
  const modifiers = new Map<string, Modifier>();
  for (const [target, spellings] of Object.entries(file.modifier_aliases)) {
    if (!(MODIFIERS as readonly string[]).includes(target)) {
      throw new RulesError(`classification.json: modifier_aliases: “${target}” is not a modifier`);
    }
    for (const s of spellings) modifiers.set(squash(s), target as Modifier);
  }
  const keys = new Map<string, string>();
  for (const [target, spellings] of Object.entries(file.key_aliases)) {
    if (!isCanonicalKey(target)) {
      throw new RulesError(`classification.json: key_aliases: “${target}” is not a canonical key`);
    }
    for (const s of spellings) {
      if (modifiers.has(squash(s))) {
        throw new RulesError(`classification.json: “${s}” is both a key and a modifier`);
      }
      keys.set(squash(s), target);
    }
  }
  return { keys, modifiers };
}

export function keySet(list: string[], name: string, spellings: KeySpellings): Set<string> {
  const set = new Set<string>();
  for (const k of list) {
    if (canonicalKey(k, spellings) !== k) {
      throw new RulesError(`classification.json: ${name}: “${k}” is not written canonically`);
    }
    set.add(k);
  }
  return set;
}

/**
 * The spellings of the commit keys a label may name (docs/rules.md: a button does what its key does):
 * each key's canonical name, its aliases of four letters or more (`Return`, `Back_Space`; `del` and
 * `ret` are words of other languages), and a chord with every modifier spelling (`Ctrl+S`,
 * `Strg+S`, `Control+S`), each with the key it names.
 */
export function commitKeySpellings(
  file: RulesFile,
  commitKeys: ReadonlySet<string>,
): Map<string, string> {
  const names = new Map<string, string>();
  const add = (spelling: string, key: string) => {
    if (words(spelling).length > 0 && !names.has(spelling)) names.set(spelling, key);
  };
  for (const key of commitKeys) {
    const parts = key.split('+');
    const base = parts[parts.length - 1];
    const bases = [base, ...(file.key_aliases[base] ?? []).filter((a) => a.length >= 4)];
    let spellings = bases;
    for (const modifier of parts.slice(0, -1).reverse()) {
      const mods = [modifier, ...(file.modifier_aliases[modifier] ?? [])].filter((m) =>
        /^\p{L}+$/u.test(m),
      );
      spellings = mods.flatMap((m) => spellings.map((s) => `${m}+${s}`));
    }
    add(key, key);
    for (const s of spellings) add(s, key);
  }
  return names;
}
