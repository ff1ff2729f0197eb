/**
 * Building the page node by node. Text always goes in as text (textContent), never as HTML: the
 * page's CSP enforces Trusted Types, so an HTML string would not even be accepted.
 */
import type { Action } from './api-types';
import { actionInWords, typedPieces } from './words';

/** What goes into an element: text (a number as its digits) or a node; nothing for the rest. */
export type Child = string | number | Node | null | undefined | false;
/** Attributes by name; `true` is an empty attribute, nothing is left out, `onX` are listeners. */
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

function applyAttrs(el: Element, attrs: Attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') {
      el.addEventListener(name.replace(/^on/, '').toLowerCase(), value);
    } else if (value === true) {
      el.setAttribute(name, '');
    } else {
      el.setAttribute(name, String(value));
    }
  }
}

function append(el: Element, children: Child[]) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
}

/** An HTML element: `h('a', {href: '/console'}, 'Inbox')`. Attributes named `onX` are listeners. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Typed text in full, as it will be typed: every character a person could not see is a mark
 * (`⇥`, `↵`, `␍`, `⟨U+200B ZERO WIDTH SPACE⟩`) drawn apart from the text, so that a mark is never
 * taken for a typed character and a typed `⇥` never for a tab; after a newline's mark the text
 * goes on on the next line. Long text wraps (console.css `.typed`); nothing is shortened.
 */
export function typedText(text: string) {
  const span = h('span', { class: 'typed' });
  for (const piece of typedPieces(text)) {
    if (typeof piece === 'string') {
      span.append(piece);
      continue;
    }
    span.append(
      h(
        'span',
        { class: 'typed-mark', role: 'img', 'aria-label': `(${piece.name})`, title: piece.name },
        piece.mark,
      ),
    );
    if (piece.newline) span.append('\n');
  }
  return span;
}

/**
 * An action in words for a heading or a list, as nodes: typing shows its text in full with its
 * marks (`typedText`), any other action is `actionInWords` without the point on the screen (the
 * screenshot shows where; the exact action is in the page's details).
 */
export function actionTitle(action: Action | null | undefined, why?: string | null): Child[] {
  if (action?.action === 'type' && typeof action.text === 'string') {
    return ['Type “', typedText(action.text), '”'];
  }
  return [actionInWords(action, why, { where: false })];
}

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element, for the marks drawn over a screenshot. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Labels each body cell of a table with its column's heading (`data-label`), which a phone shows
 * before the cell when the table is read as cards (console.css `table.cards`). Call it after
 * filling the body.
 */
export function labelCells(table: HTMLTableElement) {
  const labels = [...(table.tHead?.rows[0]?.cells ?? [])].map((c) => c.textContent ?? '');
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      [...row.cells].forEach((cell, i) => {
        if (labels[i] && cell.colSpan === 1) cell.dataset.label = labels[i];
      });
    }
  }
}

/** A description list from label/value pairs, leaving out the pairs without a value. */
export function facts(pairs: Array<[string, Child | Child[]]>, className = 'facts') {
  const dl = h('dl', { class: className });
  for (const [label, value] of pairs) {
    if (value === null || value === undefined || value === false || value === '') continue;
    const dd = h('dd');
    append(dd, Array.isArray(value) ? value : [value]);
    dl.append(h('div', {}, h('dt', {}, label), dd));
  }
  return dl;
}

/** Waits, but wakes up at once when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Calls `tick` now and then every `ms` after the previous call finished, until the signal aborts
 * or `tick` answers false. A hidden tab is not polled; it catches up as soon as it is shown.
 */
export async function every(ms: number, signal: AbortSignal, tick: () => Promise<boolean | void>) {
  while (!signal.aborted) {
    if (document.visibilityState === 'hidden') {
      await new Promise<void>((resolve) => {
        const wake = () => resolve();
        document.addEventListener('visibilitychange', wake, { once: true });
        signal.addEventListener('abort', wake, { once: true });
      });
      continue;
    }
    let more;
    try {
      more = await tick();
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
    if (more === false) return;
    await sleep(ms, signal);
  }
}
