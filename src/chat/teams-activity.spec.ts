import { readTeamsPress } from './teams-activity';

const approvalId = '0b6f4a52-3c1d-4e2f-9a8b-7c6d5e4f3a21';
const screen = 'c0'.repeat(32);

/** An adaptiveCard/action invoke in the Bot Framework's documented shape. */
function invoke(changes: (a: any) => void = () => undefined): any {
  const activity = {
    type: 'invoke',
    name: 'adaptiveCard/action',
    id: 'f:4a2bd6b0-3c1d-4e2f',
    timestamp: '2026-12-01T10:00:00.000Z',
    serviceUrl: 'https://smba.trafficmanager.net/emea/',
    channelId: 'msteams',
    from: {
      id: '29:1a2b3c',
      name: 'Bea Lead',
      aadObjectId: '5d1e0a3b-7f4c-4a9e-8b2d-1c3e5f7a9b0d',
    },
    conversation: { id: '19:abc@thread.tacv2', tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47' },
    recipient: { id: '28:bot', name: 'Warden' },
    channelData: { tenant: { id: '72f988bf-86f1-41af-91ab-2d7cd011db47' } },
    value: {
      action: {
        type: 'Action.Execute',
        verb: 'approve',
        data: { approval_id: approvalId, screen_sha256: screen },
      },
      trigger: 'manual',
    },
  };
  changes(activity);
  return activity;
}

describe('a Teams press (teams-activity.ts)', () => {
  it('reads the verb, the approval, who pressed it and what the token must match', () => {
    expect(readTeamsPress(invoke())).toEqual({
      action: { verb: 'approve', approvalId, screenSha256: screen },
      user: {
        kind: 'teams',
        team: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        user: '5d1e0a3b-7f4c-4a9e-8b2d-1c3e5f7a9b0d',
        name: 'Bea Lead',
      },
      activityId: 'f:4a2bd6b0-3c1d-4e2f',
      conversationId: '19:abc@thread.tacv2',
      channelId: 'msteams',
      serviceUrl: 'https://smba.trafficmanager.net/emea/',
    });
  });

  it.each([
    [
      'a message',
      (a: any) => (a.type = 'message'),
      'Warden’s bot takes adaptiveCard/action invokes only',
    ],
    [
      'an Action.Submit',
      (a: any) => (a.value.action.type = 'Action.Submit'),
      'the invoke is not an Action.Execute',
    ],
    [
      'another verb',
      (a: any) => (a.value.action.verb = 'escalate'),
      'the action is not one of Warden’s buttons',
    ],
    [
      'no Entra object id',
      (a: any) => delete a.from.aadObjectId,
      'the activity names no Teams tenant and user',
    ],
    ['no id', (a: any) => delete a.id, 'the activity has no id'],
    [
      'no service URL',
      (a: any) => delete a.serviceUrl,
      'the activity names no channel or service URL',
    ],
  ])('refuses %s', (_what, change, problem) => {
    expect(readTeamsPress(invoke(change))).toEqual({ problem });
  });
});
