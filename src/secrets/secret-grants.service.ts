import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { userInfo } from 'node:os';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AppConfig } from '../config/app-config';
import { Destinations } from '../destinations/destinations.service';
import { TenantsService } from '../tenants/tenants.service';
import { destinationOrigin, grantOrigin } from '../destinations/origin';
import { normalOrigin } from '../destinations/destination-origin';
import { ownVariable } from './own-variables';
import type { SecretGrant } from './secret-grant.entity';
import { SecretGrantsRepository } from './secret-grants.repository';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a secret is for, in messages: "the screen host token", "the model key". */
export interface SecretUse {
  tenant: string;
  /** The environment variable the tenant's config names. */
  envName: string;
  /** The URL the secret would be sent to (its origin is what a grant names). */
  destination: string;
  what: string;
}

export type SecretRefusalReason = 'not_granted' | 'unset' | 'own_variable' | 'destination';

/** A secret Warden will not send, and why, in words an admin can act on. */
export class SecretRefused extends Error {
  constructor(
    readonly reason: SecretRefusalReason,
    message: string,
    /** The command that adds the missing grant (not_granted only). */
    readonly fix: string | null = null,
  ) {
    super(message);
    this.name = 'SecretRefused';
  }
}

const RELEASE = Symbol('release');

/**
 * A secret's value, released for one origin. Only SecretGrants makes one; the screen host transport
 * and the model call send it only to that origin.
 */
export class ReleasedSecret {
  constructor(
    key: typeof RELEASE,
    readonly envName: string,
    readonly origin: string,
    readonly value: string,
  ) {
    if (key !== RELEASE) throw new Error('a secret is released only by SecretGrants');
  }

  /** Whether `url` is on the origin this secret was released for. */
  mayGoTo(url: string): boolean {
    const checked = destinationOrigin(url);
    return 'origin' in checked && checked.origin === this.origin;
  }
}

export interface GrantView {
  tenant: string;
  env: string;
  to: string;
  granted_by: string;
  granted_at: string;
}

/**
 * A variable's value only to cut it out of text Warden writes (a model prompt, a host's message):
 * never to send. Undefined when unset or shorter than 4 characters.
 */
export function valueForRedaction(name: string): string | undefined {
  const value = process.env[name];
  return value !== undefined && value.length >= 4 ? value : undefined;
}

/**
 * A secret of the deployment's own (the SMTP password named by SMTP_PASSWORD_ENV): the operator's
 * setting names it for Warden's own use, so it needs no grant and can never be granted.
 */
export function deploymentSecret(name: string | undefined): string | undefined {
  if (!name || !ENV_NAME.test(name)) return undefined;
  const value = process.env[name];
  return value === '' ? undefined : value;
}

/** The OS user running the CLI: the audit actor of an operator's grant (docs/screen-host.md). */
export function operatorName(): string {
  try {
    return `os:${userInfo().username}`;
  } catch {
    return 'os:unknown';
  }
}

/**
 * Who may send a secret where (docs/screen-host.md), in one place: the deployment operator grants an
 * environment variable to a tenant and an origin (the CLI), and every secret Warden sends (a
 * screen host's bearer token, a model key) is released here, for one origin, only when a live grant
 * says so and the origin is a destination granted for the tenant (`Destinations`; a secret grant
 * grants its origin). Warden's own variables are never granted; the deployment's default model's
 * key needs no secret grant, but goes only to a tenant whose destinations include the default model.
 */
