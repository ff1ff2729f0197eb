import { ApiError, api, setToken } from './api';
import { h } from './dom';
import type { Me } from './api-types';

/** Why a sign-in through the identity provider came back without a session (`?signin_error=`). */
const SIGNIN_ERRORS = {
  expired: 'The sign-in took too long or was started in another browser. Try again.',
  account:
    'Your company account cannot use Warden: it names no Warden tenant. Ask your administrator.',
  failed: 'The sign-in with your company account did not work. Try again.',
} as Record<string, string>;

export function signInErrorInWords(code: string | null) {
  return code ? (SIGNIN_ERRORS[code] ?? SIGNIN_ERRORS.failed) : undefined;
}

/**
 * Sign in with the company account (when the deployment has an identity provider: a link to
 * /auth/login, which comes back with a session cookie), or with an API token, for automation and
 * development. The token is checked with GET /api/me and kept in this tab's sessionStorage only:
 * closing the tab signs out.
 */
export function renderSignIn(
  main: HTMLElement,
  options: { message?: string; signedIn: (me: Me) => void },
) {
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
    api<Me>('/api/me', { token }).then(
      (me) => {
        setToken(token);
        options.signedIn(me);
      },
      (e: unknown) => {
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
  const company = h('div', { class: 'signin-company' });
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
      company,
      form,
    ),
  );
  input.focus();
  // The company sign-in, when the deployment has one: a plain link (the page allows no forms).
  api<{ oidc: boolean }>('/auth/status').then(
    (status) => {
      if (!status.oidc) return;
      const back = /^\/console(\/[A-Za-z0-9/-]*)?$/.test(location.pathname)
        ? location.pathname
        : '/console';
      company.append(
        h(
          'a',
          {
            class: 'button primary signin-sso',
            href: `/auth/login?return_to=${encodeURIComponent(back)}`,
          },
          'Sign in with your company account',
        ),
        h('p', { class: 'help' }, 'Or, for automation and development, with an API token:'),
      );
    },
    () => {
      // Without the status the token form still works.
    },
  );
}
