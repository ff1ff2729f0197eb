import recorded from '../../test/support/fixtures/slack-block-actions.json';
import { readSlackPress } from './slack-payload';

const approvalId = '0b6f4a52-3c1d-4e2f-9a8b-7c6d5e4f3a21';
const screen = 'c0'.repeat(32);

/** The recorded block_actions payload, form-encoded as Slack sends it, with `changes` applied. */
function formOf(changes: (p: any) => void = () => undefined): Buffer {
  const payload = structuredClone(recorded) as any;
  payload.actions[0].value = JSON.stringify({ approval_id: approvalId, screen_sha256: screen });
  changes(payload);
  return Buffer.from(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
}

describe('a Slack press (slack-payload.ts)', () => {
  it('reads the button, who pressed it and where to answer from Slack’s recorded shape', () => {
    expect(readSlackPress(formOf())).toEqual({
      action: { verb: 'approve', approvalId, screenSha256: screen },
      user: { kind: 'slack', team: 'T0ACME', user: 'U0SLACKBEA', name: 'bea.lead' },
      responseUrl: recorded.response_url,
      messageBlocks: [],
    });
    const reject = readSlackPress(
      formOf((p) => {
        p.actions[0].action_id = 'warden.reject';
      }),
    );
    expect(reject).toMatchObject({ action: { verb: 'reject' } });
  });

  it('ignores the press of a link button', () => {
    expect(
      readSlackPress(
        formOf((p) => {
          p.actions[0] = { action_id: 'warden.open.0', type: 'button', url: 'https://x' };
        }),
      ),
    ).toEqual({ ignored: true });
  });

  it.each([
    ['not a form', Buffer.from('{"type":"block_actions"}'), 'the body has no payload field'],
    ['not JSON', Buffer.from('payload=%7Bnope'), 'the payload is not JSON'],
    [
      'another event',
      formOf((p) => {
        p.type = 'view_submission';
      }),
      'Warden takes block_actions, not view_submission',
    ],
    [
      'another app’s button',
      formOf((p) => {
        p.actions[0].action_id = 'approve_request';
      }),
      'the action is not one of Warden’s buttons',
    ],
    [
      'a value that is no approval',
      formOf((p) => {
        p.actions[0].value = JSON.stringify({ approval_id: 'x', screen_sha256: screen });
      }),
      'the action is not one of Warden’s buttons',
    ],
    [
      'no user',
      formOf((p) => {
        delete p.user;
      }),
      'the payload names no Slack team and user',
    ],
  ])('refuses %s', (_what, body, problem) => {
    expect(readSlackPress(body)).toEqual({ problem });
  });
});
