import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has working defaults for a local machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/warden',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PORT: 3000,
      LOG_LEVEL: 'info',
      QUEUE_PREFIX: 'warden',
    });
  });

  it('reads and converts what is set, and ignores unrelated variables', () => {
    const config = loadConfig({
      PORT: '8080',
      QUEUE_PREFIX: 'stack-b',
      HOME: '/somewhere',
      LOG_LEVEL: 'debug',
    });
    expect(config.PORT).toBe(8080);
    expect(config.QUEUE_PREFIX).toBe('stack-b');
    expect(config.LOG_LEVEL).toBe('debug');
    expect(config).not.toHaveProperty('HOME');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535'],
    [{ PORT: '80.5' }, 'PORT must be an integer from 0 to 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [{ QUEUE_PREFIX: 'has space' }, 'QUEUE_PREFIX must be 1-64 characters'],
  ])('refuses %j naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT.*; LOG_LEVEL/);
  });

  it('honours the TEST_CRASH_AT fault-injection point only in test mode', () => {
    expect(loadConfig({ TEST_CRASH_AT: 'before-send', NODE_ENV: 'test' }).TEST_CRASH_AT).toBe(
      'before-send',
    );
    for (const NODE_ENV of [undefined, 'production', 'development']) {
      expect(() => loadConfig({ TEST_CRASH_AT: 'after-send', NODE_ENV })).toThrow(
        'TEST_CRASH_AT is a fault-injection point for tests: it is refused unless NODE_ENV=test',
      );
    }
    expect(loadConfig({ NODE_ENV: 'production' }).TEST_CRASH_AT).toBeUndefined();
  });
});

describe('loadConfig: sign-in with OpenID Connect', () => {
  const oidc = {
    OIDC_ISSUER_URL: 'https://idp.example.com/realms/acme',
    OIDC_CLIENT_ID: 'warden',
    PUBLIC_URL: 'https://warden.example.com',
  };

  it('is off by default, with 30 min idle and 12 h absolute sessions', () => {
    const config = loadConfig({});
    expect(config.OIDC_ISSUER_URL).toBeUndefined();
    expect(config).toMatchObject({
      OIDC_TENANT_CLAIM: 'tenant',
      OIDC_GROUPS_CLAIM: 'groups',
      SESSION_IDLE_SECONDS: 1800,
      SESSION_MAX_SECONDS: 43200,
    });
  });

  it('accepts an issuer with client id and PUBLIC_URL, and a loopback http PUBLIC_URL', () => {
    expect(loadConfig(oidc).PUBLIC_URL).toBe('https://warden.example.com');
    expect(loadConfig({ ...oidc, PUBLIC_URL: 'http://127.0.0.1:3000' }).PUBLIC_URL).toBe(
      'http://127.0.0.1:3000',
    );
  });

  it.each([
    [{ ...oidc, OIDC_CLIENT_ID: undefined }, 'OIDC_CLIENT_ID is required'],
    [{ ...oidc, PUBLIC_URL: undefined }, 'PUBLIC_URL must be'],
    [{ ...oidc, PUBLIC_URL: 'http://warden.example.com' }, 'http only on loopback'],
    [{ ...oidc, PUBLIC_URL: 'https://warden.example.com/console' }, 'no path'],
    [{ ...oidc, OIDC_CLIENT_SECRET_ENV: 'my secret' }, 'OIDC_CLIENT_SECRET_ENV must name'],
    [{ ...oidc, SESSION_IDLE_SECONDS: '0' }, 'SESSION_IDLE_SECONDS must be'],
  ])('refuses %j', (env, message) => {
    const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
    expect(() => loadConfig(given as Record<string, string>)).toThrow(message);
  });
});
