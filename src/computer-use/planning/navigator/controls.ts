/**
 * Which elements of the outline the navigator may press: command controls as Warden's rules place
 * them (`control_roles.command` in config/classification.json: buttons, toolbar buttons, menu
 * items, links), tabs, and the entries of a menu tree or list (SAP Easy Access lists its
 * transactions as tree nodes; the sim serves them as `listitem`). Never a field (it never types)
 * nor a control that changes a value. Pure.
 */
import { type OutlineElement, roleKey, type Rules } from '../../actions';
import { centreOf } from '../scripted-planner';

/** Tabs: navigation, but a person presses them to go somewhere. */
const TAB_ROLES = new Set(['tab', 'pagetab', 'tabitem']);
/** Entries of a menu tree or list. */
const ENTRY_ROLES = new Set(['listitem', 'treeitem']);
/** Longer names are not controls a person reads (and a click's `target` holds at most 200). */
export const CONTROL_NAME_MAX = 200;

/** A control the navigator may press: its name, its role, and the point it would click. */
export interface Control {
  name: string;
  role: string;
  x: number;
  y: number;
}

function usableRect(e: OutlineElement): boolean {
  const r = e.rect as Partial<OutlineElement['rect']> | undefined;
  return (
    typeof r === 'object' &&
    r !== null &&
    [r.x, r.y, r.width, r.height].every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    (r.width as number) > 0 &&
    (r.height as number) > 0
  );
}

function inside(r: OutlineElement['rect'], x: number, y: number): boolean {
  return x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;
}

function pressableRole(role: unknown, rules: Rules): boolean {
  const key = roleKey(role);
  return rules.commandRoles.has(key) || TAB_ROLES.has(key) || ENTRY_ROLES.has(key);
}

/**
 * The pressable controls of the screen, in outline order: named, not disabled, their centre on
 * the screen; while a modal dialog is open, only those inside it.
 */
export function pressableControls(
  outline: readonly OutlineElement[],
  screen: { width: number; height: number },
  rules: Rules,
): Control[] {
  const modal = outline.find(
    (e) => Array.isArray(e?.states) && e.states.includes('modal') && usableRect(e),
  );
  const controls: Control[] = [];
  for (const e of outline) {
    if (!e || !pressableRole(e.role, rules) || !usableRect(e)) continue;
    const name = typeof e.name === 'string' ? e.name.trim() : '';
    if (name === '' || [...name].length > CONTROL_NAME_MAX) continue;
    if (Array.isArray(e.states) && e.states.includes('disabled')) continue;
    const { x, y } = centreOf(e);
    if (x < 0 || y < 0 || x >= screen.width || y >= screen.height) continue;
    if (modal && !inside(modal.rect, x, y)) continue;
    controls.push({ name, role: String(e.role), x, y });
  }
  return controls;
}
