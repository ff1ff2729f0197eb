import { Injectable, Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { DomainError } from '../../common/domain-error';
import { AppConfig } from '../../config/app-config';
import { isLoopback } from '../../destinations/origin';
import { ownSecret } from '../../secrets/own-secret';
import { ClaimSettings, needsUserInfo, Person, personFromClaims } from './person';

/** What a sign-in keeps server-side between the redirect and the callback. */
export interface LoginChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export class SignInRefused extends Error {}

/**
 * The identity provider through `openid-client`: authorization code with PKCE (S256), state and
 * nonce; the ID token checked by the library (issuer, audience, signature, nonce); claims the ID
 * token lacks are read from userinfo. The provider's metadata is discovered once, on first use.
 */
@Injectable()
export class OidcClientService {
  private readonly logger = new Logger(OidcClientService.name);
  private discovered: Promise<client.Configuration> | null = null;

  constructor(private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.OIDC_ISSUER_URL !== undefined;
  }

  get redirectUri(): string {
    return `${this.config.PUBLIC_URL}/auth/callback`;
  }

  /** Where to send the browser, and the checks to keep for its return. */
  async start(): Promise<{ url: string; checks: LoginChecks }> {
    const configuration = await this.configuration();
    const checks: LoginChecks = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: this.config.OIDC_SCOPES,
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, checks };
  }

  /** The person the provider's answer (the callback's query) stands for. */
  async finish(query: string, checks: LoginChecks): Promise<Person> {
    const configuration = await this.configuration();
    const tokens = await client.authorizationCodeGrant(
      configuration,
      new URL(`${this.redirectUri}${query}`),
      {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      },
    );
    let claims: Record<string, unknown> = { ...tokens.claims() };
    const settings = this.claimSettings();
    if (needsUserInfo(claims, settings) && configuration.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(
        configuration,
        tokens.access_token,
        claims.sub as string,
      );
      // The ID token's claims win: they are signed.
      claims = { ...info, ...claims };
    }
    const read = personFromClaims(claims, settings);
    if ('problem' in read) throw new SignInRefused(read.problem);
    return read.person;
  }

  private claimSettings(): ClaimSettings {
    return {
      tenantClaim: this.config.OIDC_TENANT_CLAIM,
      tenant: this.config.OIDC_TENANT,
      groupsClaim: this.config.OIDC_GROUPS_CLAIM,
    };
  }

  private configuration(): Promise<client.Configuration> {
    if (!this.enabled) {
      throw new DomainError('not_found', 'sign-in through an identity provider is not configured');
    }
    this.discovered ??= this.discover().catch((error: unknown) => {
      // Tried again on the next sign-in: the provider may only have been down.
      this.discovered = null;
      this.logger.error(`OIDC discovery failed: ${String(error)}`);
      throw new DomainError('unavailable', 'the identity provider could not be reached');
    });
    return this.discovered;
  }

  private async discover(): Promise<client.Configuration> {
    const issuer = new URL(this.config.OIDC_ISSUER_URL!);
    const secretEnv = this.config.OIDC_CLIENT_SECRET_ENV;
    const secret = secretEnv ? ownSecret(secretEnv) : undefined;
    if (secretEnv && !secret) {
      throw new Error(`${secretEnv} (named by OIDC_CLIENT_SECRET_ENV) is not set`);
    }
    // Plain http only to a provider on this machine (development, tests), as for every secret.
    const insecure = issuer.protocol === 'http:' && isLoopback(issuer.hostname);
    return client.discovery(
      issuer,
      this.config.OIDC_CLIENT_ID!,
      secret,
      secret ? client.ClientSecretBasic(secret) : client.None(),
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
  }
}
