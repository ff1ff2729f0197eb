// @ts-check
import { ApiError, api, setToken } from './api.js';
import { h } from './dom.js';

/**
 * Sign in with an API token. The token is checked with GET /api/me and kept in this tab's
 * sessionStorage only: closing the tab signs out.
 * @param {HTMLElement} main
 * @param {{message?: string, signedIn: (me: import('./api.js').Me) => void}} options
 */
export function renderSignIn(main, options) {
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'token-help',
  });
  const error = h('p', { class: 'error', role: 'alert', id: 'signin-error' });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'signin', 'aria-labelledby': 'signin-title', novalidate: true },
    h('label', { for: 'token' }, 'API token'),
    input,
    h(
      'p',
      { id: 'token-help', class: 'help' },
      'A Warden API token (wdn_…). It stays in this browser tab and is gone when the tab closes.',
    ),
    button,
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (!token) {
      error.textContent = 'Enter a token.';
      input.focus();
      return;
    }
    button.disabled = true;
    api('/api/me', { token }).then(
      (/** @type {import('./api.js').Me} */ me) => {
        setToken(token);
        options.signedIn(me);
      },
      (/** @type {unknown} */ e) => {
        button.disabled = false;
        error.textContent =
          e instanceof ApiError && e.status === 401
            ? `Warden does not accept this token: ${e.message}.`
            : `Could not sign in: ${e instanceof Error ? e.message : String(e)}`;
        input.focus();
        input.select();
      },
    );
  });
  main.replaceChildren(
    h(
      'section',
      { class: 'signin-page' },
      h('h1', { id: 'signin-title', tabindex: '-1' }, 'Sign in to the Warden console'),
      options.message ? h('p', { class: 'notice', role: 'status' }, options.message) : null,
      h(
        'p',
        {},
        'Approvers decide on held writes here, from the screen the write would hit. Operators follow and resume runs; auditors read runs and the audit log.',
      ),
      form,
    ),
  );
  input.focus();
}
