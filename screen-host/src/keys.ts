/**
 * Keys as Warden sends them (its canonical form) and their names on each backend.
 *
 * Canonical form: modifiers in the order Ctrl, Alt, Shift, Meta, joined by `+`, then one base key.
 * Warden normalises whatever a model wrote before its rules see it; the host accepts only the
 * canonical spelling, so that a key that reached the desktop is exactly the key that was checked.
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

export interface ParsedKey {
  modifiers: Modifier[];
  /** `A`–`Z`, `0`–`9`, `F1`–`F24` or one of the named keys. */
  base: string;
}

export function isBaseKey(name: string): boolean {
  if (/^[A-Z0-9]$/.test(name)) return true;
  const f = /^F([1-9]\d?)$/.exec(name);
  if (f) return Number(f[1]) <= 24;
  return (NAMED_KEYS as readonly string[]).includes(name);
}

/** Parses a canonical key; returns a reason instead when it is not one. */
export function parseKey(key: string): ParsedKey | { error: string } {
  if (key.length === 0 || key.length > 40) return { error: 'key must be 1 to 40 characters' };
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

const XDOTOOL_NAMES: Record<string, string> = {
  Enter: 'Return',
  Tab: 'Tab',
  Escape: 'Escape',
  Backspace: 'BackSpace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'Prior',
  PageDown: 'Next',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Space: 'space',
};
const XDOTOOL_MODIFIERS: Record<Modifier, string> = {
  Ctrl: 'ctrl',
  Alt: 'alt',
  Shift: 'shift',
  Meta: 'super',
};

/** The xdotool key chord, e.g. `ctrl+s`. Letters are lower-case keysyms so that Ctrl+S is not Ctrl+Shift+S. */
export function toXdotoolKey(key: ParsedKey): string {
  const base = /^[A-Z]$/.test(key.base)
    ? key.base.toLowerCase()
    : (XDOTOOL_NAMES[key.base] ?? key.base);
  return [...key.modifiers.map((m) => XDOTOOL_MODIFIERS[m]), base].join('+');
}

export interface VirtualKey {
  vk: number;
  /** Needs KEYEVENTF_EXTENDEDKEY, or Windows takes it for the numeric keypad twin. */
  extended: boolean;
}

const VK_NAMED: Record<string, VirtualKey> = {
  Enter: { vk: 0x0d, extended: false },
  Tab: { vk: 0x09, extended: false },
  Escape: { vk: 0x1b, extended: false },
  Backspace: { vk: 0x08, extended: false },
  Delete: { vk: 0x2e, extended: true },
  Insert: { vk: 0x2d, extended: true },
  Home: { vk: 0x24, extended: true },
  End: { vk: 0x23, extended: true },
  PageUp: { vk: 0x21, extended: true },
  PageDown: { vk: 0x22, extended: true },
  ArrowLeft: { vk: 0x25, extended: true },
  ArrowUp: { vk: 0x26, extended: true },
  ArrowRight: { vk: 0x27, extended: true },
  ArrowDown: { vk: 0x28, extended: true },
  Space: { vk: 0x20, extended: false },
};
const VK_MODIFIERS: Record<Modifier, VirtualKey> = {
  Ctrl: { vk: 0x11, extended: false },
  Alt: { vk: 0x12, extended: false },
  Shift: { vk: 0x10, extended: false },
  Meta: { vk: 0x5b, extended: true },
};

/** Windows virtual keys, modifiers first: pressed in this order, released in reverse. */
export function toVirtualKeys(key: ParsedKey): VirtualKey[] {
  let base: VirtualKey;
  if (/^[A-Z0-9]$/.test(key.base)) base = { vk: key.base.charCodeAt(0), extended: false };
  else if (/^F\d+$/.test(key.base))
    base = { vk: 0x70 + Number(key.base.slice(1)) - 1, extended: false };
  else base = VK_NAMED[key.base];
  return [...key.modifiers.map((m) => VK_MODIFIERS[m]), base];
}
