/**
 * Linking a chat account (docs/approver-guide.md): a Slack or Teams account nobody has linked gets a
 * one-time link when its owner presses Approve or Reject, `/console/chat-link#CODE`. Opened here
 * while signed in, the page says which account asked, and links it to this person only when they
 * say it is theirs; from then on its presses are their decisions. It also lists their linked
 * accounts, each with Unlink.
 */
import { api } from './api';
import { facts, h } from './dom';
import { clock } from './words';
import type { ChatLinkCode, ChatLinkList } from './api-types';
import type { PageContext } from './page';

const CODE_KEY = 'warden.console.chat-link-code';
const CHAT = { slack: 'Slack', teams: 'Teams' } as Record<string, string>;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Keeps the code of a chat link opened before signing in: the identity provider's redirects bring
 * the person back to the page without the part after `#`. Called once as the console starts.
 */
export function keepChatLinkCode() {
  if (location.pathname.startsWith('/console/chat-link') && location.hash.length > 1) {
    sessionStorage.setItem(CODE_KEY, location.hash.slice(1));
  }
}

function accountInWords(a: Pick<ChatLinkCode, 'kind' | 'chat_team' | 'chat_user' | 'chat_name'>) {
  const chat = CHAT[a.kind] ?? a.kind;
  const who = a.chat_name ? `${a.chat_name} (${a.chat_user})` : a.chat_user;
  return `${chat} account ${who}, ${a.kind === 'slack' ? 'team' : 'tenant'} ${a.chat_team}`;
}

export async function renderChatLink(main: HTMLElement, ctx: PageContext) {
  const said = h('p', { class: 'said', role: 'status' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const offer = h('section', { 'aria-labelledby': 'offer-title' });
  const list = h('ul', { class: 'chat-links' });
  main.append(
    h('h1', {}, 'Your chat accounts'),
    h(
      'p',
      { class: 'lead' },
      'A Slack or Teams account linked to you decides as you when it presses Approve or Reject in a Warden message, by the same rules as this console.',
    ),
    said,
    problem,
    offer,
    h('h2', {}, 'Linked to you'),
    list,
  );
  if (!ctx.me.session) {
    problem.textContent =
      'A chat account is linked to a person signed in with their company account; this console is signed in with an API token.';
    return;
  }

  const showLinks = async () => {
    const links = await api<ChatLinkList>('/api/chat/links', { signal: ctx.signal });
    list.replaceChildren(
      ...(links.items.length === 0 ? [h('li', {}, 'None yet.')] : []),
      ...links.items.map((link) =>
        h(
          'li',
          { 'data-link-id': link.id },
          `${accountInWords(link)}, linked ${clock(link.linked_at)} `,
          h(
            'button',
            {
              type: 'button',
              class: 'link-button',
              onclick: () =>
                void (async () => {
                  try {
                    await api(`/api/chat/links/${link.id}`, { method: 'DELETE' });
                    said.textContent = `Unlinked the ${accountInWords(link)}.`;
                    await showLinks();
                  } catch (error) {
                    problem.textContent = messageOf(error);
                  }
                })(),
            },
            'Unlink',
          ),
        ),
      ),
    );
  };

  const code = location.hash.slice(1) || sessionStorage.getItem(CODE_KEY);
  sessionStorage.removeItem(CODE_KEY);
  if (code) {
    // The code leaves the address bar: it links once, and the page may be shared as it is.
    history.replaceState(null, '', location.pathname);
    try {
      const asked = await api<ChatLinkCode>('/api/chat/links/preview', {
        method: 'POST',
        json: { code },
        signal: ctx.signal,
      });
      const button = h(
        'button',
        { type: 'button', class: 'primary' },
        'This account is mine: link it',
      );
      button.addEventListener('click', () => {
        button.disabled = true;
        void (async () => {
          try {
            await api('/api/chat/links', { method: 'POST', json: { code } });
            offer.replaceChildren();
            said.textContent = `Linked. Press the button in ${CHAT[asked.kind] ?? asked.kind} again: it decides as you now.`;
            await showLinks();
          } catch (error) {
            button.disabled = false;
            problem.textContent = messageOf(error);
          }
        })();
      });
      offer.append(
        h('h2', { id: 'offer-title' }, 'Link this account to you?'),
        facts([
          ['Account', accountInWords(asked)],
          ['Link valid until', clock(asked.expires_at)],
        ]),
        h(
          'p',
          { class: 'help' },
          `Link it only if it is your own: its presses of Approve and Reject will be your decisions, recorded as made in ${CHAT[asked.kind] ?? asked.kind}.`,
        ),
        button,
      );
    } catch (error) {
      if (ctx.signal.aborted) return;
      problem.textContent = `This link links nothing: ${messageOf(error)}`;
    }
  }
  try {
    await showLinks();
  } catch (error) {
    if (ctx.signal.aborted) return;
    problem.textContent = `Could not load your chat accounts: ${messageOf(error)}`;
  }
}
