import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AppConfig } from '../config/app-config';
import { modelPlanners } from '../config/model-planners';
import { modelEndpoint } from '../config/provider-urls';
import { TenantsService } from '../tenants/tenants.service';
import {
  decide,
  DEPLOYMENT_DESTINATIONS,
  type DeploymentDestination,
  deploymentName,
  type DeploymentTarget,
  type DestinationUse,
} from './destination-decision';
import type { DestinationGrant } from './destination-grant.entity';
import { DestinationGrantsRepository } from './destination-grants.repository';
import { grantableOrigin, httpDestination, smtpDestination } from './destination-origin';

/** A connection Warden will not open, and why, with the operator's command that grants it. */
export class DestinationRefused extends Error {
  readonly reason = 'not_granted' as const;

  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

export interface DestinationGrantView {
  tenant: string;
  to: string;
  note: string | null;
  granted_by: string;
  granted_at: string;
}

/** A live grant of either kind, as `destinations list` prints it. */
export interface DestinationListRow {
  tenant: string;
  to: string;
  /**
   * `destination grant`, or `secret grant of NAME` for an origin a secret grant grants; for the
   * origin of the deployment's default model or SMTP server, which of the two grants it.
   */
  by: string;
  note: string;
  granted_by: string;
  granted_at: string;
}

const MAX_NOTE = 500;

/**
 * Where Warden may connect on a tenant's behalf (docs/security.md "Destinations"), in one place: the
 * deployment operator grants a tenant an origin (the CLI), and every connection Warden opens for a
 * tenant (a screen host, a model endpoint, a webhook, Slack, Teams, the SMTP server, a syslog or
 * HEC sink) is admitted here first, right before it is opened. A secret grant for an origin grants
 * that origin as well (`SecretGrants.release` comes here too).
 */
@Injectable()
export class Destinations {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly grants: DestinationGrantsRepository,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
  ) {}

  /** Why the tenant's traffic may not go to the destination now, or null. */
  async refusal(use: DestinationUse): Promise<DestinationRefused | null> {
    const decision = decide(use, await this.grants.live(use.tenant));
    return decision.granted ? null : new DestinationRefused(decision.message, decision.fix);
  }

  /** Resolves when the tenant's traffic may go to the destination now; a DestinationRefused if not. */
  async admit(use: DestinationUse): Promise<void> {
    const refused = await this.refusal(use);
    if (refused) throw refused;
  }

  /** The origin of one of the deployment's own destinations; null when the deployment has none. */
  deploymentOrigin(which: DeploymentDestination): string | null {
    const c = this.config;
    if (which === 'default-model') {
      if (!c.DEFAULT_MODEL_PROVIDER || !c.DEFAULT_MODEL_API_KEY_ENV) return null;
      const endpoint = httpDestination(
        modelEndpoint({ provider: c.DEFAULT_MODEL_PROVIDER, base_url: c.DEFAULT_MODEL_BASE_URL }),
      );
      return 'origin' in endpoint ? endpoint.origin : null;
    }
    if (!c.SMTP_URL) return null;
    const smtp = smtpDestination(c.SMTP_URL);
    return 'origin' in smtp ? smtp.origin : null;
  }

  /** The origin of one of the deployment's `MODEL_PLANNERS` planners by id; null when none has it. */
  plannerOrigin(id: string): string | null {
    const planner = modelPlanners(this.config).find((p) => p.id === id);
    if (!planner) return null;
    const endpoint = httpDestination(modelEndpoint(planner));
    return 'origin' in endpoint ? endpoint.origin : null;
  }

  /**
   * Whether a key is one of the deployment's own model keys going to its own endpoint: the default
   * model's (`default-model`) or a `MODEL_PLANNERS` planner's (`{planner: id}`); null for anything
   * else. Either needs a destination grant of its own: a secret grant of the origin is not one.
   */
  deploymentKey(envName: string, origin: string): DeploymentTarget | null {
    const c = this.config;
    if (
      c.DEFAULT_MODEL_API_KEY_ENV === envName &&
      this.deploymentOrigin('default-model') === origin
    ) {
      return 'default-model';
    }
    const planner = modelPlanners(c).find(
      (p) => p.api_key_env === envName && this.plannerOrigin(p.id) === origin,
    );
    return planner ? { planner: planner.id } : null;
  }

