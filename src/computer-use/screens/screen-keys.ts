import { Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ownSecret } from '../../secrets/own-secret';
import { parseScreenKeys, ScreenCryptoError, ScreenKeyring } from './screen-crypto';

/**
 * The deployment's screen keys (SCREEN_KEYS_ENV), read from the environment at the moment of use
 * (so a rotation needs only the variable changed and the processes restarted) and parsed once per
 * value. Null when SCREEN_KEYS_ENV is unset: screens are stored as plaintext.
 */
@Injectable()
export class ScreenKeys {
  private parsed?: { raw: string; keyring: ScreenKeyring };

  constructor(@Optional() private readonly config?: AppConfig) {}

  /** Whether the deployment asked for encryption (then a missing key fails closed). */
  get configured(): boolean {
    return this.config?.SCREEN_KEYS_ENV !== undefined;
  }

  keyring(): ScreenKeyring | null {
    const variable = this.config?.SCREEN_KEYS_ENV;
    if (!variable) return null;
    const raw = ownSecret(variable);
    if (!raw) {
      throw new ScreenCryptoError(
        `SCREEN_KEYS_ENV names ${variable}, which is unset or empty: no screen is stored in plaintext instead, and encrypted screens cannot be read`,
      );
    }
    if (this.parsed?.raw !== raw) this.parsed = { raw, keyring: parseScreenKeys(raw, variable) };
    return this.parsed.keyring;
  }
}
