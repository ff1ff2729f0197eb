/**
 * The console's shell: who is signed in, the pages their permissions allow, and the router.
 * Pages are paths under /console (the API serves the same HTML for each); links are real links,
 * followed here without reloading.
 */
import {
  ApiError,
  api,
  clearToken,
  getToken,
  setSession,
  signOutSession,
  UNAUTHENTICATED,
} from './api';
import { h } from './dom';
import { renderAdmin } from './admin';
import { renderApproval } from './approval';
import { renderAudit } from './audit';
import { keepChatLinkCode, renderChatLink } from './chat-link';
import { renderInbox } from './inbox';
import { renderRun } from './run';
import { renderRuns } from './runs';
import { renderSignIn, signInErrorInWords } from './signin';
import { permissionInWords } from './words';
import type { Page } from './page';
import type { Me, Permission } from './api-types';

const ROUTES: Array<{ pattern: RegExp; page: Page; needs: Permission[]; title: string }> = [
  {
    pattern: /^\/console\/approvals\/?$/,
    page: renderInbox,
    needs: ['agents.approve'],
    title: 'Approvals',
  },
  {
    pattern: /^\/console\/approvals\/([0-9a-f-]{36})$/i,
    page: renderApproval,
    needs: ['agents.approve'],
    title: 'Approval',
  },
  {
    pattern: /^\/console\/runs\/?$/,
    page: renderRuns,
    needs: ['agents.operate', 'audit.read'],
    title: 'Runs',
  },
  {
    pattern: /^\/console\/runs\/([0-9a-f-]{36})$/i,
    page: renderRun,
    needs: ['agents.operate', 'audit.read'],
    title: 'Run',
  },
  { pattern: /^\/console\/audit\/?$/, page: renderAudit, needs: ['audit.read'], title: 'Audit' },
  {
    pattern: /^\/console\/chat-link\/?$/,
    page: renderChatLink,
    needs: ['agents.approve'],
    title: 'Chat accounts',
  },
  {
    pattern: /^\/console\/admin\/?$/,
    page: renderAdmin,
    needs: ['computer_use.admin'],
    title: 'Admin',
  },
];

const NAV: Array<{ href: string; label: string; needs: Permission[] }> = [
  { href: '/console/approvals', label: 'Approvals', needs: ['agents.approve'] },
  { href: '/console/runs', label: 'Runs', needs: ['agents.operate', 'audit.read'] },
  { href: '/console/audit', label: 'Audit', needs: ['audit.read'] },
  { href: '/console/admin', label: 'Admin', needs: ['computer_use.admin'] },
];

const main = document.getElementById('main') as HTMLElement;
const nav = document.getElementById('nav') as HTMLElement;
const who = document.getElementById('who') as HTMLElement;
const announcer = document.getElementById('announcer') as HTMLElement;

let me: Me | null = null;
let current: AbortController | null = null;

function announce(text: string) {
  // Cleared first, so that the same words said twice are read twice.
  announcer.textContent = '';
  setTimeout(() => (announcer.textContent = text), 50);
}

function allowed(needs: Permission[]) {
  return me !== null && needs.some((p) => me?.permissions.includes(p));
}

function navigate(path: string) {
  if (path !== location.pathname + location.search) history.pushState(null, '', path);
  void route();
}

function homePath() {
  return NAV.find((item) => allowed(item.needs))?.href ?? null;
}

function renderShell() {
  nav.replaceChildren();
  who.replaceChildren();
  if (!me) return;
  const here = location.pathname;
  const list = h('ul');
  for (const item of NAV) {
    if (!allowed(item.needs)) continue;
    const active = here === item.href || here.startsWith(`${item.href}/`);
    list.append(
      h(
        'li',
        {},
        h('a', { href: item.href, 'aria-current': active ? 'page' : undefined }, item.label),
      ),
    );
  }
  nav.append(list);
  const perms = me.permissions.map(permissionInWords).join(', ') || 'nothing';
  who.append(
    h(
      'p',
      { class: 'who-line' },
      h('span', { class: 'who-subject' }, me.subject),
      ' in tenant ',
      h('span', { class: 'who-tenant' }, me.tenant),
    ),
    h('p', { class: 'who-perms' }, `May ${perms}`),
    h(
      'button',
      { type: 'button', class: 'link-button', onclick: () => signOut('You signed out.') },
      'Sign out',
    ),
  );
}

