/** The permissions a token can carry (docs/security.md). */
export const PERMISSIONS = [
  'computer_use.admin',
  'agents.operate',
  'agents.approve',
  'audit.read',
  'governance.weaken',
  /** A remote planner's worker: asks for, claims and answers its families' waiting steps (docs/models.md). */
  'planners.serve',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
