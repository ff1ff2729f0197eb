/**
 * The classification rules as data: config/classification.json (compiled into the build, so the
 * same file is used from src/ under tests and from dist/src/ in production), plus what an agent
 * adds (`commit_words`, `navigation_words`, `unlabelled_clicks`, `screen_rules`, docs/api.md). Checked
 * once, when first loaded.
 */
import type { KeySpellings } from '@warden/protocol';
import defaults from '../../../config/classification.json';
import { type CommitWordIndex, findCommitWord, indexCommitWords, words } from './commit-words';
import { type NearTargets, nearTargets } from './near-miss';
import {
  NO_SCREEN_RULES,
  type ReadMode,
  readScreenRules,
  type ScreenRules,
} from './screen-rules-read';
import {
  buildSpellings,
  checkFile,
  commitKeySpellings,
  isStringArray,
  keySet,
  RulesError,
} from './rules-file';
import { indexSecretFieldWords, type SecretFieldWords } from './secret-fields';

export { RulesError } from './rules-file';

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

/** Limits on what an agent may add. */
export const MAX_AGENT_COMMIT_WORDS = 200;
export const MAX_COMMIT_WORD_LENGTH = 64;
export const MAX_AGENT_NAVIGATION_WORDS = 200;

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
