import { cookieNames, hasCookie, readCookie, setCookie } from './session-cookie';

describe('the session cookie', () => {
  it('has the __Host- prefix and Secure on https, a plain name on loopback http', () => {
    expect(cookieNames('https://warden.example.com')).toEqual({
      session: '__Host-warden_session',
      login: '__Host-warden_signin',
      secure: true,
    });
    expect(cookieNames('http://127.0.0.1:3000')).toEqual({
      session: 'warden_session',
      login: 'warden_signin',
      secure: false,
    });
  });

  it('is HttpOnly, SameSite=Lax and for the whole origin', () => {
    expect(setCookie('__Host-warden_session', 'abc', { secure: true })).toBe(
      '__Host-warden_session=abc; Path=/; HttpOnly; SameSite=Lax; Secure',
    );
    expect(setCookie('warden_session', '', { secure: false, maxAgeSeconds: 0 })).toBe(
      'warden_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    );
  });

  it('reads its value from a Cookie header', () => {
    expect(readCookie('a=1; warden_session=AbC_-9; b=2', 'warden_session')).toBe('AbC_-9');
    expect(readCookie('xwarden_session=1', 'warden_session')).toBeUndefined();
    expect(readCookie(undefined, 'warden_session')).toBeUndefined();
  });

  it('treats a value that is not base64url, or a name sent twice, as absent', () => {
    expect(readCookie('warden_session=a%20b', 'warden_session')).toBeUndefined();
    expect(readCookie('warden_session=a; warden_session=b', 'warden_session')).toBeUndefined();
    expect(hasCookie('warden_session=a%20b', 'warden_session')).toBe(true);
    expect(hasCookie('other=1', 'warden_session')).toBe(false);
  });
});
