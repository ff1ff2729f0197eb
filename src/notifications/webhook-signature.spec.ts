import fc from 'fast-check';
import { signWebhook, verifyWebhook } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'test-signing-secret';
  const body = '{"event":"held"}';
  const now = 1_800_000_000;

  it('is HMAC-SHA256 over "timestamp.body", hex, after sha256=', () => {
    // echo -n '1800000000.{"event":"held"}' | openssl dgst -sha256 -hmac test-signing-secret
    expect(signWebhook(secret, now, body)).toBe(
      'sha256=2b9d6f2e610976f29c86e9f71a4cce35e54b2c4aeb41e339f35315d9d00ce87c',
    );
    expect(signWebhook(secret, now, body)).toBe(signWebhook(secret, String(now), body));
    expect(signWebhook(secret, now, body)).not.toBe(signWebhook(secret, now + 1, body));
  });

  it('accepts a fresh delivery', () => {
    const signature = signWebhook(secret, now, body);
    expect(
      verifyWebhook({ secret, timestamp: String(now), signature, body, nowSeconds: now + 10 }),
    ).toEqual({ ok: true });
  });

  it('refuses a replay older than five minutes, and a timestamp far in the future', () => {
    const signature = signWebhook(secret, now, body);
    const at = (nowSeconds: number) =>
      verifyWebhook({ secret, timestamp: String(now), signature, body, nowSeconds });
    expect(at(now + 300)).toEqual({ ok: true });
    expect(at(now + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(at(now - 301)).toEqual({ ok: false, reason: 'stale' });
  });

  it('refuses another body, secret or timestamp, and malformed headers', () => {
    const signature = signWebhook(secret, now, body);
    const check = (over: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      verifyWebhook({ secret, timestamp: String(now), signature, body, nowSeconds: now, ...over });
    expect(check({ body: '{"event":"held" }' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ secret: 'other' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ timestamp: String(now - 1) })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ signature: undefined })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ signature: signature.slice(7) })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ timestamp: 'yesterday' })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('verifies what it signs, for any body', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (b, s) => {
        const sig = signWebhook(s, now, b);
        return verifyWebhook({
          secret: s,
          timestamp: String(now),
          signature: sig,
          body: b,
          nowSeconds: now,
        }).ok;
      }),
    );
  });
});
