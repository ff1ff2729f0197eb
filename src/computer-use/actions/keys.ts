/** Key normalisation and the key lists (docs/rules.md): the canonical form before any rule sees a key. */
import { canonicalKey } from '@warden/protocol';
import { loadRules, type Rules } from './rules';

/**
 * The canonical spelling of a key (`ctrl-s` → `Ctrl+S`, `Return` → `Enter`, `win` → `Meta`),
 * or null when the input is not a key. It does not say whether the key is allowed: see `keyKind`.
 */
export function normaliseKey(input: string, rules: Rules = loadRules()): string | null {
  return canonicalKey(input, rules.keySpellings);
}

/** What a canonical key is under the rules: navigation (a read), commit (a write), or neither. */
export function keyKind(key: string, rules: Rules): 'navigation' | 'commit' | null {
  if (rules.commitKeys.has(key)) return 'commit';
  if (rules.navigationKeys.has(key)) return 'navigation';
  return null;
}
