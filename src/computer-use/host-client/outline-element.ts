/**
 * One element of a screen host's outline (`GET /elements`, docs/screen-host.md), checked and copied: only the
 * fields docs/screen-host.md names, in their types and bounds, and never a password field's value.
 */
import {
  MESSAGE_TYPES,
  type MessageType,
  OUTLINE_AREAS,
  OUTLINE_STATES,
  type OutlineArea,
  type OutlineState,
} from '@warden/protocol';
import type { OutlineElement } from '../actions/action.types';

/**
 * The longest `value` of an outline element Warden takes (UTF-16 code units): a field's content, for
 * people and change lists, not a document. A longer one is left out, as if the host served none.
 */
export const MAX_OUTLINE_VALUE = 2000;

/** The longest `description` Warden takes: a tooltip, not a document; a longer one is left out. */
export const MAX_OUTLINE_DESCRIPTION = 500;

/** An element that passed `outlineProblem`. */
export interface RawElement {
  id: string;
  role: string;
  name: string;
  rect: { x: number; y: number; width: number; height: number };
  description?: string | null;
  value?: string | null;
  password?: boolean;
  focused?: boolean;
  states?: unknown[];
  area?: unknown;
  message_type?: unknown;
}

/** What is wrong with an element as the host sent it, or null. */
export function outlineProblem(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'is not an object';
  const e = item as Record<string, unknown>;
  for (const field of ['id', 'role', 'name']) {
    if (typeof e[field] !== 'string') return `has no ${field} string`;
  }
  const rect = e.rect as Record<string, unknown> | null;
  if (typeof rect !== 'object' || rect === null) return 'has no rect';
  for (const field of ['x', 'y', 'width', 'height']) {
    const v = rect[field];
    if (typeof v !== 'number' || !Number.isFinite(v)) return `has no numeric rect.${field}`;
  }
  if ((rect.width as number) < 0 || (rect.height as number) < 0) return 'has a negative rect size';
  for (const field of ['password', 'focused']) {
    if (e[field] !== undefined && typeof e[field] !== 'boolean')
      return `has a ${field} that is not true or false`;
  }
  for (const field of ['value', 'description']) {
    if (e[field] !== undefined && e[field] !== null && typeof e[field] !== 'string') {
      return `has a ${field} that is not a string`;
    }
  }
  if (e.states !== undefined && e.states !== null) {
    if (
      !Array.isArray(e.states) ||
      e.states.length > 32 ||
      !e.states.every((x) => typeof x === 'string')
    )
      return 'has states that are not a list of at most 32 strings';
  }
  for (const field of ['area', 'message_type']) {
    if (e[field] !== undefined && e[field] !== null && typeof e[field] !== 'string')
      return `has ${field === 'area' ? 'an' : 'a'} ${field} that is not a string`;
  }
  return null;
}

const STATES: ReadonlySet<string> = new Set(OUTLINE_STATES);
const AREAS: ReadonlySet<string> = new Set(OUTLINE_AREAS);
const TYPES: ReadonlySet<string> = new Set(MESSAGE_TYPES);

/**
 * Only the fields of docs/screen-host.md, copied: nothing else the host sent comes along. A state, area or
 * message type Warden does not know is left out (a newer host's word is not guessed at); the
 * focus is the `focused` state (or a host's older `focused: true`).
 */
export function toOutlineElement(e: RawElement): OutlineElement {
  const element: OutlineElement = {
    id: e.id,
    role: e.role,
    name: e.name,
    rect: { x: e.rect.x, y: e.rect.y, width: e.rect.width, height: e.rect.height },
  };
  if (typeof e.description === 'string' && e.description.length <= MAX_OUTLINE_DESCRIPTION) {
    element.description = e.description;
  }
  // A password field's value is never taken, whatever the host sent (docs/screen-host.md).
  if (typeof e.value === 'string' && e.value.length <= MAX_OUTLINE_VALUE && e.password !== true) {
    element.value = e.value;
  }
  if (e.password !== undefined) element.password = e.password;
  const states = [...new Set((e.states ?? []) as string[])].filter((x) => STATES.has(x));
  if (states.length > 0) element.states = states as OutlineState[];
  if (e.focused === true || states.includes('focused')) element.focused = true;
  else if (e.focused === false) element.focused = false;
  if (typeof e.area === 'string' && AREAS.has(e.area)) element.area = e.area as OutlineArea;
  if (typeof e.message_type === 'string' && TYPES.has(e.message_type)) {
    element.message_type = e.message_type as MessageType;
  }
  return element;
}
