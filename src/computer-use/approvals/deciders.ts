/**
 * Who may decide a held write (docs/security.md, approver groups). An approval carries its deciders: the
 * typed entries of the agent's `approvers` when the write was held (`group:NAME`,
 * `subject:NAME`), with `escalate_to` added once it is escalated; null means anyone with
 * `agents.approve` in the tenant. A caller is one of them when one of the typed names it answers
 * to is listed: a group only matches a person's groups, a subject only the caller's subject, so a
 * person whose subject is a group's name, or a token whose subject is, never counts as the group.
 * Pure.
 */

export interface Identity {
  subject: string;
  /**
   * Who vouches for the subject and groups: the identity provider that signed the person in
   * (its ID token's `iss`); null for an API token, which stands for its subject alone.
   */
  issuer: string | null;
  groups: ReadonlySet<string>;
}

/** The deciders of a write held now under `approvers` (`[]`: anyone). */
export function decidersAtHold(approvers: readonly string[]): string[] | null {
  return approvers.length > 0 ? [...approvers] : null;
}

/** The deciders once escalated: `escalateTo` added; anyone stays anyone. */
export function decidersAfterEscalation(
  deciders: readonly string[] | null,
  escalateTo: readonly string[],
): string[] | null {
  if (deciders === null) return null;
  return [...deciders, ...escalateTo.filter((name) => !deciders.includes(name))];
}

/**
 * Whether `issuer` is the one the deployment trusts (`OIDC_ISSUER_URL`; undefined: none), compared
 * as URLs, as the OpenID client compares the provider's metadata with it at discovery (a trailing
 * slash of an issuer without a path is the same issuer).
 */
export function trustedIssuer(issuer: string | null, trusted: string | undefined): boolean {
  if (!issuer || !trusted) return false;
  try {
    return new URL(issuer).href === new URL(trusted).href;
  } catch {
    return false;
  }
}

/**
 * The typed names a caller answers to: an API token `subject:` its subject; a person signed in
 * through the trusted issuer `subject:` its subject (`sub`, which is unique only within its
 * issuer) and `group:` each of its groups; a person of any other issuer (a session from before
 * the deployment changed its identity provider, or from before Warden recorded the issuer) none.
 */
export function namesOf(caller: Identity, trusted: string | undefined): string[] {
  if (caller.issuer === null) return [`subject:${caller.subject}`];
  if (!trustedIssuer(caller.issuer, trusted)) return [];
  return [`subject:${caller.subject}`, ...[...caller.groups].map((group) => `group:${group}`)];
}

export function mayDecide(
  caller: Identity,
  deciders: readonly string[] | null,
  trusted: string | undefined,
): boolean {
  if (deciders === null) return true;
  return namesOf(caller, trusted).some((name) => deciders.includes(name));
}

/**
 * The 403 for someone who is not among the deciders, and, before an escalation that would let
 * them decide, when it comes; a person whose issuer is not trusted is told to sign in again.
 */
export function notADecider(
  caller: Identity,
  agent: string,
  deciders: readonly string[],
  escalation: { to: readonly string[]; at: Date } | null,
  trusted: string | undefined,
): string {
  const who = deciders.join(', ');
  const later =
    escalation && mayDecide(caller, escalation.to, trusted)
      ? `; it is handed to ${escalation.to.join(', ')} at ${escalation.at.toISOString()}`
      : '';
  const untrusted =
    caller.issuer !== null && !trustedIssuer(caller.issuer, trusted)
      ? ' (your sign-in is not from the identity provider this deployment trusts now: sign in again)'
      : '';
  return `only ${who} may decide writes of agent ${agent}, and ${caller.subject} is not one of them${later}${untrusted}`;
}
