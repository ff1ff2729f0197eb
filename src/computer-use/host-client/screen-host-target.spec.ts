import { ScreenHostError } from './screen-host-error';
import { normaliseFingerprint, resolveTarget } from './screen-host-target';

const PIN = 'ab'.repeat(32);

describe('normaliseFingerprint', () => {
  it('takes hex with or without colons, in any case', () => {
    expect(normaliseFingerprint(PIN)).toBe(PIN);
    expect(normaliseFingerprint(PIN.toUpperCase().match(/../g)!.join(':'))).toBe(PIN);
    expect(normaliseFingerprint(` ${PIN} `)).toBe(PIN);
  });

  it('refuses anything else', () => {
    expect(normaliseFingerprint(PIN.slice(2))).toBeNull();
    expect(normaliseFingerprint(`${PIN.slice(2)}zz`)).toBeNull();
    expect(normaliseFingerprint('')).toBeNull();
  });
});

describe('resolveTarget', () => {
  const base = { screen_url: 'https://host.internal:8443', screen_token_env: 'HOST_TOKEN' };

  it('reads host, port, a base path and the TLS trust', () => {
    expect(resolveTarget({ ...base, screen_tls: { fingerprint_sha256: PIN } })).toMatchObject({
      url: 'https://host.internal:8443',
      host: 'host.internal',
      port: 8443,
      basePath: '',
      pin: PIN,
      verifiedBy: 'pin',
    });
    expect(resolveTarget({ ...base, screen_url: 'https://[::1]/warden/' })).toMatchObject({
      host: '::1',
      port: 443,
      basePath: '/warden',
      verifiedBy: 'system',
    });
  });

  it('gives one pool key per URL and trust', () => {
    const a = resolveTarget({ ...base, screen_tls: { fingerprint_sha256: PIN } }).key;
    const b = resolveTarget({ ...base, screen_tls: { fingerprint_sha256: 'cd'.repeat(32) } }).key;
    expect(a).not.toBe(b);
    expect(
      resolveTarget({ ...base, screen_tls: { fingerprint_sha256: PIN.toUpperCase() } }).key,
    ).toBe(a);
  });

  it.each([
    [{ ...base, screen_url: 'http://host:8443' }, /must be https:\/\//],
    [{ ...base, screen_url: 'not a url' }, /is not a URL/],
    [{ ...base, screen_url: 'https://host/?token=x' }, /query or fragment/],
    [{ ...base, screen_token_env: 'HOST-TOKEN' }, /name of an environment variable/],
    [{ ...base, screen_tls: { fingerprint_sha256: 'sha256:abc' } }, /64 hex digits/],
    [{ ...base, screen_tls: { ca_file: '' } }, /must be a file path/],
  ])('refuses %j as configuration', (target, message) => {
    let error: unknown;
    try {
      resolveTarget(target);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScreenHostError);
    expect(error).toMatchObject({
      kind: 'config',
      code: 'invalid',
      message: expect.stringMatching(message),
    });
  });
});
