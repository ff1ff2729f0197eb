// @ts-check
/**
 * Building the page node by node. Text always goes in as text (textContent), never as HTML: the
 * page's CSP enforces Trusted Types, so an HTML string would not even be accepted.
 */

import { actionInWords, typedPieces } from './words.js';

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs
 */

/**
 * @param {Element} el
 * @param {Attrs} attrs
 */
function applyAttrs(el, attrs) {
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

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
}

/**
 * An HTML element: `h('a', {href: '/console'}, 'Inbox')`. Attributes named `onX` are listeners.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
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
 * @param {string} text
 */
export function typedText(text) {
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
 * An action in words, as nodes: typing shows its text in full with its marks (`typedText`), any
 * other action is `actionInWords`.
 * @param {import('./api-types.js').Action | null | undefined} action
 * @param {string | null} [why]
 * @returns {Child[]}
 */
export function actionTitle(action, why) {
  if (action?.action === 'type' && typeof action.text === 'string') {
    return ['Type “', typedText(action.text), '”'];
  }
  return [actionInWords(action, why)];
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element, for the marks drawn over a screenshot.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * A description list from label/value pairs, leaving out the pairs without a value.
 * @param {Array<[string, Child | Child[]]>} pairs
 * @param {string} [className]
 */
export function facts(pairs, className = 'facts') {
  const dl = h('dl', { class: className });
  for (const [label, value] of pairs) {
    if (value === null || value === undefined || value === false || value === '') continue;
    const dd = h('dd');
    append(dd, Array.isArray(value) ? value : [value]);
    dl.append(h('div', {}, h('dt', {}, label), dd));
  }
  return dl;
}

/**
 * Waits, but wakes up at once when the signal aborts.
 * @param {number} ms
 * @param {AbortSignal} signal
 */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
      { once: true },
    );
  });
}

/**
 * Calls `tick` now and then every `ms` after the previous call finished, until the signal aborts
 * or `tick` answers false. A hidden tab is not polled; it catches up as soon as it is shown.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @param {() => Promise<boolean | void>} tick
 */
export async function every(ms, signal, tick) {
  while (!signal.aborted) {
    if (document.visibilityState === 'hidden') {
      await new Promise((resolve) => {
        const wake = () => resolve(undefined);
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
