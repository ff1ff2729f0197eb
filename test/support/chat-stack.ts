import { randomBytes } from 'node:crypto';
import { type BotIssuer, startBotIssuer } from './chat';
import type { ConsoleBrowser } from './browser';
import {
  type ProviderStack,
  startProviderStack,
  startSignInStack,
  type TestUser,
} from './oidc-provider';
import { type Receiver, startReceiver } from './receivers';
import { signInByHttp } from './signing-in';
import { isEnded, type Stack } from './stack';
import { until } from './until';

/**
 * A stack for deciding in chat: people signing in through a real OpenID provider (bea and dave
 * approve, olga operates and approves, dora only audits), a local HTTPS receiver standing for
 * Slack's and Teams' webhooks and Slack's response_url, a local Bot Framework issuer, and agent
 * sap-orders announcing to a Slack channel that takes decisions (its signing secret granted like
 * any secret) and to a Teams channel whose bot is Warden.
 */
export interface ChatStack {
  signIn: ProviderStack;
  /** Chromium, when the stack was started with `browser`. */
  browser: ConsoleBrowser | null;
  stack: Stack;
  receiver: Receiver;
  issuer: BotIssuer;
  signingSecret: string;
  botAppId: string;
  /** The receiver's URL standing for Slack's response_url (its origin is granted). */
  responseUrl(name: string): string;
  /** Configures sap-orders with a planner (and any other fields), announcing to both channels. */
  configure(planner: string, agent?: Record<string, unknown>): Promise<void>;
  /** Starts a run (by `token`, else the operator) and waits for its write to be held. */
  held(token?: string): Promise<{ runId: string; approvalId: string }>;
  /** The Slack message announcing the approval, as Warden posted it. */
  slackMessage(approvalId: string): Promise<{ blocks: any[]; buttons: Record<string, any> }>;
  /** A person signed in by HTTP, with their session's cookie and CSRF token. */
  person(login: string): Promise<Person>;
  /** Cancels every run still going, so the next test's run gets the screen host. */
  cancelRuns(): Promise<void>;
  close(): Promise<void>;
}

export interface Person {
  headers: Record<string, string>;
  /** Links the chat account that got the code in `url` (`…/console/chat-link#CODE`) to them. */
  link(url: string): Promise<any>;
}

export const CHAT_USERS: Record<string, TestUser> = {
  bea: { name: 'Bea Lead', email: 'bea@acme.example', tenant: 'acme', groups: ['approvers'] },
  dave: { name: 'Dave', email: 'dave@acme.example', tenant: 'acme', groups: ['approvers'] },
  olga: {
    name: 'Olga Operator',
    email: 'olga@acme.example',
    tenant: 'acme',
    groups: ['operators', 'approvers'],
  },
  dora: { name: 'Dora Auditor', email: 'dora@acme.example', tenant: 'acme', groups: ['auditors'] },
};

/** A click on Save: a write whose message shows all of it, so Approve is offered in chat. */
export const SAVE = {
  steps: [
    { action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    { action: { action: 'done', summary: 'saved' } },
  ],
};

export async function startChatStack(o: { browser?: boolean } = {}): Promise<ChatStack> {
  const receiver = await startReceiver(() => 'unused');
  const issuer = await startBotIssuer();
  const suffix = randomBytes(3).toString('hex').toUpperCase();
  const env = {
    slackUrl: `WARDEN_TEST_SLACK_URL_${suffix}`,
    signing: `WARDEN_TEST_SLACK_SIGNING_${suffix}`,
    teamsUrl: `WARDEN_TEST_TEAMS_URL_${suffix}`,
  };
  const signingSecret = randomBytes(16).toString('hex');
  process.env[env.slackUrl] = `${receiver.url}/slack`;
  process.env[env.signing] = signingSecret;
  process.env[env.teamsUrl] = `${receiver.url}/teams`;
  const signIn = await (o.browser ? startSignInStack : startProviderStack)(
    CHAT_USERS,
    { approvers: ['agents.approve'], operators: ['agents.operate'], auditors: ['audit.read'] },
    {
      NOTIFY_CA_FILE: receiver.certPath,
      NOTIFY_BACKOFF_MS: '50',
      TEAMS_BOT_OPENID_METADATA_URL: issuer.metadataUrl,
    },
  );
  const { stack } = signIn;
  // The operator grants the webhooks and the signing secret for the receiver's origin.
  for (const name of Object.values(env)) await stack.grant(name, receiver.url);
  const botAppId = '6f1f5c3e-1b2a-4c3d-9e8f-0a1b2c3d4e5f';
  const chat: ChatStack = {
    signIn,
    browser: 'browser' in signIn ? (signIn.browser as ConsoleBrowser) : null,
    stack,
    receiver,
    issuer,
    signingSecret,
    botAppId,
    responseUrl: (name) => `${receiver.url}/slack-response/${name}`,
    configure: (planner, agent = {}) =>
      stack.configure({
        planner,
        notify: [
          { kind: 'slack', url_env: env.slackUrl, signing_secret_env: env.signing },
          { kind: 'teams', url_env: env.teamsUrl, bot_app_id: botAppId },
        ],
        ...agent,
      }),
    held: async (token) => {
      const run = await stack.start('change order 4711', 'sap-orders', token);
      const waiting = await stack.waitFor(
        run.id,
        (r) => r.status === 'awaiting_approval' || isEnded(r),
      );
      if (waiting.status !== 'awaiting_approval') throw new Error(`not held: ${waiting.status}`);
      return { runId: run.id, approvalId: waiting.pending_approval.id };
    },
    slackMessage: async (approvalId) =>
      await until(`the Slack message of ${approvalId}`, async () => {
        const posted = receiver
          .on('/slack')
          .map((r) => JSON.parse(r.body))
          .find(
            (m) => JSON.stringify(m).includes(approvalId) && m.text.startsWith('Approval needed'),
          );
        if (!posted) return null;
        const actions = posted.blocks.find((b: { type: string }) => b.type === 'actions');
        const buttons = Object.fromEntries(
          actions.elements.map((e: { action_id: string }) => [e.action_id, e]),
        );
        return { blocks: posted.blocks, buttons };
      }),
    person: async (login) => {
      const { jar } = await signInByHttp(stack.api.url, login);
      const cookie = `warden_session=${jar.get('warden_session')}`;
      const me = await stack.api.request('GET', '/api/me', { headers: { cookie } });
      if (me.status !== 200) throw new Error(`me: ${me.status} ${me.text}`);
      const headers = {
        cookie,
        origin: stack.api.url,
        'x-warden-csrf': me.body.session.csrf_token as string,
      };
      return {
        headers,
        link: async (url) => {
          const code = /\/console\/chat-link#([A-Za-z0-9_-]+)/.exec(url)?.[1];
          if (!code) throw new Error(`no link code in ${url}`);
          const linked = await stack.api.request('POST', '/api/chat/links', {
            headers,
            json: { code },
          });
          if (linked.status !== 201) throw new Error(`link: ${linked.status} ${linked.text}`);
          return linked.body;
        },
      };
    },
    cancelRuns: async () => {
      const runs = await stack.api.request('GET', '/api/computer-use/runs?limit=200', {
        token: stack.tokens.operator,
      });
      for (const run of runs.body.items as Array<{ id: string; status: string }>) {
        if (isEnded(run)) continue;
        await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
          token: stack.tokens.operator,
        });
        await stack.waitFor(run.id, isEnded);
      }
    },
    close: async () => {
      await signIn.close();
      await issuer.close();
      await receiver.close();
      for (const name of Object.values(env)) delete process.env[name];
    },
  };
  return chat;
}
