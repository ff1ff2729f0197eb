/**
 * Screens at rest (issue 17 §2): AES-256-GCM under a key from the deployment's environment. Each
 * stored screen records its key id and its 96-bit nonce; the ciphertext carries the 16-byte GCM
 * tag at its end. The additional data binds a ciphertext to its tenant and SHA-256, so bytes moved
 * to another row do not decrypt. The SHA-256 stays over the plaintext PNG. Pure.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;
const TAG_BYTES = 16;
const NONCE_BYTES = 12;

/** Refused keys, a missing key, a ciphertext that does not decrypt: never the key itself. */
export class ScreenCryptoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScreenCryptoError';
  }
}

export interface ScreenKeyring {
  /** The first key listed: new screens and rekey use it. */
  current: { id: string; key: Buffer };
  byId: ReadonlyMap<string, Buffer>;
}

/** Parses `keyid:base64key[,keyid:base64key…]`, the first being current; `variable` names it in errors. */
export function parseScreenKeys(raw: string, variable: string): ScreenKeyring {
  const byId = new Map<string, Buffer>();
  let current: ScreenKeyring['current'] | undefined;
  for (const [i, part] of raw.split(',').entries()) {
    const entry = part.trim();
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!KEY_ID.test(id)) {
      throw new ScreenCryptoError(
        `${variable}: entry ${i + 1} must be keyid:base64key (key id of 1-32 letters, digits, _ . -)`,
      );
    }
    const key = Buffer.from(entry.slice(colon + 1), 'base64');
    if (key.length !== 32 || !/^[A-Za-z0-9+/]+=*$/.test(entry.slice(colon + 1))) {
      throw new ScreenCryptoError(
        `${variable}: key ${id} must be 32 bytes in base64 (AES-256), it is ${key.length} bytes`,
      );
    }
    if (byId.has(id)) throw new ScreenCryptoError(`${variable}: key id ${id} is listed twice`);
    byId.set(id, key);
    current ??= { id, key };
  }
  if (!current) throw new ScreenCryptoError(`${variable} holds no key`);
  return { current, byId };
}

function additionalData(tenant: string, sha256: string): Buffer {
  return Buffer.from(`warden-screen:v1:${tenant}:${sha256}`, 'utf8');
}

export interface SealedScreen {
  keyId: string;
  nonce: Buffer;
  /** Ciphertext, then the GCM tag. */
  data: Buffer;
}

export function sealScreen(
  keyring: ScreenKeyring,
  tenant: string,
  sha256: string,
  png: Buffer,
): SealedScreen {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.current.key, nonce);
  cipher.setAAD(additionalData(tenant, sha256));
  const data = Buffer.concat([cipher.update(png), cipher.final(), cipher.getAuthTag()]);
  return { keyId: keyring.current.id, nonce, data };
}

/** The PNG, or a ScreenCryptoError: no such key, or wrong key / tampered bytes (the GCM tag). */
export function openScreen(
  keyring: ScreenKeyring | null,
  tenant: string,
  sha256: string,
  sealed: SealedScreen,
): Buffer {
  const key = keyring?.byId.get(sealed.keyId);
  if (!key) {
    throw new ScreenCryptoError(
      `screen ${sha256} is encrypted under key ${sealed.keyId}, which the screen keys (SCREEN_KEYS_ENV) do not hold`,
    );
  }
  if (sealed.nonce.length !== NONCE_BYTES || sealed.data.length < TAG_BYTES) {
    throw new ScreenCryptoError(`screen ${sha256} is damaged: its nonce or tag is cut off`);
  }
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.nonce);
  decipher.setAAD(additionalData(tenant, sha256));
  decipher.setAuthTag(sealed.data.subarray(sealed.data.length - TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(sealed.data.subarray(0, sealed.data.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new ScreenCryptoError(
      `screen ${sha256} does not decrypt under key ${sealed.keyId}: the key is not the one it was encrypted with, or its bytes were changed (GCM tag mismatch)`,
    );
  }
}
