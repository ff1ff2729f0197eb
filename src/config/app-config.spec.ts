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
