import fc from 'fast-check';
import { slackSignature, verifySlackRequest } from './slack-signature';

describe('Slack request signatures (slack-signature.ts)', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = Buffer.from('payload=%7B%22type%22%3A%22block_actions%22%7D');
  const now = 1_800_000_000;
  const ts = String(now);
  const verify = (o: Partial<Parameters<typeof verifySlackRequest>[0]>) =>
    verifySlackRequest({
      secrets: [secret],
      timestamp: ts,
      signature: slackSignature(secret, ts, body),
      rawBody: body,
      nowSeconds: now,
      ...o,
    });

  it('is v0= and the hex HMAC-SHA256 of "v0:timestamp:body" with the signing secret', () => {
    // printf 'v0:1800000000:payload=%%7B%%22type%%22%%3A%%22block_actions%%22%%7D' |
    //   openssl dgst -sha256 -hmac 8f742231b10e8888abcd99yyyzzz85a5
    expect(slackSignature(secret, ts, body)).toBe(
      'v0=4d9c26a776a19c08618949b37b5d5bae40d0379217864b3014c57e4c027d5127',
    );
  });

  it('accepts a fresh request signed with one of the secrets', () => {
    expect(verify({})).toEqual({ ok: true });
    expect(verify({ secrets: ['another', secret] })).toEqual({ ok: true });
    expect(verify({ nowSeconds: now + 300 })).toEqual({ ok: true });
  });

  it('refuses one older or newer than five minutes, however well signed', () => {
    expect(verify({ nowSeconds: now + 301 })).toEqual({ ok: false, reason: 'stale' });
    expect(verify({ nowSeconds: now - 301 })).toEqual({ ok: false, reason: 'stale' });
  });

  it('refuses a request without a signature or timestamp, or with a malformed one', () => {
    expect(verify({ signature: undefined })).toEqual({ ok: false, reason: 'unsigned' });
    expect(verify({ timestamp: undefined })).toEqual({ ok: false, reason: 'unsigned' });
    expect(verify({ timestamp: '1e9' })).toEqual({ ok: false, reason: 'unsigned' });
    expect(verify({ signature: `v1=${'0'.repeat(64)}` })).toEqual({
      ok: false,
      reason: 'unsigned',
    });
  });

  it('refuses a forged one: another secret, another body, another timestamp, no secret', () => {
    expect(verify({ secrets: ['not the secret'] })).toEqual({ ok: false, reason: 'forged' });
    expect(verify({ secrets: [] })).toEqual({ ok: false, reason: 'forged' });
    expect(verify({ rawBody: Buffer.from(`${body.toString()}x`) })).toEqual({
      ok: false,
      reason: 'forged',
    });
    expect(verify({ signature: slackSignature(secret, String(now - 1), body) })).toEqual({
      ok: false,
      reason: 'forged',
    });
  });

  it('never accepts a body it was not signed over (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (a, b) => {
        const signed = Buffer.from(a);
        const sent = Buffer.from(b);
        const verdict = verify({ rawBody: sent, signature: slackSignature(secret, ts, signed) });
        return verdict.ok === signed.equals(sent);
      }),
    );
  });
});
