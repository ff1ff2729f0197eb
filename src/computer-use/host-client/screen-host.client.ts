/**
 * The client side of the screen host protocol (docs/screen-host.md): HTTPS only, the host's certificate
 * verified against a pinned SHA-256 fingerprint, a CA file or the system's CAs, a bearer token that
 * SecretGrants released for the host's origin, and every answer bounded in time and size and
 * checked before anyone uses it (docs/operations.md).
 *
 * This file is the injectable that hands out screen hosts, and where callers import from. The
 * parts: screen-host-target.ts checks the settings, tls-connector.ts opens verified connections,
 * host-transport.ts makes one bounded call, host-answers.ts checks what came back, and
 * https-screen-host.ts is the protocol's calls.
 */
import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import type { Agent } from 'node:https';
import type { ReleasedSecret } from '../../secrets/secret-grants.service';
import { AppConfig } from '../../config/app-config';
import { HttpsScreenHost } from './https-screen-host';
import { resolveTarget } from './screen-host-target';
import type { ScreenHost, ScreenHostClientOptions, ScreenHostTarget } from './screen-host.types';
import { VerifyingAgent } from './tls-connector';

export { ScreenHostError } from './screen-host-error';
export type { ScreenHostErrorKind } from './screen-host-error';
export type * from './screen-host.types';
export { normaliseFingerprint, resolveTarget } from './screen-host-target';
export { MAX_ELEMENTS_BYTES, MAX_JSON_BYTES, MAX_SCREENSHOT_BYTES } from './host-transport';

export const DEFAULT_SCREEN_HOST_CLIENT_OPTIONS: ScreenHostClientOptions = {
  connectTimeoutMs: 3000,
  screenshotTimeoutMs: 10_000,
  elementsTimeoutMs: 5000,
  healthTimeoutMs: 5000,
  actionTimeoutMs: 30_000,
  lookupTimeoutMs: 5000,
  screenshotAttempts: 3,
  retryBackoffMs: 100,
  maxSockets: 4,
  idleTimeoutMs: 15_000,
};

export const SCREEN_HOST_CLIENT_OPTIONS = Symbol('SCREEN_HOST_CLIENT_OPTIONS');

/**
 * Hands out a `ScreenHost` per agent configuration. Connections are pooled (kept alive) per screen
 * URL and TLS trust; a changed pin or CA file gets a new pool.
 */
@Injectable()
export class ScreenHostClient implements OnModuleDestroy {
  private readonly options: ScreenHostClientOptions;
  private readonly agents = new Map<string, Agent>();
  private static readonly MAX_POOLS = 64;

  constructor(
    @Optional() @Inject(SCREEN_HOST_CLIENT_OPTIONS) options?: Partial<ScreenHostClientOptions>,
    @Optional() config?: AppConfig,
  ) {
    this.options = { ...DEFAULT_SCREEN_HOST_CLIENT_OPTIONS, caDir: config?.CA_DIR, ...options };
  }

  /** The deployment's CA_DIR, where CA files are read from. */
  get caDir(): string | undefined {
    return this.options.caDir;
  }

  /**
   * The host of an agent's settings, with its token released by SecretGrants for the host's
   * origin. Throws a `config` ScreenHostError when the settings cannot work (not https, a bad
   * pin…).
   */
  forTarget(target: ScreenHostTarget, token: ReleasedSecret): ScreenHost {
    const resolved = resolveTarget(target, this.options.caDir);
    let agent = this.agents.get(resolved.key);
    if (agent) {
      // Most recently used last, so the oldest pool is the one closed when there are too many.
      this.agents.delete(resolved.key);
    } else {
      agent = new VerifyingAgent(resolved, this.options.connectTimeoutMs, this.options);
      while (this.agents.size >= ScreenHostClient.MAX_POOLS) {
        const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
        oldest.destroy();
        this.agents.delete(oldestKey);
      }
    }
    this.agents.set(resolved.key, agent);
    return new HttpsScreenHost({ ...resolved, token }, agent, this.options);
  }

  onModuleDestroy(): void {
    this.close();
  }

  /** Closes every kept-alive connection. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
