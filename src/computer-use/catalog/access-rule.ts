/**
 * May this caller use this planner (docs/planners.md "Planners as a catalog")? Five steps, in order:
 *   1. the operator denied it to the subject or the tenant → no;
 *   2. the operator allowed it to the subject or the tenant → yes;
 *   3. the planner is public → yes;
 *   4. the subject has one of its tags, or the tenant is in one of its programs → yes;
 *   5. otherwise → no.
 * An allow or deny names an id or a family (every version and effort). A deny always wins. Pure:
 * the planner, who asks and the operator's rules in, a decision with its one-sentence why out.
 */

/** What the rule needs to know of a planner. */
export interface RulePlanner {
  id: string;
  family: string;
  public: boolean;
  /** Why it is public, when it is ("it is a script of this tenant"). */
  publicWhy?: string;
  /** Subjects with one of these tags may use it (step 4). */
  tags: readonly string[];
  /** Tenants in one of these programs may use it (step 4). */
  programs: readonly string[];
}

/** Who asks: a subject of a tenant, with the subject's tags and the tenant's programs. */
export interface RuleCaller {
  tenant: string;
  subject: string;
  tags: readonly string[];
  programs: readonly string[];
}

/** An operator's allow or deny: to a tenant (subject null) or to one subject of it. */
export interface AccessGrant {
  kind: 'allow' | 'deny';
  tenant: string;
  subject: string | null;
  /** An id or a family. */
  planner: string;
}

export type AccessStep = 'denied' | 'allowed' | 'public' | 'tag' | 'program' | 'not_public';

export interface AccessDecision {
  available: boolean;
  step: AccessStep;
  /** One sentence, for the caller. */
  why: string;
}

function names(grant: AccessGrant, planner: RulePlanner): boolean {
  return grant.planner === planner.id || grant.planner === planner.family;
}

function appliesTo(grant: AccessGrant, caller: RuleCaller): boolean {
  return (
    grant.tenant === caller.tenant && (grant.subject === null || grant.subject === caller.subject)
  );
}

function towards(grant: AccessGrant): string {
  return grant.subject === null ? `tenant ${grant.tenant}` : `subject ${grant.subject}`;
}

function what(grant: AccessGrant, planner: RulePlanner): string {
  return grant.planner === planner.id ? planner.id : `the ${grant.planner} family`;
}

/** The first grant of this kind that decides, a subject's own before its tenant's. */
function first(
  kind: AccessGrant['kind'],
  planner: RulePlanner,
  caller: RuleCaller,
  grants: readonly AccessGrant[],
): AccessGrant | undefined {
  const matching = grants.filter(
    (g) => g.kind === kind && names(g, planner) && appliesTo(g, caller),
  );
  return matching.find((g) => g.subject !== null) ?? matching[0];
}

export function decideAccess(
  planner: RulePlanner,
  caller: RuleCaller,
  grants: readonly AccessGrant[],
): AccessDecision {
  const deny = first('deny', planner, caller, grants);
  if (deny) {
    return {
      available: false,
      step: 'denied',
      why: `${planner.id} is not available: the deployment operator denied ${what(deny, planner)} to ${towards(deny)}.`,
    };
  }
  const allow = first('allow', planner, caller, grants);
  if (allow) {
    return {
      available: true,
      step: 'allowed',
      why: `The deployment operator allowed ${what(allow, planner)} to ${towards(allow)}.`,
    };
  }
  if (planner.public) {
    return {
      available: true,
      step: 'public',
      why: planner.publicWhy ?? `${planner.id} is public.`,
    };
  }
  const tag = planner.tags.find((t) => caller.tags.includes(t));
  if (tag) {
    return {
      available: true,
      step: 'tag',
      why: `Subject ${caller.subject} is tagged ${tag}, which ${planner.id} is for.`,
    };
  }
  const program = planner.programs.find((p) => caller.programs.includes(p));
  if (program) {
    return {
      available: true,
      step: 'program',
      why: `Tenant ${caller.tenant} is in the program ${program}, which ${planner.id} is for.`,
    };
  }
  return { available: false, step: 'not_public', why: notPublicWhy(planner, caller) };
}

function notPublicWhy(planner: RulePlanner, caller: RuleCaller): string {
  const ways = [
    ...(planner.tags.length > 0
      ? [`subjects tagged ${planner.tags.join(' or ')} (subject ${caller.subject} is not)`]
      : []),
    ...(planner.programs.length > 0
      ? [`tenants in the program ${planner.programs.join(' or ')} (tenant ${caller.tenant} is not)`]
      : []),
    'whoever the deployment operator allows it to',
  ];
  return `${planner.id} is not public: it is available only to ${ways.join(', or ')}.`;
}