function signOut(message: string) {
  if (me?.session) {
    // Ends the session at Warden; the sign-in page shows at once either way.
    signOutSession().catch(() => undefined);
  }
  clearToken();
  setSession(null);
  me = null;
  current?.abort();
  renderShell();
  showSignIn(message);
}

function showSignIn(message?: string) {
  current?.abort();
  document.title = 'Sign in · Warden console';
  renderSignIn(main, {
    message,
    signedIn: (who) => {
      me = who;
      announce(`Signed in as ${who.subject}`);
      void route();
    },
  });
  main.focus();
}

async function route() {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  if (!me) {
    try {
      // Without a token, the company sign-in's session cookie, if there is one.
      me = await api('/api/me', { signal: controller.signal });
      setSession(me);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof ApiError && error.status === 401) {
        const search = new URLSearchParams(location.search);
        if (!getToken()) showSignIn(signInErrorInWords(search.get('signin_error')));
        return; // with a token, the listener signs out
      }
      main.replaceChildren(
        h(
          'p',
          { class: 'error', role: 'alert' },
          `The console could not start: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      return;
    }
  }
  let path = location.pathname.replace(/\/+$/, '') || '/console';
  if (path === '/console') {
    const home = homePath();
    if (home) {
      history.replaceState(null, '', home);
      path = home;
    }
  }
  const caller = me;
  if (!caller) return;
  if (location.search.includes('signin_error')) history.replaceState(null, '', location.pathname);
  renderShell();
  /** Whose permissions: the token's, or the person's (their groups' in this tenant). */
  const holder = caller.session ? 'your account' : 'this token';
  const match = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m);
  main.replaceChildren();
  const title = (text: string) => (document.title = `${text} · Warden console`);
  if (!match || !match.m) {
    title('Not found');
    main.append(
      h('h1', { tabindex: '-1' }, 'No such page'),
      h(
        'p',
        {},
        homePath()
          ? h('a', { href: homePath() ?? '/console' }, 'Go to the first page you may use')
          : caller.session
            ? `Your account has none of the permissions the console uses: none of your groups (${caller.session.groups.join(', ') || 'none'}) is mapped to one in tenant ${caller.tenant}. Ask your Warden administrator.`
            : 'This token has none of the permissions the console uses.',
      ),
    );
  } else if (!allowed(match.r.needs)) {
    title(match.r.title);
    main.append(
      h('h1', { tabindex: '-1' }, `${match.r.title}: not for ${holder}`),
      h(
        'p',
        {},
        caller.session
          ? `This page needs the permission ${match.r.needs.join(' or ')}, which your account does not have: none of your groups is mapped to it.`
          : `This page needs the permission ${match.r.needs.join(' or ')}, which ${caller.subject}’s token does not have.`,
      ),
    );
  } else {
    title(match.r.title);
    try {
      await match.r.page(main, {
        me: caller,
        can: (p) => caller.permissions.includes(p),
        signal: controller.signal,
        params: match.m.slice(1),
        search: new URLSearchParams(location.search),
        navigate,
        announce,
        title,
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      main.append(
        h(
          'p',
          { class: 'error', role: 'alert' },
          error instanceof Error ? error.message : String(error),
        ),
      );
    }
  }
  // A new page: bring keyboard and screen reader to its heading.
  const heading = main.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }
}

document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const target = event.target instanceof Element ? event.target.closest('a') : null;
  if (!target || target.target || target.hasAttribute('download')) return;
  const url = new URL(target.href, location.href);
  if (url.origin !== location.origin) return;
  if (target.classList.contains('skip-link')) {
    event.preventDefault();
    main.focus();
    return;
  }
  if (!url.pathname.startsWith('/console')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});

window.addEventListener('popstate', () => void route());
keepChatLinkCode();
window.addEventListener(UNAUTHENTICATED, () => {
  if (me?.session) signOut('Your session has ended. Sign in again.');
  else if (me || getToken()) signOut('The API no longer accepts this token. Sign in again.');
});

void route();
