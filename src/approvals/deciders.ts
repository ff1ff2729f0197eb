/**
 * Who may decide a held write (DESIGN §6, approver groups). An approval carries its deciders: the
 * groups or token subjects named by the agent's `approvers` when the write was held, with
 * `escalate_to` added once it is escalated; null means anyone with `agents.approve` in the tenant.
 * A caller is one of them when its subject or any of its identity-provider groups is named. Pure.
 */

export interface Identity {
  subject: string;
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

/** The names a caller answers to: its subject and its groups. */
export function namesOf(caller: Identity): string[] {
  return [caller.subject, ...[...caller.groups].filter((group) => group !== caller.subject)];
}

export function mayDecide(caller: Identity, deciders: readonly string[] | null): boolean {
  if (deciders === null) return true;
  return namesOf(caller).some((name) => deciders.includes(name));
}

/**
 * The 403 for someone who is not among the deciders, and, before an escalation that would let
 * them decide, when it comes.
 */
export function notADecider(
  caller: Identity,
  agent: string,
  deciders: readonly string[],
  escalation: { to: readonly string[]; at: Date } | null,
): string {
  const who = deciders.join(', ');
  const later =
    escalation && mayDecide(caller, escalation.to)
      ? `; it is handed to ${escalation.to.join(', ')} at ${escalation.at.toISOString()}`
      : '';
  return `only members of ${who} may decide writes of agent ${agent}, and ${caller.subject} is not one${later}`;
}
