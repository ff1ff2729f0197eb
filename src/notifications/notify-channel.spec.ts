import { channelKind, NOTIFY_KINDS } from './notify-channel';

describe('the channel kinds', () => {
  it('are listed in the order OpenAPI and the refusals show them', () => {
    expect(NOTIFY_KINDS).toEqual(['webhook', 'slack', 'teams', 'email']);
  });

  it('each take their kind and their own fields', () => {
    for (const kind of NOTIFY_KINDS) expect(channelKind(kind).fields[0]).toBe('kind');
    expect(channelKind('teams').fields).toEqual(['kind', 'url_env', 'bot_app_id']);
  });

  it('show where a delivery went without a secret', () => {
    expect(
      channelKind('webhook').shownTo({
        kind: 'webhook',
        url: 'https://hooks.example.com/warden?token=x',
        secret_env: 'ACME_SECRET',
      }),
    ).toBe('https://hooks.example.com');
    expect(channelKind('slack').shownTo({ kind: 'slack', url_env: 'ACME_SLACK_URL' })).toBe(
      '$ACME_SLACK_URL',
    );
    expect(channelKind('teams').shownTo({ kind: 'teams', url_env: 'ACME_TEAMS_URL' })).toBe(
      '$ACME_TEAMS_URL',
    );
    expect(
      channelKind('email').shownTo({ kind: 'email', to: ['a@example.com', 'b@example.com'] }),
    ).toBe('a@example.com, b@example.com');
  });

  it('read only what is theirs: a Teams bot id lower-cased, an optional field left out', () => {
    const problems: string[] = [];
    expect(
      channelKind('teams').read(
        {
          kind: 'teams',
          url_env: 'ACME_TEAMS_URL',
          bot_app_id: '0000000A-0000-0000-0000-000000000000',
        },
        'agents.a.notify.0',
        problems,
      ),
    ).toEqual({
      kind: 'teams',
      url_env: 'ACME_TEAMS_URL',
      bot_app_id: '0000000a-0000-0000-0000-000000000000',
    });
    expect(
      channelKind('slack').read(
        { kind: 'slack', url_env: 'ACME_SLACK_URL', signing_secret_env: null },
        'agents.a.notify.1',
        problems,
      ),
    ).toEqual({ kind: 'slack', url_env: 'ACME_SLACK_URL' });
    expect(problems).toEqual([]);
  });
});