  /** Every destination of the deployment's own this deployment has, with its origin. */
  private deploymentOrigins(): Array<{ name: string; origin: string }> {
    const named = (Object.keys(DEPLOYMENT_DESTINATIONS) as DeploymentDestination[]).map(
      (which) => ({ name: deploymentName(which), origin: this.deploymentOrigin(which) }),
    );
    const planners = modelPlanners(this.config).map((p) => ({
      name: deploymentName({ planner: p.id }),
      origin: this.plannerOrigin(p.id),
    }));
    return [...named, ...planners].filter(
      (d): d is { name: string; origin: string } => d.origin !== null,
    );
  }

  async grant(
    tenant: string,
    to: string,
    note: string | undefined,
    actor: string,
  ): Promise<DestinationGrantView> {
    const origin = this.grantable(to);
    if (note !== undefined && (note.trim() === '' || note.length > MAX_NOTE)) {
      throw new Error(`--note must be 1 to ${MAX_NOTE} characters`);
    }
    return this.dataSource.transaction(async (manager) => {
      await this.tenants.ensure(tenant, manager);
      const { grant, created } = await this.grants.grant(
        manager,
        { tenant, origin },
        note ?? null,
        actor,
      );
      if (created) {
        await this.audit.record(
          {
            tenant,
            type: 'destination.granted',
            actor,
            details: { to: origin, ...(note === undefined ? {} : { note }) },
          },
          manager,
        );
      }
      return view(grant);
    });
  }

  /**
   * Revokes the destination grant (null when there was none) and says which secret grants still
   * grant the origin, if any: those are revoked with `secrets revoke`.
   */
  async revoke(
    tenant: string,
    to: string,
    actor: string,
  ): Promise<{ revoked: DestinationGrantView | null; origin: string; secretGrants: string[] }> {
    const origin = this.grantable(to);
    const revoked = await this.dataSource.transaction(async (manager) => {
      const row = await this.grants.revoke(manager, { tenant, origin }, actor);
      if (!row) return null;
      await this.audit.record(
        { tenant, type: 'destination.revoked', actor, details: { to: origin } },
        manager,
      );
      return view(row);
    });
    const secretGrants = (await this.grants.live(tenant))
      .filter((g) => g.env !== null && g.origin === origin)
      .map((g) => g.env!);
    return { revoked, origin, secretGrants };
  }

  /**
   * Live grants of both kinds, of one tenant or of all. A grant of one of the deployment's own
   * destinations says so; a secret grant of such an origin says that it does not grant it.
   */
  async list(tenant?: string): Promise<DestinationListRow[]> {
    const own = this.deploymentOrigins();
    return (await this.grants.liveRows(tenant)).map((g) => {
      const names = own
        .filter((d) => d.origin === g.origin)
        .map((d) => d.name)
        .join(' and ');
      const by =
        g.env === null
          ? `destination grant${names ? ` (${names})` : ''}`
          : `secret grant of ${g.env}${names ? ` (only ${g.env} may go there: not ${names})` : ''}`;
      return {
        tenant: g.tenant,
        to: g.origin,
        by,
        note: g.note ?? '',
        granted_by: g.grantedBy,
        granted_at: g.grantedAt.toISOString(),
      };
    });
  }

  /**
   * The origin `--to` names: an origin, `default-model` / `smtp`, or a `MODEL_PLANNERS` planner's
   * id (its endpoint); throws with the reason.
   */
  grantable(to: string): string {
    const planner = this.plannerOrigin(to);
    if (planner) return planner;
    if (to in DEPLOYMENT_DESTINATIONS) {
      const origin = this.deploymentOrigin(to as DeploymentDestination);
      if (!origin) {
        throw new Error(
          to === 'smtp'
            ? '--to smtp: this deployment sets no SMTP_URL (in the environment the CLI runs in); name the origin instead, like smtp://mail.internal:587'
            : '--to default-model: this deployment has no default model (DEFAULT_MODEL_PROVIDER, in the environment the CLI runs in); name the origin instead, like https://api.anthropic.com',
        );
      }
      return origin;
    }
    const checked = grantableOrigin(to);
    if ('problem' in checked) throw new Error(`--to: ${checked.problem}`);
    return checked.origin;
  }
}

function view(grant: DestinationGrant): DestinationGrantView {
  return {
    tenant: grant.tenant,
    to: grant.origin,
    note: grant.note,
    granted_by: grant.grantedBy,
    granted_at: grant.grantedAt.toISOString(),
  };
}
