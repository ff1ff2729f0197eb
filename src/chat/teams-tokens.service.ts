import { Injectable, Logger } from '@nestjs/common';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { AppConfig } from '../config/app-config';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** What a Teams request must be: for one of these bots, from this channel and service. */
export interface TeamsExpectation {
  /** The `bot_app_id`s of the agent's Teams channels: the token's audience must be one. */
  appIds: readonly string[];
  channelId: string;
  serviceUrl: string;
}

export type TokenVerdict = { ok: true } | { ok: false; reason: string };

/** How long the issuer's metadata (where its keys are) is kept before it is read again. */
const METADATA_SECONDS = 3600;

/**
 * Verifies the bearer token the Bot Framework sends a bot endpoint (docs/notifications.md): signed
 * (RS256) by a key of the configured issuer's OpenID metadata (`TEAMS_BOT_OPENID_METADATA_URL`,
 * its `jwks_uri`), `iss` exactly `TEAMS_BOT_ISSUER`, `aud` one of the agent's bot app ids, not
 * expired (five minutes of clock skew, as the Bot Framework allows), a key that lists
 * endorsements endorsed for the activity's channel, and a `serviceUrl` claim that is the
 * activity's. Anything it cannot read or check refuses.
 */
@Injectable()
export class TeamsTokens {
  private readonly logger = new Logger(TeamsTokens.name);
  private keys: { set: KeySet; until: number } | null = null;

  constructor(private readonly config: AppConfig) {}

  async verify(authorization: string | undefined, expect: TeamsExpectation): Promise<TokenVerdict> {
    const token = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(
      authorization ?? '',
    )?.[1];
    if (!token) return { ok: false, reason: 'no bearer token' };
    if (expect.appIds.length === 0) {
      return { ok: false, reason: 'the agent names no Teams bot (bot_app_id)' };
    }
    let set: KeySet;
    try {
      set = await this.keySet();
    } catch (error) {
      this.logger.warn({ err: error }, "the Teams bot issuer's keys could not be read");
      return { ok: false, reason: "the issuer's keys could not be read" };
    }
    let payload: JWTPayload;
    let kid: string | undefined;
    try {
      const verified = await jwtVerify(token, set, {
        issuer: this.config.TEAMS_BOT_ISSUER,
        audience: [...expect.appIds],
        algorithms: ['RS256'],
        clockTolerance: 300,
        requiredClaims: ['exp'],
      });
      payload = verified.payload;
      kid = verified.protectedHeader.kid;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { ok: false, reason: typeof code === 'string' ? code : 'the token does not verify' };
    }
    const key = set.jwks()?.keys.find((k) => k.kid === kid) as
      { endorsements?: unknown } | undefined;
    if (Array.isArray(key?.endorsements) && !key.endorsements.includes(expect.channelId)) {
      return { ok: false, reason: `the signing key is not endorsed for ${expect.channelId}` };
    }
    const serviceUrl = payload.serviceUrl ?? payload.serviceurl;
    if (serviceUrl !== undefined && serviceUrl !== expect.serviceUrl) {
      return { ok: false, reason: "the token's serviceUrl is not the activity's" };
    }
    return { ok: true };
  }

  /** The issuer's keys, from its metadata's `jwks_uri`, read again every METADATA_SECONDS. */
  private async keySet(): Promise<KeySet> {
    if (this.keys && this.keys.until > Date.now()) return this.keys.set;
    const response = await fetch(this.config.TEAMS_BOT_OPENID_METADATA_URL, {
      redirect: 'error',
      signal: AbortSignal.timeout(this.config.NOTIFY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`the metadata answered ${response.status}`);
    const metadata: unknown = await response.json();
    const jwksUri =
      typeof metadata === 'object' && metadata !== null
        ? (metadata as Record<string, unknown>).jwks_uri
        : undefined;
    if (typeof jwksUri !== 'string') throw new Error('the metadata names no jwks_uri');
    const set = createRemoteJWKSet(new URL(jwksUri), {
      timeoutDuration: this.config.NOTIFY_TIMEOUT_MS,
    });
    this.keys = { set, until: Date.now() + METADATA_SECONDS * 1000 };
    return set;
  }
}
