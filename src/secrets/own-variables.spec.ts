import { ownVariable } from './own-variables';

describe("Warden's own variables", () => {
  it.each([
    'DATABASE_URL',
    'database_url',
    'REDIS_URL',
    'PGPASSWORD',
    'NODE_OPTIONS',
    'DEFAULT_MODEL_API_KEY_ENV',
    'QUEUE_PREFIX',
    'CA_DIR',
    'OIDC_CLIENT_SECRET',
    'SESSION_SECRET',
    'PATH',
  ])('%s can never be granted', (name) => {
    expect(ownVariable(name, {})).not.toBeNull();
  });

  it('the variable the default model names is its own', () => {
    expect(
      ownVariable('ANTHROPIC_API_KEY', { DEFAULT_MODEL_API_KEY_ENV: 'ANTHROPIC_API_KEY' }),
    ).toMatch(/named by Warden's own DEFAULT_MODEL_API_KEY_ENV/);
    expect(ownVariable('ANTHROPIC_API_KEY', {})).toBeNull();
  });

  it.each(['TICKETIQ_SAPGUI_HOST_TOKEN', 'ACME_OPENAI_KEY', 'SCREEN_TOKEN'])(
    '%s is a tenant secret',
    (name) => {
      expect(ownVariable(name, {})).toBeNull();
    },
  );
});
