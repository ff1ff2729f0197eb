import { randomBytes } from 'node:crypto';
import { openScreen, parseScreenKeys, ScreenCryptoError, sealScreen } from './screen-crypto';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(300)]);
const SHA = 'a'.repeat(64);
const k = () => randomBytes(32).toString('base64');

describe('screen encryption at rest', () => {
  it('round-trips, under a fresh nonce each time, without the PNG signature in the stored bytes', () => {
    const keys = parseScreenKeys(`k1:${k()}`, 'SCREEN_KEYS');
    const a = sealScreen(keys, 'acme', SHA, PNG);
    const b = sealScreen(keys, 'acme', SHA, PNG);
    expect(a.keyId).toBe('k1');
    expect(a.nonce).toHaveLength(12);
    expect(a.data).toHaveLength(PNG.length + 16);
    expect(a.data.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(false);
    expect(a.nonce.equals(b.nonce)).toBe(false);
    expect(openScreen(keys, 'acme', SHA, a)).toEqual(PNG);
  });

  it('reads under an older key listed after the current one', () => {
    const old = k();
    const sealed = sealScreen(parseScreenKeys(`k1:${old}`, 'V'), 'acme', SHA, PNG);
    const rotated = parseScreenKeys(`k2:${k()}, k1:${old}`, 'V');
    expect(rotated.current.id).toBe('k2');
    expect(openScreen(rotated, 'acme', SHA, sealed)).toEqual(PNG);
  });

  it('fails closed with a clear error under a wrong or missing key', () => {
    const sealed = sealScreen(parseScreenKeys(`k1:${k()}`, 'V'), 'acme', SHA, PNG);
    expect(() => openScreen(parseScreenKeys(`k1:${k()}`, 'V'), 'acme', SHA, sealed)).toThrow(
      new ScreenCryptoError(
        `screen ${SHA} does not decrypt under key k1: the key is not the one it was encrypted with, or its bytes were changed (GCM tag mismatch)`,
      ),
    );
    expect(() => openScreen(parseScreenKeys(`k9:${k()}`, 'V'), 'acme', SHA, sealed)).toThrow(
      `screen ${SHA} is encrypted under key k1, which the screen keys (SCREEN_KEYS_ENV) do not hold`,
    );
    expect(() => openScreen(null, 'acme', SHA, sealed)).toThrow(ScreenCryptoError);
  });

  it('fails the GCM tag on tampered ciphertext, tag, nonce or another row', () => {
    const keys = parseScreenKeys(`k1:${k()}`, 'V');
    const sealed = sealScreen(keys, 'acme', SHA, PNG);
    const flip = (b: Buffer, i: number) => {
      const c = Buffer.from(b);
      c[i] ^= 1;
      return c;
    };
    const tampered = [
      { ...sealed, data: flip(sealed.data, 10) },
      { ...sealed, data: flip(sealed.data, sealed.data.length - 1) },
      { ...sealed, nonce: flip(sealed.nonce, 0) },
    ];
    for (const t of tampered) {
      expect(() => openScreen(keys, 'acme', SHA, t)).toThrow(/GCM tag mismatch/);
    }
    expect(() => openScreen(keys, 'globex', SHA, sealed)).toThrow(/GCM tag mismatch/);
    expect(() => openScreen(keys, 'acme', 'b'.repeat(64), sealed)).toThrow(/GCM tag mismatch/);
    expect(() =>
      openScreen(keys, 'acme', SHA, { ...sealed, data: sealed.data.subarray(0, 4) }),
    ).toThrow(/cut off/);
  });

  it('refuses malformed key lists without quoting a key', () => {
    const key = k();
    expect(() => parseScreenKeys('', 'V')).toThrow('V: entry 1 must be keyid:base64key');
    expect(() => parseScreenKeys(key, 'V')).toThrow(/entry 1 must be keyid:base64key/);
    expect(() => parseScreenKeys(`k1:${randomBytes(16).toString('base64')}`, 'V')).toThrow(
      'V: key k1 must be 32 bytes in base64 (AES-256), it is 16 bytes',
    );
    expect(() => parseScreenKeys(`k1:${key},k1:${k()}`, 'V')).toThrow('key id k1 is listed twice');
    try {
      parseScreenKeys(`bad id:${key}`, 'V');
    } catch (error) {
      expect(String(error)).not.toContain(key);
    }
  });
});
