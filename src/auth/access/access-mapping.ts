import { isPermission, Permission, PERMISSIONS } from '../permission';

/** A tenant's mapping of the identity provider's groups to Warden's permissions (docs/security.md). */
export type AccessMapping = Record<string, Permission[]>;

export const MAX_MAPPED_GROUPS = 500;

/**
 * The mapping a `PUT /api/admin/access` body stands for, or why it is refused: group names of
 * 1-256 characters, known permissions only (each kept once, in PERMISSIONS' order). Pure.
 */
export function readAccessMapping(
  groups: Record<string, unknown>,
): { mapping: AccessMapping } | { problem: string } {
  const names = Object.keys(groups);
  if (names.length > MAX_MAPPED_GROUPS) {
    return { problem: `at most ${MAX_MAPPED_GROUPS} groups can be mapped` };
  }
  const mapping: AccessMapping = {};
  for (const name of names) {
    if (name.length === 0 || name.length > 256 || name.trim() !== name) {
      return {
        problem: `group names are 1-256 characters without spaces around them (${JSON.stringify(name.slice(0, 80))})`,
      };
    }
    const permissions = groups[name];
    if (!Array.isArray(permissions) || permissions.some((p) => typeof p !== 'string')) {
      return { problem: `groups.${name} must be a list of permissions` };
    }
    const unknown = (permissions as string[]).filter((p) => !isPermission(p));
    if (unknown.length > 0) {
      return {
        problem: `groups.${name}: unknown permission ${unknown.join(', ')}: one of ${PERMISSIONS.join(', ')}`,
      };
    }
    mapping[name] = PERMISSIONS.filter((p) => (permissions as string[]).includes(p));
  }
  return { mapping };
}

/** A group whose change may make admins who may weaken, and the change, as the 403 names it. */
export interface WeakenGain {
  group: string;
  change: string;
}

const WEAKEN = 'governance.weaken';
const ADMIN = 'computer_use.admin';

/**
 * The groups whose change under `next` may make more people admins who may weaken
 * (docs/security.md, "Signing in"): a group that newly holds `governance.weaken`; and a group that
 * newly holds `computer_use.admin` while it holds `governance.weaken`, or while another group holds
 * `governance.weaken` without `computer_use.admin` (a member of both becomes such an admin, and
 * who is in which group only the identity provider knows: the safe side).
 */
export function groupsGainingWeaken(current: AccessMapping, next: AccessMapping): WeakenGain[] {
  const weakenOnly = Object.keys(next).filter(
    (g) => next[g].includes(WEAKEN) && !next[g].includes(ADMIN),
  );
  const gains: WeakenGain[] = [];
  for (const group of Object.keys(next)) {
    const had = current[group] ?? [];
    if (next[group].includes(WEAKEN) && !had.includes(WEAKEN)) {
      gains.push({ group, change: `mapping ${group} to ${WEAKEN}` });
      continue;
    }
    if (!next[group].includes(ADMIN) || had.includes(ADMIN)) continue;
    if (next[group].includes(WEAKEN)) {
      gains.push({ group, change: `mapping ${group}, which holds ${WEAKEN}, to ${ADMIN}` });
      continue;
    }
    const others = weakenOnly.filter((g) => g !== group);
    if (others.length > 0) {
      gains.push({
        group,
        change: `mapping ${group} to ${ADMIN} while ${others.join(', ')} ${others.length === 1 ? 'holds' : 'hold'} ${WEAKEN} (a member of both may weaken)`,
      });
    }
  }
  return gains;
}
