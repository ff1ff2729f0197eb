/**
 * The classification rules as data: config/classification.json (compiled into the build, so the
 * same file is used from src/ under tests and from dist/src/ in production), plus what an agent
 * adds (`commit_words`, `navigation_words`, `unlabelled_clicks`, `screen_rules`, docs/api.md). Checked
 * once, when first loaded.
 */
import {
  canonicalKey,
  isCanonicalKey,
  type KeySpellings,
  type Modifier,
  MODIFIERS,
  squash,
} from '@warden/protocol';
import defaults from '../../../config/classification.json';
import { type CommitWordIndex, findCommitWord, indexCommitWords, words } from './commit-words';
import { type NearTargets, nearTargets } from './near-miss';
import {
  NO_SCREEN_RULES,
  type ReadMode,
  readScreenRules,
  type ScreenRules,
} from './screen-rules-read';
import { indexSecretFieldWords, type SecretFieldWords } from './secret-fields';

export interface Rules {
  /**
   * Every committing verb in force: the defaults, the agent's, then the names of the commit keys
   * (`Enter`, `Return`, `Ctrl+S`, `Strg+S` …: a button does what its key does).
   */
  readonly commitWords: readonly string[];
  /** Of `commitWords`, the spellings that name a commit key, and which key. */
  readonly commitKeyNames: ReadonlyMap<string, string>;
  readonly commitIndex: CommitWordIndex;
  /** The committing verbs an OCR-read label may miss by one edit (five letters or more). */
  readonly commitNear: NearTargets;
  /** Labels of fields Warden never types into: password, PIN, TAN, one-time code, OTP, CVV. */
  readonly secretFields: SecretFieldWords;
  /** A word with letters that OCR read with less confidence (0–100) makes the reading unreadable. */
  readonly ocrMinConfidence: number;
  /** Canonical keys that only move around: a read. */
  readonly navigationKeys: ReadonlySet<string>;
  /** Canonical keys that commit: a write. */
  readonly commitKeys: ReadonlySet<string>;
  /** Outline roles (see `roleKey`) whose name describes a region, not the thing clicked. */
  readonly containerRoles: ReadonlySet<string>;
  /** Outline roles (see `roleKey`) of text fields: a click on one focuses it, a read. */
  readonly textFieldRoles: ReadonlySet<string>;
  /** Outline roles (see `roleKey`) of command controls: a click is a write unless it only navigates. */
  readonly commandRoles: ReadonlySet<string>;
  /** Outline roles (see `roleKey`) of controls whose click changes a value: an edit. */
  readonly valueRoles: ReadonlySet<string>;
  /** Outline roles (see `roleKey`) of tabs, menus, scroll bars: a click is a read, unless a verb. */
  readonly navigationRoles: ReadonlySet<string>;
  /** The words that make a command control a read (defaults first, then the agent's). */
  readonly navigationWords: readonly string[];
  readonly navigationIndex: CommitWordIndex;
  /** Navigation words (folded, words joined by a space) that only the agent's list holds. */
  readonly agentNavigationWords: ReadonlySet<string>;
  /** The agent's screen rules (docs/rules.md), compiled; none by default. */
  readonly screenRules: ScreenRules;
  /**
   * What a click is when nothing could read its label: a write by default; `read` (a weakening)
   * takes effect only on a screen whose host serves an outline.
   */
  readonly unlabelledClicks: 'read' | 'write';
  readonly keySpellings: KeySpellings;
}

/** The part of an agent's configuration (docs/api.md) that changes classification. */
export interface AgentRules {
  commit_words?: string[] | null;
  navigation_words?: string[] | null;
  unlabelled_clicks?: 'read' | 'write' | null;
  /** Checked here (screen-rules-read.ts); the settings module reports each problem by its path. */
  screen_rules?: unknown;
}

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

/** Limits on what an agent may add. */
export const MAX_AGENT_COMMIT_WORDS = 200;
export const MAX_COMMIT_WORD_LENGTH = 64;
export const MAX_AGENT_NAVIGATION_WORDS = 200;

