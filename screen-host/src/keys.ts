/**
 * Canonical keys (@warden/protocol) as each backend presses them: xdotool keysyms on x11, virtual
 * keys on Windows. The host accepts only canonical keys (`parseKey`), so a key that reached the
 * desktop is exactly the key Warden checked.
 */
import type { Modifier, ParsedKey } from '@warden/protocol';

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
