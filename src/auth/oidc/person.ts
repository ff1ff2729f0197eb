import { TENANT_PATTERN } from '../../tenants/tenant.entity';

/** Who signed in, from the identity provider's claims. */
export interface Person {
  /** The provider's `sub`: the person's audit actor. */
  subject: string;
  /** The provider's `iss`: a `sub` is unique only within its issuer (approver groups, deciders.ts). */
  issuer: string;
  name: string | null;
  email: string | null;
  tenant: string;
  groups: string[];
}

export interface ClaimSettings {
  tenantClaim: string;
  /** One tenant for everyone (OIDC_TENANT): the tenant claim is then not read. */
  tenant?: string;
  groupsClaim: string;
}

/** The most groups kept per person; a provider sending more is cut here (and says so in the log). */
export const MAX_GROUPS = 500;

/**
 * The person the claims describe (the ID token's, completed from userinfo), or why they cannot
 * sign in. A groups claim may be a list of names or one name; anything else counts as no groups.
 * Pure.
 */
export function personFromClaims(
  claims: Record<string, unknown>,
  settings: ClaimSettings,
): { person: Person } | { problem: string } {
  const subject = claims.sub;
  if (typeof subject !== 'string' || subject.length === 0 || subject.length > 255) {
    return { problem: 'the identity provider sent no usable subject (sub)' };
  }
  const issuer = claims.iss;
  if (typeof issuer !== 'string' || issuer.length === 0 || issuer.length > 2048) {
    return { problem: 'the identity provider sent no usable issuer (iss)' };
  }
  const tenant = settings.tenant ?? claims[settings.tenantClaim];
  if (typeof tenant !== 'string' || !TENANT_PATTERN.test(tenant)) {
    return {
      problem:
        tenant === undefined
          ? `your account carries no tenant (claim ${settings.tenantClaim})`
          : `your account's tenant (claim ${settings.tenantClaim}) is not a tenant name`,
    };
  }
  return {
    person: {
      subject,
      issuer,
      name: text(claims.name) ?? text(claims.preferred_username),
      email: text(claims.email),
      tenant,
      groups: groupsOf(claims[settings.groupsClaim]),
    },
  };
}

function groupsOf(value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const names = list.filter(
    (g): g is string => typeof g === 'string' && g.length > 0 && g.length <= 256,
  );
  return [...new Set(names)].slice(0, MAX_GROUPS);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 200) : null;
}

/** Whether the claims lack something userinfo may add (providers differ in what the ID token holds). */
export function needsUserInfo(claims: Record<string, unknown>, settings: ClaimSettings): boolean {
  return (
    claims[settings.groupsClaim] === undefined ||
    (settings.tenant === undefined && claims[settings.tenantClaim] === undefined) ||
    claims.name === undefined
  );
}