interface RulesFile {
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

function isStringArray(v: unknown): v is string[] {
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

function checkFile(raw: unknown): RulesFile {
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

function buildSpellings(file: RulesFile): KeySpellings {
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

function keySet(list: string[], name: string, spellings: KeySpellings): Set<string> {
  const set = new Set<string>();
  for (const k of list) {
    if (canonicalKey(k, spellings) !== k) {
      throw new RulesError(`classification.json: ${name}: “${k}” is not written canonically`);
    }
    set.add(k);
  }
  return set;
}

/** An outline role as the rules compare it: `GuiToolbar`, `tool_bar`, `ToolBar` → `toolbar`. */
export function roleKey(role: unknown): string {
  if (typeof role !== 'string') return '';
  return role
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/^gui(?=[a-z])/, '');
}

interface Base {
  commitWords: readonly string[];
  commitKeyNames: ReadonlyMap<string, string>;
  navigationWords: readonly string[];
  secretFields: SecretFieldWords;
  ocrMinConfidence: number;
  containerRoles: ReadonlySet<string>;
  textFieldRoles: ReadonlySet<string>;
  commandRoles: ReadonlySet<string>;
  valueRoles: ReadonlySet<string>;
  navigationRoles: ReadonlySet<string>;
  navigationKeys: ReadonlySet<string>;
  commitKeys: ReadonlySet<string>;
  keySpellings: KeySpellings;
}

let base: Base | null = null;

function loadBase(): Base {
  if (base) return base;
  const file = checkFile(defaults);
  const keySpellings = buildSpellings(file);
  const navigationKeys = keySet(file.navigation_keys, 'navigation_keys', keySpellings);
  const commitKeys = keySet(file.commit_keys, 'commit_keys', keySpellings);
  for (const k of commitKeys) {
    if (navigationKeys.has(k)) {
      throw new RulesError(`classification.json: ${k} is both a navigation and a commit key`);
    }
  }
  const commitWords = Object.values(file.commit_words).flat();
  const secretFieldWords = Object.values(file.secret_field_words).flat();
  const navigationWords = Object.values(file.navigation_words).flat();
  for (const w of [...commitWords, ...secretFieldWords, ...navigationWords]) {
    if (words(w).length === 0) throw new RulesError(`classification.json: “${w}” has no letters`);
  }
  const roles = (list: string[]) => {
    const set = new Set<string>();
    for (const r of list) {
      if (roleKey(r) !== r)
        throw new RulesError(`classification.json: role “${r}” must be written as ${roleKey(r)}`);
      set.add(r);
    }
    return set;
  };
  const containerRoles = roles(file.container_roles);
  const textFieldRoles = roles(file.text_field_roles);
  const kinds = {
    container: containerRoles,
    'text field': textFieldRoles,
    command: roles(file.control_roles.command),
    value: roles(file.control_roles.value),
    navigation: roles(file.control_roles.navigation),
  };
  const seen = new Map<string, string>();
  for (const [kind, set] of Object.entries(kinds)) {
    for (const r of set) {
      const other = seen.get(r);
      if (other)
        throw new RulesError(`classification.json: role “${r}” is both ${other} and ${kind}`);
      seen.set(r, kind);
    }
  }
  // A key spelt like a committing verb (Delete) is named as the verb.
  const verbs = new Set(commitWords.map((w) => words(w).join(' ')));
  const commitKeyNames = new Map(
    [...commitKeySpellings(file, commitKeys)].filter(([s]) => !verbs.has(words(s).join(' '))),
  );
  for (const spelling of commitKeyNames.keys()) {
    if (navigationWords.some((w) => words(w).join(' ') === words(spelling).join(' ')))
      throw new RulesError(
        `classification.json: “${spelling}” names a commit key and is a navigation word`,
      );
  }
  base = {
    commitWords,
    commitKeyNames,
    navigationWords,
    secretFields: indexSecretFieldWords(secretFieldWords),
    ocrMinConfidence: file.ocr_min_confidence,
    containerRoles,
    textFieldRoles,
    commandRoles: kinds.command,
    valueRoles: kinds.value,
    navigationRoles: kinds.navigation,
    navigationKeys,
    commitKeys,
    keySpellings,
  };
  return base;
}

/**
 * The spellings of the commit keys a label may name (docs/rules.md: a button does what its key does):
 * each key's canonical name, its aliases of four letters or more (`Return`, `Back_Space`; `del` and
 * `ret` are words of other languages), and a chord with every modifier spelling (`Ctrl+S`,
 * `Strg+S`, `Control+S`), each with the key it names.
 */
function commitKeySpellings(file: RulesFile, commitKeys: ReadonlySet<string>): Map<string, string> {
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

/** An agent's own words (`commit_words`, `navigation_words`): a list of short words with letters. */
function checkWords(field: string, list: unknown, max: number, problems: string[]): void {
  if (list == null) return;
  if (!isStringArray(list)) {
    problems.push(`${field} must be a list of strings`);
  } else if (list.length > max) {
    problems.push(`${field}: at most ${max} words`);
  } else {
    const bad = list.find((w) => w.length > MAX_COMMIT_WORD_LENGTH || words(w).length === 0);
    if (bad !== undefined) {
      problems.push(
        `${field}: “${bad.slice(0, MAX_COMMIT_WORD_LENGTH)}” must have letters or digits and at most ${MAX_COMMIT_WORD_LENGTH} characters`,
      );
    }
  }
}

/** Checks what an agent adds, naming every problem; its screen rules come back compiled. */
function checkAgent(agent: AgentRules, b: Base, mode: ReadMode): ScreenRules {
  const problems: string[] = [];
  const { unlabelled_clicks: unlabelled } = agent;
  checkWords('commit_words', agent.commit_words, MAX_AGENT_COMMIT_WORDS, problems);
  checkWords('navigation_words', agent.navigation_words, MAX_AGENT_NAVIGATION_WORDS, problems);
  if (isStringArray(agent.navigation_words)) {
    const key = agent.navigation_words.find((w) =>
      [...b.commitKeyNames.keys()].some((k) => words(k).join(' ') === words(w).join(' ')),
    );
    if (key !== undefined)
      problems.push(`navigation_words: “${key}” names a commit key, which commits`);
    const verbs = indexCommitWords([
      ...b.commitWords,
      ...(isStringArray(agent.commit_words) ? agent.commit_words : []),
    ]);
    const verb = agent.navigation_words.find((w) => findCommitWord(w, verbs) !== null);
    if (verb !== undefined)
      problems.push(
        `navigation_words: “${verb}” holds a committing verb, which a navigation word cannot`,
      );
  }
  if (unlabelled != null && unlabelled !== 'read' && unlabelled !== 'write') {
    problems.push('unlabelled_clicks must be "read" or "write"');
  }
  const screenRules = readScreenRules(agent.screen_rules, b, mode);
  problems.push(...screenRules.problems);
  if (problems.length > 0) throw new RulesError(problems);
  return screenRules.compiled;
}

/** The agent's words that the defaults do not hold, folded as the index matches them. */
function agentOnly(defaults: readonly string[], own: readonly string[]): ReadonlySet<string> {
  const known = new Set(defaults.map((w) => words(w).join(' ')));
  return new Set(own.map((w) => words(w).join(' ')).filter((w) => w !== '' && !known.has(w)));
}

let defaultRules: Rules | null = null;

/**
 * The rules for an agent: the defaults plus the agent's own words. Throws `RulesError` for an
 * invalid agent configuration (so the settings module can call it to check a config before
 * saving it). `stored` is for a configuration saved earlier, when a step is judged: a screen rule
 * pattern that cannot be run then matches nothing (`screenRules.unusable` names it) instead of
 * throwing. The result is frozen; build it once per run, not per step.
 */
export function loadRules(agent?: AgentRules, mode: ReadMode = 'save'): Rules {
  if (!agent && defaultRules) return defaultRules;
  const b = loadBase();
  const screenRules = agent ? checkAgent(agent, b, mode) : NO_SCREEN_RULES;
  const commitWords = Object.freeze([
    ...b.commitWords,
    ...(agent?.commit_words ?? []),
    ...b.commitKeyNames.keys(),
  ]);
  const navigationWords = Object.freeze([...b.navigationWords, ...(agent?.navigation_words ?? [])]);
  const rules: Rules = Object.freeze({
    commitWords,
    commitKeyNames: b.commitKeyNames,
    navigationWords,
    navigationIndex: indexCommitWords(navigationWords),
    agentNavigationWords: agentOnly(b.navigationWords, agent?.navigation_words ?? []),
    commitIndex: indexCommitWords(commitWords),
    commitNear: nearTargets(commitWords),
    secretFields: b.secretFields,
    ocrMinConfidence: b.ocrMinConfidence,
    navigationKeys: b.navigationKeys,
    commitKeys: b.commitKeys,
    containerRoles: b.containerRoles,
    textFieldRoles: b.textFieldRoles,
    commandRoles: b.commandRoles,
    valueRoles: b.valueRoles,
    navigationRoles: b.navigationRoles,
    screenRules,
    unlabelledClicks: agent?.unlabelled_clicks ?? 'write',
    keySpellings: b.keySpellings,
  });
  if (!agent) defaultRules = rules;
  return rules;
}
