/**
 * The classification rules as data: config/classification.json (compiled into the build, so the
 * same file is used from src/ under tests and from dist/src/ in production), plus what an agent
 * adds (`commit_words`, `unlabelled_clicks`, `screen_rules`, DESIGN §9). Checked once, when first loaded.
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
import { type CommitWordIndex, indexCommitWords, words } from './commit-words';
import { type NearTargets, nearTargets } from './near-miss';
import {
  NO_SCREEN_RULES,
  type ReadMode,
  readScreenRules,
  type ScreenRules,
} from './screen-rules-read';
import { indexSecretFieldWords, type SecretFieldWords } from './secret-fields';

export interface Rules {
  /** Every committing verb in force, as configured (defaults first, then the agent's). */
  readonly commitWords: readonly string[];
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
  /** The names (lower case) an outline gives the command field, for `command_field` screen rules. */
  readonly commandFieldNames: ReadonlySet<string>;
  /** The agent's screen rules (DESIGN §5), compiled; none by default. */
  readonly screenRules: ScreenRules;
  /**
   * What a click is when nothing could read its label: a write by default; `read` (a weakening)
   * takes effect only on a screen whose host serves an outline.
   */
  readonly unlabelledClicks: 'read' | 'write';
  readonly keySpellings: KeySpellings;
}

/** The part of an agent's configuration (DESIGN §9) that changes classification. */
export interface AgentRules {
  commit_words?: string[] | null;
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

interface RulesFile {
  commit_words: Record<string, string[]>;
  secret_field_words: Record<string, string[]>;
  ocr_min_confidence: number;
  container_roles: string[];
  text_field_roles: string[];
  command_field_names: string[];
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
  if (!isStringArray(f.command_field_names)) problems.push('command_field_names must be a list');
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
  secretFields: SecretFieldWords;
  ocrMinConfidence: number;
  containerRoles: ReadonlySet<string>;
  textFieldRoles: ReadonlySet<string>;
  commandFieldNames: ReadonlySet<string>;
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
  for (const w of [...commitWords, ...secretFieldWords]) {
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
  for (const r of textFieldRoles) {
    if (containerRoles.has(r))
      throw new RulesError(`classification.json: role “${r}” is both a container and a text field`);
  }
  base = {
    commitWords,
    secretFields: indexSecretFieldWords(secretFieldWords),
    ocrMinConfidence: file.ocr_min_confidence,
    containerRoles,
    textFieldRoles,
    commandFieldNames: new Set(file.command_field_names.map((n) => n.toLowerCase())),
    navigationKeys,
    commitKeys,
    keySpellings,
  };
  return base;
}

/** Checks what an agent adds, naming every problem; its screen rules come back compiled. */
function checkAgent(agent: AgentRules, b: Base, mode: ReadMode): ScreenRules {
  const problems: string[] = [];
  const { commit_words: extra, unlabelled_clicks: unlabelled } = agent;
  if (extra != null) {
    if (!isStringArray(extra)) {
      problems.push('commit_words must be a list of strings');
    } else if (extra.length > MAX_AGENT_COMMIT_WORDS) {
      problems.push(`commit_words: at most ${MAX_AGENT_COMMIT_WORDS} words`);
    } else {
      const bad = extra.find((w) => w.length > MAX_COMMIT_WORD_LENGTH || words(w).length === 0);
      if (bad !== undefined) {
        problems.push(
          `commit_words: “${bad.slice(0, MAX_COMMIT_WORD_LENGTH)}” must have letters or digits and at most ${MAX_COMMIT_WORD_LENGTH} characters`,
        );
      }
    }
  }
  if (unlabelled != null && unlabelled !== 'read' && unlabelled !== 'write') {
    problems.push('unlabelled_clicks must be "read" or "write"');
  }
  const screenRules = readScreenRules(agent.screen_rules, b, mode);
  problems.push(...screenRules.problems);
  if (problems.length > 0) throw new RulesError(problems);
  return screenRules.compiled;
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
  const commitWords = Object.freeze([...b.commitWords, ...(agent?.commit_words ?? [])]);
  const rules: Rules = Object.freeze({
    commitWords,
    commitIndex: indexCommitWords(commitWords),
    commitNear: nearTargets(commitWords),
    secretFields: b.secretFields,
    ocrMinConfidence: b.ocrMinConfidence,
    navigationKeys: b.navigationKeys,
    commitKeys: b.commitKeys,
    containerRoles: b.containerRoles,
    textFieldRoles: b.textFieldRoles,
    commandFieldNames: b.commandFieldNames,
    screenRules,
    unlabelledClicks: agent?.unlabelled_clicks ?? 'write',
    keySpellings: b.keySpellings,
  });
  if (!agent) defaultRules = rules;
  return rules;
}
