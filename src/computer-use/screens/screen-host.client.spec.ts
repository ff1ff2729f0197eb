import { ScreenHostError } from './screen-error';
import { ScreenHostClient } from './screen-host.client';

describe('ScreenHostClient', () => {
  it('throws configuration errors from forTarget, before any connection', () => {
    const client = new ScreenHostClient();
    expect(() => client.forTarget({ screen_url: 'http://x', screen_token_env: 'T' })).toThrow(
      ScreenHostError,
    );
    client.close();
  });
});
