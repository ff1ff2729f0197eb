/**
 * The sim's keyboard: typed text into the focused field (insert or overwrite, the caret and the
 * selection), the editing keys, Tab and the arrows between fields and menu rows, and the keys that
 * run a function (Enter, F3, F8, F11, Ctrl+S and the others).
 */
import type { ParsedKey } from '@warden/protocol';
import { type CommandHost, runCommand } from './sim-commands';
import {
  type FieldWidget,
  fieldsOf,
  type Layout,
  MENU_ROWS,
  TABLE_VISIBLE_ROWS,
} from './sim-layout';

/** What the keyboard may read and do in the app, beyond what a function may. */
export interface KeyHost extends CommandHost {
  layout(): Layout;
  focusedField(): FieldWidget | null;
  /** Scrolls the overview's item table by this many rows (negative: up). */
  scrollTable(delta: number): void;
}

/** Text as typed: a newline is Enter, a tab is Tab, anything else goes into the focused field. */
export function typeText(host: KeyHost, text: string): void {
  for (const ch of text) {
    if (ch === '\n') pressKey(host, { modifiers: [], base: 'Enter' });
    else if (ch === '\t') pressKey(host, { modifiers: [], base: 'Tab' });
    else insert(host, ch);
  }
}

function insert(host: KeyHost, ch: string): void {
  const field = host.focusedField();
  if (!field || !field.editable) return;
  const s = host.state;
  let value = s.values[field.id] ?? '';
  if (s.selectAll) {
    value = '';
    s.caret = 0;
    s.selectAll = false;
  }
  const chars = [...value];
  if (s.overwrite && s.caret < chars.length) {
    chars[s.caret] = ch;
  } else {
    if (chars.length >= field.maxLength) return;
    chars.splice(s.caret, 0, ch);
  }
  s.caret += 1;
  setValue(s, field.id, chars.join(''));
}

/** A field's new content, typed by the user: the field is modified until the next dialog step. */
function setValue(s: KeyHost['state'], id: string, value: string): void {
  if ((s.values[id] ?? '') !== value && !s.modified.includes(id)) s.modified.push(id);
  s.values[id] = value;
}

export function pressKey(host: KeyHost, key: ParsedKey): void {
  const mods = new Set(key.modifiers);
  const plain = mods.size === 0;
  const s = host.state;
  const field = host.focusedField();
  if (mods.has('Ctrl') && !mods.has('Alt') && !mods.has('Shift') && key.base === 'S')
    return runCommand(host, 'save');
  if (key.base === 'F3' && mods.size === 1 && mods.has('Shift')) return runCommand(host, 'exit');
  if (key.base === 'Tab' && (plain || (mods.size === 1 && mods.has('Shift'))))
    return tab(host, mods.has('Shift'));
  if (!plain && !(mods.size === 1 && mods.has('Shift'))) return;
  const shift = mods.has('Shift');
  switch (key.base) {
    case 'Enter':
      return runCommand(host, 'enter');
    case 'F3':
      return runCommand(host, 'back');
    case 'F12':
    case 'Escape':
      return runCommand(host, 'cancel');
    case 'F8':
      return runCommand(host, s.screen === 'va-initial' ? 'continue' : 'execute-unavailable');
    case 'F1':
      return runCommand(host, 'help');
    case 'F11':
      return runCommand(host, 'save');
    case 'PageDown':
    case 'PageUp':
      return host.scrollTable(key.base === 'PageDown' ? TABLE_VISIBLE_ROWS : -TABLE_VISIBLE_ROWS);
    case 'ArrowUp':
    case 'ArrowDown':
      if (s.screen === 'menu') return moveMenuSelection(host, key.base === 'ArrowDown' ? 1 : -1);
      return tab(host, key.base === 'ArrowUp');
    case 'Insert':
      s.overwrite = !s.overwrite;
      return;
    case 'Space':
      return insert(host, ' ');
  }
  if (!field || !field.editable) return;
  const value = [...(s.values[field.id] ?? '')];
  switch (key.base) {
    case 'Backspace':
    case 'Delete':
      if (s.selectAll) {
        setValue(s, field.id, '');
        s.caret = 0;
        s.selectAll = false;
        return;
      }
      if (key.base === 'Backspace' && s.caret > 0) {
        value.splice(s.caret - 1, 1);
        s.caret -= 1;
      } else if (key.base === 'Delete' && s.caret < value.length) {
        value.splice(s.caret, 1);
      }
      setValue(s, field.id, value.join(''));
      return;
    case 'Home':
      s.selectAll = false;
      s.caret = 0;
      return;
    case 'End':
      s.selectAll = false;
      s.caret = value.length;
      return;
    case 'ArrowLeft':
      s.selectAll = false;
      s.caret = Math.max(0, s.caret - 1);
      return;
    case 'ArrowRight':
      s.selectAll = false;
      s.caret = Math.min(value.length, s.caret + 1);
      return;
  }
  if (/^[A-Z]$/.test(key.base)) return insert(host, shift ? key.base : key.base.toLowerCase());
  if (/^[0-9]$/.test(key.base) && !shift) return insert(host, key.base);
}

function tab(host: KeyHost, backwards: boolean): void {
  const fields = fieldsOf(host.layout()).filter((f) => f.id !== 'cmd');
  const editable = fields.filter((f) => f.editable);
  const order = editable.length > 0 ? editable : fields;
  if (order.length === 0) return;
  const at = order.findIndex((f) => f.id === host.state.focus);
  const next =
    at < 0
      ? backwards
        ? order.length - 1
        : 0
      : (at + (backwards ? -1 : 1) + order.length) % order.length;
  host.focus(order[next].id);
}

function moveMenuSelection(host: KeyHost, delta: number): void {
  const current = host.state.menuSelection ?? -1;
  host.state.menuSelection = Math.min(MENU_ROWS.length - 1, Math.max(0, current + delta));
}
