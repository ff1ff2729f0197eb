/**
 * Key names (docs/rules.md, docs/screen-host.md): the canonical form Warden sends and the screen host accepts, and the
 * grammar that turns any spelling into it.
 *
 * Canonical form: modifiers in the order Ctrl, Alt, Shift, Meta, joined by `+`, then one base key.
 * Warden normalises whatever a model wrote (`canonicalKey`) before its rules see it; the host
 * accepts only the canonical spelling (`parseKey`), so that a key that reached the desktop is
 * exactly the key that was checked. The spellings themselves (`Return`, `Prior`, `cmd` …) are
 * Warden's data (config/classification.json), handed in as `KeySpellings`.
 */

export const MODIFIERS = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
export type Modifier = (typeof MODIFIERS)[number];

const NAMED_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Space',
] as const;

/** Every base key: A–Z, 0–9, the named keys and F1–F24. */
export const BASE_KEYS: readonly string[] = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  ...'0123456789',
  ...NAMED_KEYS,
  ...Array.from({ length: 24 }, (_, i) => `F${i + 1}`),
];

const BASE_KEY_SET: ReadonlySet<string> = new Set(BASE_KEYS);

export function isBaseKey(name: string): boolean {
  return BASE_KEY_SET.has(name);
}

function isModifier(name: string): name is Modifier {
  return (MODIFIERS as readonly string[]).includes(name);
}

/** A canonical key taken apart. */
export interface ParsedKey {
  /** In canonical order, each once. */
  modifiers: Modifier[];
  /** `A`–`Z`, `0`–`9`, `F1`–`F24` or one of the named keys. */
  base: string;
}

/** The longest string `parseKey` reads (the longest canonical key has 30 characters). */
export const MAX_CANONICAL_KEY_LENGTH = 40;

/**
 * Parses a key in canonical form, as the screen host takes it in `POST /action`; returns a reason
 * instead when it is not one (`Return`, `ctrl+s`, `Shift+Ctrl+S`, a modifier alone).
 */
export function parseKey(key: string): ParsedKey | { error: string } {
  if (key.length === 0 || key.length > MAX_CANONICAL_KEY_LENGTH) {
    return { error: `key must be 1 to ${MAX_CANONICAL_KEY_LENGTH} characters` };
  }
  const parts = key.split('+');
  const base = parts.pop()!;
  if (!isBaseKey(base)) return { error: `unknown key "${base}"` };
  let last = -1;
  const modifiers: Modifier[] = [];
  for (const part of parts) {
    const index = (MODIFIERS as readonly string[]).indexOf(part);
    if (index < 0) return { error: `unknown modifier "${part}"` };
    if (index <= last)
      return { error: 'modifiers must be in the order Ctrl+Alt+Shift+Meta, each once' };
    last = index;
    modifiers.push(MODIFIERS[index]);
  }
  return { modifiers, base };
}

// Normalisation: any spelling to the canonical form.

/** Spellings (squashed, see `squash`) mapped to what they mean. */
export interface KeySpellings {
  /** e.g. `return` → `Enter`, `isolefttab` → `Shift+Tab`. */
  keys: ReadonlyMap<string, string>;
  /** e.g. `control` → `Ctrl`, `super` → `Meta`. */
  modifiers: ReadonlyMap<string, Modifier>;
}

/** Lower case without spaces, underscores or hyphens: `Page_Up`, `page up`, `PAGE-UP` → `pageup`. */
export function squash(spelling: string): string {
  return spelling.toLowerCase().replace(/[\s_-]+/g, '');
}

const CANONICAL_BASE = new Map(BASE_KEYS.map((k) => [squash(k), k]));

interface Parsed {
  modifiers: Set<Modifier>;
  base: string | null;
}

function lookupBase(token: string, spellings: KeySpellings): Parsed | null {
  const s = squash(token);
  if (s === '') return null;
  const alias = spellings.keys.get(s);
  if (alias !== undefined) return parseCanonical(alias);
  const base = CANONICAL_BASE.get(s);
  return base === undefined ? null : { modifiers: new Set(), base };
}

/** A canonical key, or a modifier alone (`Meta` for `win`). Used for alias targets. */
function parseCanonical(key: string): Parsed | null {
  if (isModifier(key)) return { modifiers: new Set([key]), base: null };
  const parsed = parseKey(key);
  return 'error' in parsed ? null : { modifiers: new Set(parsed.modifiers), base: parsed.base };
}

function format({ modifiers, base }: Parsed): string | null {
  const mods = MODIFIERS.filter((m) => modifiers.has(m));
  if (base === null) return mods.length === 1 ? mods[0] : null;
  return [...mods, base].join('+');
}

/** Splits `ctrl+s`, `Ctrl-S`, `ctrl s`; `+` wins over `-`, `-` over spaces. */
function tokens(input: string): string[] {
  if (input.includes('+')) return input.split('+').map((t) => t.trim());
  if (input.includes('-')) return input.split('-').map((t) => t.trim());
  return input.split(/\s+/);
}

/** The longest input Warden tries to read as a key. */
export const MAX_KEY_LENGTH = 64;

/**
 * The canonical form of a key as anyone might write it (`ctrl-s` → `Ctrl+S`, `Return` → `Enter`
 * with the default spellings): modifiers in the order Ctrl, Alt, Shift, Meta joined by `+` before
 * the base key; a lone modifier (`Meta` for `win`) stands alone. Null when it is not a key.
 * Whether the key is allowed is a separate question (Warden's key lists).
 */
export function canonicalKey(input: string, spellings: KeySpellings): string | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_KEY_LENGTH) return null;
  if (input === ' ') return 'Space';
  const trimmed = input.trim();
  if (trimmed === '') return null;

  // A whole spelling first: `Page Up`, `KP_Enter`, `ISO_Left_Tab`, `s`.
  const whole = lookupBase(trimmed, spellings) ?? lookupModifier(trimmed, spellings);
  if (whole) return format(whole);

  const parts = tokens(trimmed);
  if (parts.some((p) => p === '')) return null;
  const modifiers = new Set<Modifier>();
  let i = 0;
  for (; i < parts.length; i++) {
    const m = spellings.modifiers.get(squash(parts[i])) ?? canonicalModifier(parts[i]);
    if (m === undefined) break;
    modifiers.add(m);
  }
  const rest = parts.slice(i);
  if (rest.length === 0) return format({ modifiers, base: null });
  const base = lookupBase(rest.join(' '), spellings);
  if (!base || base.base === null) return null;
  for (const m of base.modifiers) modifiers.add(m);
  return format({ modifiers, base: base.base });
}

function canonicalModifier(token: string): Modifier | undefined {
  const s = squash(token);
  return MODIFIERS.find((m) => m.toLowerCase() === s);
}

function lookupModifier(token: string, spellings: KeySpellings): Parsed | null {
  const m = spellings.modifiers.get(squash(token)) ?? canonicalModifier(token);
  return m === undefined ? null : { modifiers: new Set([m]), base: null };
}

/**
 * True for a string already in canonical form (what `canonicalKey` returns): a key `parseKey`
 * accepts, or a modifier alone.
 */
export function isCanonicalKey(key: string): boolean {
  return parseCanonical(key) !== null;
}
