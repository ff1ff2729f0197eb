import { DomainError } from '../../common/domain-error';
import { parseConfigBody } from './parse-config';

const AGENT = {
  screen_url: 'https://sapgui-host.internal:8443',
  screen_token_env: 'TICKETIQ_SAPGUI_HOST_TOKEN',
};

const body = (fields: Record<string, unknown>) => ({
  enabled: true,
  agents: { 'sap-orders': { ...AGENT, ...fields } },
});

function refusal(fields: Record<string, unknown>): string {
  try {
    parseConfigBody(body(fields));
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('accepted');
}

describe('notify (parse-notify.ts)', () => {
  it('defaults to no channels and no screens', () => {
    const agent = parseConfigBody(body({})).config.agents['sap-orders'];
    expect(agent.notify).toEqual([]);
    expect(agent.notify_include_screen).toBe(false);
  });

  it('accepts each kind with its own fields', () => {
    const notify = [
      { kind: 'webhook', url: 'https://hooks.example.com/warden', secret_env: 'ACME_HOOK_SECRET' },
      { kind: 'webhook', url: 'http://127.0.0.1:9000/hook', secret_env: 'ACME_HOOK_SECRET' },
      { kind: 'slack', url_env: 'ACME_SLACK_URL' },
      { kind: 'slack', url_env: 'ACME_SLACK_URL', signing_secret_env: 'ACME_SLACK_SIGNING' },
      { kind: 'teams', url_env: 'ACME_TEAMS_URL' },
      {
        kind: 'teams',
        url_env: 'ACME_TEAMS_URL',
        bot_app_id: '6f1f5c3e-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
      },
      { kind: 'email', to: ['sap-approvers@example.com', 'ops@example.org'] },
    ];
    const agent = parseConfigBody(body({ notify, notify_include_screen: true })).config.agents[
      'sap-orders'
    ];
    expect(agent.notify).toEqual(notify);
    expect(agent.notify_include_screen).toBe(true);
  });

  it.each([
    [{ notify: {} }, 'agents.sap-orders.notify must be a list of channels'],
    [{ notify: ['slack'] }, 'agents.sap-orders.notify.0 must be a channel'],
    [
      { notify: [{ kind: 'pager' }] },
      'agents.sap-orders.notify.0.kind must be one of webhook, slack, teams, email',
    ],
    [
      { notify: [{ kind: 'slack', url_env: 'X', url: 'https://hooks.slack.com/x' }] },
      'agents.sap-orders.notify.0.url is not a field of a slack channel (one of kind, url_env, signing_secret_env)',
    ],
    [{ notify: [{ kind: 'teams' }] }, 'agents.sap-orders.notify.0.url_env is required'],
    [
      { notify: [{ kind: 'slack', url_env: 'X', signing_secret_env: 'xoxb-123' }] },
      'agents.sap-orders.notify.0.signing_secret_env must name an environment variable',
    ],
    [
      { notify: [{ kind: 'teams', url_env: 'X', bot_app_id: 'my-bot' }] },
      "agents.sap-orders.notify.0.bot_app_id must be the bot's Microsoft app id",
    ],
    [
      {
        notify: [{ kind: 'webhook', url: 'https://h.example/x', secret_env: 'S', bot_app_id: 'x' }],
      },
      'agents.sap-orders.notify.0.bot_app_id is not a field of a webhook channel',
    ],
    [
      { notify: [{ kind: 'slack', url_env: 'https://hooks.slack.com/services/T0/B0/x' }] },
      'agents.sap-orders.notify.0.url_env must name an environment variable',
    ],
    [
      { notify: [{ kind: 'webhook', url: 'http://hooks.example.com/x', secret_env: 'S' }] },
      'agents.sap-orders.notify.0.url: plain http:// is allowed only on loopback',
    ],
    [
      { notify: [{ kind: 'webhook', url: 'ftp://hooks.example.com/x', secret_env: 'S' }] },
      'agents.sap-orders.notify.0.url: ftp:// is not https://',
    ],
    [
      { notify: [{ kind: 'webhook', secret_env: 'S' }] },
      'agents.sap-orders.notify.0.url is required',
    ],
    [
      { notify: [{ kind: 'email', to: [] }] },
      'agents.sap-orders.notify.0.to must be a list of 1 to 20',
    ],
    [
      { notify: [{ kind: 'email', to: ['ops@example.com', 'Ops <ops@example.com>'] }] },
      'agents.sap-orders.notify.0.to.1 must be an e-mail address',
    ],
    [
      { notify: Array.from({ length: 11 }, () => ({ kind: 'teams', url_env: 'T' })) },
      'agents.sap-orders.notify: at most 10 channels',
    ],
    [
      { notify_include_screen: 'yes' },
      'agents.sap-orders.notify_include_screen must be true or false',
    ],
  ])('refuses %j', (fields, message) => {
    expect(refusal(fields)).toContain(message);
  });

  it('refuses a secret where a variable name belongs', () => {
    expect(
      refusal({ notify: [{ kind: 'webhook', url: 'https://h.example.com', secret: 'abc' }] }),
    ).toContain('agents.sap-orders.notify.0.secret would hold a secret');
  });
});