@Injectable()
export class SecretGrants {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly grants: SecretGrantsRepository,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
    private readonly destinations: Destinations,
  ) {}

  /** Why the secret may not go (without reading its value beyond "is it set"), or null. */
  async refusal(use: SecretUse): Promise<SecretRefused | null> {
    try {
      await this.check(use);
      return null;
    } catch (error) {
      if (error instanceof SecretRefused) return error;
      throw error;
    }
  }

  /** The secret's value for its destination's origin; a SecretRefused when it may not go. */
  async release(use: SecretUse): Promise<ReleasedSecret> {
    const origin = await this.check(use);
    return new ReleasedSecret(RELEASE, use.envName, origin, process.env[use.envName]!);
  }

  /**
   * A secret that is itself the destination (a Slack or Teams incoming-webhook URL): released for
   * its own origin when a live grant names it. Messages never quote the value.
   */
  async releaseDestination(use: Omit<SecretUse, 'destination'>): Promise<ReleasedSecret> {
    const value = ENV_NAME.test(use.envName) ? process.env[use.envName] : undefined;
    if (value === undefined || value === '') {
      throw new SecretRefused(
        'unset',
        `${use.what} variable ${use.envName} is not set on the Warden host`,
      );
    }
    const destination = destinationOrigin(value);
    if ('problem' in destination) {
      throw new SecretRefused(
        'destination',
        `${use.what} in ${use.envName} is not a URL Warden may post to (https://, or http:// on loopback, no user or password)`,
      );
    }
    return this.release({ ...use, destination: value });
  }

  async grant(tenant: string, envName: string, to: string, actor: string): Promise<GrantView> {
    const origin = this.grantable(envName, to);
    return this.dataSource.transaction(async (manager) => {
      await this.tenants.ensure(tenant, manager);
      const { grant, created } = await this.grants.grant(
        manager,
        { tenant, envName, origin },
        actor,
      );
      if (created) {
        await this.audit.record(
          { tenant, type: 'secret.granted', actor, details: { env: envName, to: origin } },
          manager,
        );
      }
      return view(grant);
    });
  }

  /** Revokes a grant; null when there was none. */
  async revoke(
    tenant: string,
    envName: string,
    to: string,
    actor: string,
  ): Promise<GrantView | null> {
    const origin = grantOrigin(to);
    return this.dataSource.transaction(async (manager) => {
      const revoked = await this.grants.revoke(manager, { tenant, envName, origin }, actor);
      if (!revoked) return null;
      await this.audit.record(
        { tenant, type: 'secret.revoked', actor, details: { env: envName, to: origin } },
        manager,
      );
      return view(revoked);
    });
  }

  async list(tenant?: string): Promise<GrantView[]> {
    return (await this.grants.list(tenant)).map(view);
  }

  /** The origin a grant for this variable may name; throws with the reason it may not. */
  grantable(envName: string, to: string): string {
    if (!ENV_NAME.test(envName)) {
      throw new Error(
        `--env must be an environment variable name (letters, digits, _), not ${JSON.stringify(envName)}`,
      );
    }
    const own = ownVariable(envName, { ...this.config });
    if (own) throw new Error(`${own}: it can never be granted to a tenant`);
    return grantOrigin(to);
  }

  /** The origin the secret may go to, or a SecretRefused. */
  private async check(use: SecretUse): Promise<string> {
    const destination = destinationOrigin(use.destination);
    if ('problem' in destination) {
      throw new SecretRefused(
        'destination',
        `${use.what} may not be sent to ${use.destination}: ${destination.problem}`,
      );
    }
    const origin = destination.origin;
    if (!ENV_NAME.test(use.envName)) {
      throw new SecretRefused(
        'own_variable',
        `${use.what}: ${JSON.stringify(use.envName)} is not an environment variable name`,
      );
    }
    // The deployment's own model keys (the default model's, MODEL_PLANNERS') going to their own
    // endpoints need no secret grant (and can have none); the tenant still needs the operator's
    // destination grant of that model. Which tenant may use which of those planners is the
    // catalog's rule (docs/planners.md).
    const deploymentKey = this.destinations.deploymentKey(use.envName, origin);
    if (!deploymentKey) {
      const own = ownVariable(use.envName, { ...this.config });
      if (own) {
        throw new SecretRefused(
          'own_variable',
          `${use.what} names ${use.envName}: ${own}, which Warden never sends`,
        );
      }
      const granted = await this.grants.isGranted({
        tenant: use.tenant,
        envName: use.envName,
        origin,
      });
      if (!granted) {
        const fix = `npm run cli -- secrets grant --tenant ${use.tenant} --env ${use.envName} --to ${origin}`;
        throw new SecretRefused(
          'not_granted',
          `${use.what} in ${use.envName} is not granted for ${origin} in tenant ${use.tenant}: the deployment operator adds the grant with \`${fix}\``,
          fix,
        );
      }
    }
    // The secret's grant grants its origin (the live grant just read names it): read the tenant's
    // destination grants only for the deployment's own model keys, which need a destination grant
    // of their own, a secret grant of the same origin not being one.
    if (!deploymentKey && normalOrigin(origin) === origin) return this.setValue(use, origin);
    const unreachable = await this.destinations.refusal({
      tenant: use.tenant,
      origin,
      what: use.what,
      ...(deploymentKey ? { deployment: deploymentKey } : {}),
    });
    if (unreachable) throw new SecretRefused('not_granted', unreachable.message, unreachable.fix);
    return this.setValue(use, origin);
  }

  /** `origin`, once the secret's variable is known to be set. */
  private setValue(use: SecretUse, origin: string): string {
    const value = process.env[use.envName];
    if (value === undefined || value === '') {
      throw new SecretRefused(
        'unset',
        `${use.what} variable ${use.envName} is not set on the Warden host`,
      );
    }
    return origin;
  }
}

function view(grant: SecretGrant): GrantView {
  return {
    tenant: grant.tenant,
    env: grant.envName,
    to: grant.origin,
    granted_by: grant.grantedBy,
    granted_at: grant.grantedAt.toISOString(),
  };
}
