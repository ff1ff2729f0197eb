/**
 * Key names: the canonical form the screen host accepts, and the parser that turns any spelling
 * into it. The spellings themselves (`Return`, `Prior`, `cmd` …) are data in
 * config/classification.json; this file only knows the canonical names and the grammar.
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

/** Every base key the screen host accepts: A–Z, 0–9, the named keys and F1–F24. */
export const BASE_KEYS: readonly string[] = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  ...'0123456789',
  ...NAMED_KEYS,
  ...Array.from({ length: 24 }, (_, i) => `F${i + 1}`),
];

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

/** Parses a string already in canonical shape (`Shift+Tab`, `F4`). Used for alias targets. */
function parseCanonical(key: string): Parsed | null {
  const parts = key.split('+');
  const modifiers = new Set<Modifier>();
  for (const part of parts.slice(0, -1)) {
    if (!(MODIFIERS as readonly string[]).includes(part)) return null;
    modifiers.add(part as Modifier);
  }
  const last = parts[parts.length - 1];
  if (BASE_KEYS.includes(last)) return { modifiers, base: last };
  if (parts.length === 1 && (MODIFIERS as readonly string[]).includes(last)) {
    return { modifiers: new Set([last as Modifier]), base: null };
  }
  return null;
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
 * The canonical form of a key: modifiers in the order Ctrl, Alt, Shift, Meta joined by `+` before
 * the base key; a lone modifier (`Meta` for `win`) stands alone. Null when it is not a key.
 * Whether the key is allowed is a separate question (the rules' key lists).
 */
export function parseKey(input: string, spellings: KeySpellings): string | null {
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

/** True for a string already in canonical form (what `parseKey` returns). */
export function isCanonicalKey(key: string): boolean {
  const parsed = parseCanonical(key);
  return parsed !== null && format(parsed) === key;
}
