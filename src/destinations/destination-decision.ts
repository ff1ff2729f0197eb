/**
 * May this tenant's traffic go to this origin (docs/security.md "Destinations")? Pure: the tenant's live
 * grants in, a decision out. An origin is granted for a tenant when a live destination grant names
 * it, or a live secret grant does (granting a secret for an origin grants the origin); compared in
 * normal form, scheme, host and port alike, so another port, another scheme or another spelling of
 * another host is another origin. One of the deployment's own destinations (its default model, a
 * `MODEL_PLANNERS` planner, its SMTP server: the operator's key, the operator's server) is granted
 * only by a destination grant: a secret grant of the same origin lets the tenant's own key go
 * there, never the operator's.
 */
import { normalOrigin } from './destination-origin';

/** The deployment's own destinations, named so in messages and grants (`--to default-model`). */
export const DEPLOYMENT_DESTINATIONS = {
  'default-model': "the deployment's default model",
  smtp: "the deployment's SMTP server",
} as const;
export type DeploymentDestination = keyof typeof DEPLOYMENT_DESTINATIONS;

/**
 * Where the deployment's own key or server is used: one of its named destinations, or the endpoint
 * of one of its `MODEL_PLANNERS` planners, named by the planner's id (`--to <id>`).
 */
export type DeploymentTarget = DeploymentDestination | { planner: string };

/** The target as messages and `destinations list` name it. */
export function deploymentName(target: DeploymentTarget): string {
  return typeof target === 'string'
    ? DEPLOYMENT_DESTINATIONS[target]
    : `the deployment's model planner ${target.planner}`;
}

/** What `destinations grant --to` takes to grant the target. */
export function deploymentTo(target: DeploymentTarget): string {
  return typeof target === 'string' ? target : target.planner;
}

/** A connection Warden is about to open on a tenant's behalf. */
export interface DestinationUse {
  tenant: string;
  /** Where it goes, as `destination-origin.ts` makes it. */
  origin: string;
  /** What connects, in messages: `the syslog sink "siem"`. */
  what: string;
  /**
   * One of the deployment's own destinations (its default model, a `MODEL_PLANNERS` planner, its
   * SMTP server): granted only by a destination grant, and a message names it by that, not by its
   * address, which a tenant admin did not choose and need not learn.
   */
  deployment?: DeploymentTarget;
}

/** A live grant of the tenant's: a destination grant (`env` null) or a secret grant. */
export interface LiveGrant {
  origin: string;
  env: string | null;
}

export type Decision =
  { granted: true; by: LiveGrant[] } | { granted: false; message: string; fix: string };

/** The operator's command that grants `to` to `tenant`. */
export function grantCommand(tenant: string, to: string): string {
  return `npm run cli -- destinations grant --tenant ${tenant} --to ${to}`;
}

export function decide(use: DestinationUse, grants: readonly LiveGrant[]): Decision {
  const origin = normalOrigin(use.origin);
  const by =
    origin === null
      ? []
      : grants.filter(
          (g) => normalOrigin(g.origin) === origin && (!use.deployment || g.env === null),
        );
  if (by.length > 0) return { granted: true, by };
  if (use.deployment) {
    const fix = grantCommand(use.tenant, deploymentTo(use.deployment));
    return {
      granted: false,
      fix,
      message: `${use.what} goes to ${deploymentName(use.deployment)}, which is not granted for tenant ${use.tenant}: Warden connects there on this tenant's behalf once the deployment operator adds the grant with \`${fix}\``,
    };
  }
  const fix = grantCommand(use.tenant, origin ?? use.origin);
  return {
    granted: false,
    fix,
    message: `${use.what} at ${origin ?? use.origin} is not granted for tenant ${use.tenant}: Warden connects there on this tenant's behalf once the deployment operator adds the grant with \`${fix}\``,
  };
}
