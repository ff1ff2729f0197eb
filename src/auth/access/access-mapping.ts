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

/** The groups that would hold `governance.weaken` under `next` but do not under `current`. */
export function groupsGainingWeaken(current: AccessMapping, next: AccessMapping): string[] {
  return Object.keys(next).filter(
    (g) => next[g].includes('governance.weaken') && !current[g]?.includes('governance.weaken'),
  );
}
